package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/internal/fakenet"
)

// runNet runs the command line with the fake network.
func runNet(t *testing.T, n *fakenet.Net, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	status := run(args, &env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Network: n.Policy(fetch.Policy{})})
	return stdout.String(), stderr.String(), status
}

func port(s *site) string { return s.URL[strings.LastIndex(s.URL, ":")+1:] }

func TestRemoteHostPolicy(t *testing.T) {
	// A loopback server plays an index whose children are on its origin
	// (allowed: the input itself is on loopback), on another loopback
	// port (another origin), and on names that resolve to link-local,
	// private, CGNAT and unspecified addresses, which are refused even
	// with --follow-other-hosts; every refusal is a failed child with its
	// reason, and no refused address is connected to.
	s := newSite(t)
	other := newSite(t)
	own := s.children(1, 0)
	otherLocs := other.children(1, 0)
	n := fakenet.New()
	n.Name("metadata.example", "169.254.169.254")
	n.Name("intranet.example", "10.0.0.8")
	n.Name("cgnat.example", "100.64.1.1")
	n.Name("zero.example", "0.0.0.0")
	refused := []string{"http://metadata.example/latest/meta-data/", "http://intranet.example/sitemap.xml",
		"http://cgnat.example/sitemap.xml", "http://zero.example/sitemap.xml", "http://[fe80::1]/sitemap.xml"}
	s.doc("/index.xml", sitemapIndex(append([]string{own[0], otherLocs[0]}, refused...)...))
	s.doc("/own.xml", sitemapIndex(own[0]))
	s.doc("/other.xml", sitemapIndex(otherLocs[0]))

	out, errOut, status := runNet(t, n, s.URL+"/own.xml", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, s.URL+"/page/1/a\n"+s.URL+"/page/1/b\n", out)

	_, errOut, status = runNet(t, n, s.URL+"/other.xml", "--to", "text")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: failed: "+otherLocs[0]+": fetch: another origin: refused: it is not on the origin of its index "+s.URL+"/other.xml (scheme, host and port; --follow-other-hosts follows it) (listed by "+s.URL+"/other.xml)\n")
	assert.Empty(t, other.requests(), "nothing asked of the other origin")

	out, errOut, status = runNet(t, n, s.URL+"/other.xml", "--to", "text", "--follow-other-hosts")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, other.URL+"/page/1/a\n"+other.URL+"/page/1/b\n", out)

	// submit reads its inputs under the same policy.
	_, errOut, status = runNet(t, n, "submit", "--dry-run", "--indexnow-key", testKey, s.URL+"/other.xml")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "error: convert: inputs failed: "+otherLocs[0]+": fetch: another origin: refused")
	assert.Len(t, other.requests(), 1, "asked only with --follow-other-hosts")

	_, errOut, status = runNet(t, n, s.URL+"/index.xml", "--to", "text", "--follow-other-hosts", "--keep-going")
	assert.Equal(t, exitFail, status)
	for loc, why := range map[string]string{
		refused[0]: "metadata.example resolves to 169.254.169.254, which is a link-local address",
		refused[1]: "intranet.example resolves to 10.0.0.8, which is a private address",
		refused[2]: "cgnat.example resolves to 100.64.1.1, which is a private address",
		refused[3]: "zero.example resolves to 0.0.0.0, which is an unspecified address",
		refused[4]: "fe80::1 is a link-local address",
	} {
		assert.Contains(t, errOut, "feed2sitemap: failed: "+loc+": fetch: address refused: "+why+", and the input was not on one (--allow-private-hosts allows it) (listed by "+s.URL+"/index.xml)\n")
	}
	assert.Contains(t, errOut, "read 4 entries from 1 input and 7 child sitemaps (5 failed)")
	for _, d := range n.Dialed() {
		assert.True(t, netip.MustParseAddrPort(d).Addr().IsLoopback(), "dialed %s", d)
	}

	// Opted in, the private addresses are connected to (here routed to
	// the loopback server).
	n.Route("169.254.169.254:80", "127.0.0.1:"+port(s))
	s.doc("/latest/meta-data/", "http://metadata.example/secret\n")
	s.doc("/meta.xml", sitemapIndex(refused[0]))
	out, errOut, status = runNet(t, n, s.URL+"/meta.xml", "--to", "text", "--follow-other-hosts", "--allow-private-hosts")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "http://metadata.example/secret\n", out)
}

func TestPublicIndexPrivateChildren(t *testing.T) {
	// An index on a public name (routed to a loopback server): a child
	// whose name resolves to 127.0.0.1, and a child that redirects to
	// 127.0.0.1 or to a name on a private address, are refused; so is a
	// redirect to another origin. validate reports the same refusals.
	s := newSite(t)
	p := port(s)
	n := fakenet.New()
	n.Name("www.example", "203.0.113.10")
	n.Name("evil.example", "127.0.0.1")
	n.Name("intranet.example", "192.168.1.20")
	n.Route("203.0.113.10:"+p, "127.0.0.1:"+p)
	n.Route("192.168.1.20:"+p, "127.0.0.1:"+p)
	www := "http://www.example:" + p
	s.doc("/child.txt", www+"/page\n")
	s.mux.Handle("/to-loopback", http.RedirectHandler("http://127.0.0.1:"+p+"/child.txt", http.StatusFound))
	s.mux.Handle("/to-private", http.RedirectHandler("http://intranet.example:"+p+"/child.txt", http.StatusMovedPermanently))
	s.doc("/index.xml", sitemapIndex(www+"/child.txt", "http://evil.example:"+p+"/child.txt", www+"/to-loopback", www+"/to-private"))

	_, errOut, status := runNet(t, n, www+"/index.xml", "--to", "text")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: failed: http://evil.example:"+p+"/child.txt: fetch: another origin: refused")
	assert.Contains(t, errOut, "feed2sitemap: failed: "+www+"/to-loopback: fetch: another origin: refused a redirect to http://127.0.0.1:"+p+"/child.txt")

	_, errOut, status = runNet(t, n, www+"/index.xml", "--to", "text", "--follow-other-hosts")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: failed: http://evil.example:"+p+"/child.txt: fetch: address refused: evil.example resolves to 127.0.0.1, which is a loopback address, and the input was not on one (--allow-private-hosts allows it)")
	assert.Contains(t, errOut, "feed2sitemap: failed: "+www+"/to-loopback: fetch: address refused: 127.0.0.1 is a loopback address")
	assert.Contains(t, errOut, "feed2sitemap: failed: "+www+"/to-private: fetch: address refused: intranet.example resolves to 192.168.1.20, which is a private address")
	assert.Contains(t, errOut, "(3 failed)")

	out, errOut, status := runNet(t, n, www+"/index.xml", "--to", "text", "--follow-other-hosts", "--allow-private-hosts")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, www+"/page\n", out)

	// validate: the refusals are child-unreadable findings, and nothing of
	// the refused children is checked.
	out, _, status = runNet(t, n, "validate", www+"/index.xml", "--follow-other-hosts")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, out, "error: cannot read the sitemap http://evil.example:"+p+"/child.txt: http://evil.example:"+p+"/child.txt: fetch: address refused: evil.example resolves to 127.0.0.1")
	assert.Contains(t, out, "error: cannot read the sitemap "+www+"/to-private: "+www+"/to-private: fetch: address refused: intranet.example resolves to 192.168.1.20")
	assert.Equal(t, 1, strings.Count(out, "listed by "+www+"/index.xml)"), "only the child on the index's origin is checked")
	out, _, _ = runNet(t, n, "validate", www+"/index.xml")
	assert.Contains(t, out, "cannot read the sitemap "+www+"/to-loopback: "+www+"/to-loopback: fetch: another origin: refused a redirect to http://127.0.0.1:"+p+"/child.txt")
	assert.Contains(t, out, "cannot read the sitemap http://evil.example:"+p+"/child.txt: http://evil.example:"+p+"/child.txt: fetch: another origin: refused: it is not on the origin of its index "+www+"/index.xml")

	// A robots.txt on loopback read from standard input has no address:
	// its sitemaps on loopback are refused unless allowed.
	robots := "User-agent: *\nSitemap: " + s.URL + "/child.txt\n"
	var stdout, stderr bytes.Buffer
	status = run([]string{"-", "--to", "text"}, &env{Stdin: strings.NewReader(robots), Stdout: &stdout, Stderr: &stderr, Network: n.Policy(fetch.Policy{})})
	assert.Equal(t, exitFail, status)
	assert.Contains(t, stderr.String(), "feed2sitemap: failed: "+s.URL+"/child.txt: fetch: address refused: 127.0.0.1 is a loopback address")
}

func TestTruncatedChildren(t *testing.T) {
	// A child whose body is shorter than its Content-Length, or whose
	// chunked body ends before its last chunk, a gzipped sitemap cut
	// short, a sitemap that ends before its closing tag, and a feed cut
	// short in an item, are failed children: the run fails (--keep-going still writes the
	// others, and fails).
	s := newSite(t)
	full := `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + s.URL + `/a</loc></url><url><loc>` + s.URL + `/b</loc></url></urlset>`
	s.mux.HandleFunc("/short.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(full)))
		w.WriteHeader(http.StatusOK)
		w.Write([]byte(full[:80]))
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	s.mux.HandleFunc("/chunked.xml", func(w http.ResponseWriter, r *http.Request) {
		// Chunked, and the connection closes before the last chunk.
		w.Write([]byte(full[:80]))
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	zipped := gzipped([]byte(full))
	s.mux.HandleFunc("/cut.xml.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(zipped[:len(zipped)-12]) })
	s.doc("/prefix.xml", full[:len(full)-len("</urlset>")])
	s.doc("/feed.xml", `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><item><link>`+s.URL+`/c</link></item><item><link>`+s.URL+`/d</link>`)
	good := s.children(1, 0)
	for _, child := range []string{"/short.xml", "/chunked.xml", "/cut.xml.gz", "/prefix.xml", "/feed.xml"} {
		t.Run(child, func(t *testing.T) {
			s.doc("/index"+child, sitemapIndex(good[0], s.URL+child))
			out := filepath.Join(t.TempDir(), "sitemap.xml")
			_, errOut, status := runCLI(t, nil, s.URL+"/index"+child, "-o", out)
			assert.Equal(t, exitFail, status)
			assert.Contains(t, errOut, "feed2sitemap: failed: "+s.URL+child)
			assert.Contains(t, errOut, "1 input could not be read")
			assert.NoFileExists(t, out)
			_, errOut, status = runCLI(t, nil, s.URL+"/index"+child, "-o", out, "--keep-going")
			assert.Equal(t, exitFail, status, errOut)
			assert.FileExists(t, out)
			report, _, status := runCLI(t, nil, "validate", s.URL+"/index"+child)
			assert.Equal(t, exitFail, status, "validate: %s", report)
			assert.Regexp(t, `\[(child-unreadable|xml-syntax|feed-invalid|gzip)\]`, report)
		})
	}
	// Top-level inputs: a body cut short on the way fails the run; a
	// document that ends early is read up to the damage, with a warning
	// (as a local file is), and --strict fails it.
	_, errOut, status := runCLI(t, nil, s.URL+"/short.xml")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: error: "+s.URL+"/short.xml: unexpected EOF\n")
	_, errOut, status = runCLI(t, nil, s.URL+"/prefix.xml", "--to", "text")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, errOut, "document cut short?); reading stopped after 2 entries; kept the 2 entries read before it")
	_, _, status = runCLI(t, nil, s.URL+"/prefix.xml", "--to", "text", "--strict")
	assert.Equal(t, exitFail, status)
}

func TestRunDeadline(t *testing.T) {
	// A silent child, a silent input and a server that asks to wait stop
	// the run at --deadline, with an error naming the deadline and the
	// URL being fetched; --keep-going does not go on past it.
	s := newSite(t)
	release := make(chan struct{})
	defer close(release)
	s.mux.HandleFunc("/silent.xml", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	s.mux.HandleFunc("/busy.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "50")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	})
	good := s.children(1, 0)
	s.doc("/index.xml", sitemapIndex(good[0], s.URL+"/silent.xml", s.URL+"/busy.xml"))
	want := ": stopped: the run took longer than its deadline of 300ms (--deadline)"
	for _, args := range [][]string{
		{s.URL + "/index.xml"},
		{s.URL + "/index.xml", "--keep-going"},
		{s.URL + "/silent.xml"},
		{s.URL + "/busy.xml", "--retries", "3"},
		{"validate", s.URL + "/silent.xml"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sitemap.xml")
			if args[0] != "validate" {
				args = append(args, "-o", out)
			}
			_, errOut, status := runCLI(t, nil, append(args, "--deadline", "300ms")...)
			assert.NotEqual(t, exitOK, status)
			assert.Regexp(t, `error: `+s.URL+`/(silent|busy)\.xml`, errOut)
			assert.Contains(t, errOut, want)
			assert.NoFileExists(t, out)
		})
	}
	_, errOut, status := runCLI(t, nil, s.URL+"/index.xml", "--deadline=-1s")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--deadline cannot be negative")
	// The default is stated in the help.
	help, _, _ := runCLI(t, nil, "help", "convert")
	assert.Contains(t, help, "5m per level of following")
}

func TestServerTextIsEscaped(t *testing.T) {
	// Escape sequences in a status line, in an IndexNow error body, and
	// in a URL an index lists never reach standard error (or validate's
	// report) raw.
	s := newSite(t)
	s.mux.HandleFunc("/evil-status.xml", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString("HTTP/1.1 404 \x1b]0;pwned\x07\x1b[2J\u009b31m\u202eNot Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		buf.Flush()
	})
	s.doc("/index.xml", sitemapIndex(s.URL+"/evil-status.xml", s.URL+"/gone&#x9b;2J&#x202e;.xml"))
	raw := []string{"\x1b", "\x07", "\u009b", "\u202e"}
	check := func(t *testing.T, text string) {
		t.Helper()
		for _, r := range raw {
			assert.NotContains(t, text, r)
		}
	}
	_, errOut, status := runCLI(t, nil, s.URL+"/index.xml", "--keep-going", "--to", "text")
	assert.Equal(t, exitFail, status)
	check(t, errOut)
	assert.Contains(t, errOut, `HTTP 404 \x1b]0;pwned\x07\x1b[2J\u009b31m\u202eNot Found`)
	assert.Contains(t, errOut, `/gone\u009b2J\u202e.xml`)

	out, _, status := runCLI(t, nil, "validate", s.URL+"/index.xml")
	assert.Equal(t, exitFail, status)
	check(t, out)
	assert.Contains(t, out, `\u009b`)
	out, _, _ = runCLI(t, nil, "validate", "--format", "json", s.URL+"/index.xml")
	check(t, out)
	var rep map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rep), "still JSON")
	assert.Contains(t, out, `\u009b`)

	// IndexNow's answer.
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, "bad key \x1b[31m\u009b\u202eowned\r")
	}))
	defer endpoint.Close()
	list := filepath.Join(t.TempDir(), "urls.txt")
	require.NoError(t, os.WriteFile(list, []byte("https://example.com/a\n"), 0o644))
	out, errOut, status = runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", endpoint.URL+"/indexnow", "--retries", "0", list)
	assert.Equal(t, exitFail, status)
	check(t, out)
	check(t, errOut)
	assert.Contains(t, out, `the server said: bad key \x1b[31m\u009b\u202eowned`)
}

func TestSubmitRedirectIsAFailure(t *testing.T) {
	// A redirect of the POST is never followed: a 301, 302 or 303 would
	// turn it into a GET answered 200, and a 307 or 308 would send it
	// elsewhere. Nothing counts as submitted, and --since-state is not
	// written.
	final := newIndexNowServer(t, nil)
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprint(w, "ok") // answers anything 200, a GET included
			}))
			defer ok.Close()
			redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				target := ok.URL + "/indexnow"
				if code >= 307 {
					target = final.endpoint()
				}
				http.Redirect(w, r, target, code)
			}))
			defer redirect.Close()
			dir := t.TempDir()
			list := filepath.Join(dir, "urls.txt")
			state := filepath.Join(dir, "state")
			require.NoError(t, os.WriteFile(list, []byte("https://example.com/a\nhttps://example.com/b\n"), 0o644))
			out, errOut, status := runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", redirect.URL+"/indexnow", "--since-state", state, "--retries", "2", list)
			assert.Equal(t, exitFail, status)
			assert.Contains(t, out, fmt.Sprintf("example.com: 2 URLs: %d %s: the endpoint redirects to ", code, http.StatusText(code)))
			assert.Contains(t, out, "a redirect of the POST is not followed (give the final URL as the endpoint)")
			assert.Contains(t, errOut, "tried to submit 2 URLs")
			assert.NoFileExists(t, state)
		})
	}
	assert.Empty(t, final.bodies, "nothing reached the endpoint redirected to")
}

func TestUnusableCacheWarns(t *testing.T) {
	// A --cache that is a file, or under one, is left out with a warning;
	// the fetch succeeds.
	s := newSite(t)
	s.mux.HandleFunc("/list.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		fmt.Fprint(w, s.URL+"/a\n")
	})
	file := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, dir := range []string{file, filepath.Join(file, "sub")} {
		out, errOut, status := runCLI(t, nil, s.URL+"/list.txt", "--to", "text", "--cache", dir)
		require.Equal(t, exitOK, status, errOut)
		assert.Equal(t, s.URL+"/a\n", out)
		sc := bufio.NewScanner(strings.NewReader(errOut))
		var warnings []string
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "feed2sitemap: warning: ") {
				warnings = append(warnings, sc.Text())
			}
		}
		require.Len(t, warnings, 1, errOut)
		assert.Contains(t, warnings[0], "feed2sitemap: warning: fetch: the cache directory "+dir+" cannot be used (")
		assert.Contains(t, warnings[0], "); fetching without the cache (--cache)")
	}
}
