package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
)

// site is a web site on loopback: documents by path, with a log of the
// requests it answered.
type site struct {
	*httptest.Server
	mux *http.ServeMux
	mu  sync.Mutex
	log []*http.Request
}

func newSite(t *testing.T) *site {
	s := &site{mux: http.NewServeMux()}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.log = append(s.log, r)
		s.mu.Unlock()
		s.mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// doc serves body at path.
func (s *site) doc(path, body string) {
	s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) })
}

// corpus serves a file of the real-world corpus at path, with the header.
func (s *site) corpus(t *testing.T, path, name string, header ...string) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus", name))
	require.NoError(t, err)
	s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Write(data)
	})
}

// requests returns the paths asked for, in order.
func (s *site) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var paths []string
	for _, r := range s.log {
		paths = append(paths, r.URL.Path)
	}
	return paths
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func sitemapIndex(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", l)
	}
	return b.String() + "</sitemapindex>\n"
}

func TestRemoteFeed(t *testing.T) {
	// The corpus feed whose only item link is relative resolves, served,
	// against the feed's final URL after a redirect.
	s := newSite(t)
	s.mux.Handle("/feed", http.RedirectHandler("/blog/feed.xml", http.StatusMovedPermanently))
	s.corpus(t, "/blog/feed.xml", "feedparser__http_item_link_base_docuri.xml", "Content-Type", "text/html")
	out, errOut, status := runCLIAtTerminal(t, nil, s.URL+"/feed", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, s.URL+"/relative/uri\n", out)
	assert.Equal(t, "feed2sitemap: read 1 entry from 1 input, wrote 1 to standard output\n", errOut)
	ua := s.log[0].UserAgent()
	assert.Regexp(t, `^feed2sitemap/\S+ \(\+https://github\.com/feed2sitemap/feed2sitemap\)$`, ua)

	_, _, status = runCLI(t, nil, s.URL+"/feed", "--to", "text", "--user-agent", "test-agent/1.0")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "test-agent/1.0", s.log[len(s.log)-1].UserAgent())
}

func TestRemoteFailures(t *testing.T) {
	s := newSite(t)
	loop := map[string]string{"/loop/a": "/loop/b", "/loop/b": "/loop/a"}
	s.mux.HandleFunc("/loop/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loop[r.URL.Path], http.StatusFound)
	})
	release := make(chan struct{})
	defer close(release)
	s.mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	bomb := gzipped(gzipped(bytes.Repeat([]byte("https://example.com/bomb\n"), 400_000))) // 10 MB in ~1 KB
	s.mux.HandleFunc("/bomb.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped(bomb))
	})
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bomb.txt.gz"), bomb, 0o644))
	s.mux.HandleFunc("/gone.xml", http.NotFound)

	for name, tc := range map[string]struct {
		args []string
		err  string
	}{
		"redirect loop": {[]string{s.URL + "/loop/a"},
			s.URL + "/loop/a: fetch: too many redirects: stopped after 10 (a redirect loop?)"},
		"time-out": {[]string{s.URL + "/hang", "--timeout", "200ms", "--retries", "0"},
			s.URL + "/hang: no complete answer within 200ms"},
		"404": {[]string{s.URL + "/gone.xml"},
			s.URL + "/gone.xml: HTTP 404 Not Found"},
		"gzip bomb, remote": {[]string{s.URL + "/bomb.txt", "--max-input-bytes", "1000000"},
			s.URL + "/bomb.txt:40001: formats: input too large: more than the cap of 1000000 bytes (counted decompressed); stopped rather than read part of it (--max-input-bytes sets the cap)"},
		"gzip bomb, local": {[]string{filepath.Join(dir, "bomb.txt.gz"), "--max-input-bytes", "1000000"},
			filepath.Join(dir, "bomb.txt.gz") + ":40001: formats: input too large: more than the cap of 1000000 bytes (counted decompressed); stopped rather than read part of it (--max-input-bytes sets the cap)"},
		"gzip bomb, a cap under what is sniffed": {[]string{s.URL + "/bomb.txt", "--max-input-bytes", "100"},
			s.URL + "/bomb.txt: formats: input too large: more than the cap of 100 bytes (counted decompressed); stopped rather than read part of it (--max-input-bytes sets the cap)"},
	} {
		t.Run(name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "sitemap.xml")
			_, errOut, status := runCLI(t, nil, append(tc.args, "-o", out)...)
			assert.Equal(t, exitFail, status)
			assert.Contains(t, errOut, "feed2sitemap: error: "+tc.err+"\n")
			assert.NoFileExists(t, out)
		})
	}

}

func TestMaxInputBytesDefaults(t *testing.T) {
	// The protocol's 50 MiB for remote inputs, no cap for local ones,
	// unless the flag says otherwise (0: no cap).
	inputs, err := (&env{}).inputs([]string{"https://example.com/sitemap.xml", "local.xml", "-"})
	require.NoError(t, err)
	assert.Equal(t, []int64{52428800, 0, 0}, []int64{inputs[0].MaxBytes, inputs[1].MaxBytes, inputs[2].MaxBytes})
	assert.Equal(t, "local.xml", inputs[1].Path)
	for _, n := range []int64{0, 1000} {
		src := &sourceFlags{MaxDepth: 5, Concurrency: 4, netFlags: netFlags{Timeout: time.Second, MaxInputBytes: &n}}
		inputs, err = src.inputs(&env{}, []string{"HTTPS://example.com/sitemap.xml", "local.xml"})
		require.NoError(t, err)
		assert.Equal(t, []int64{n, n}, []int64{inputs[0].MaxBytes, inputs[1].MaxBytes})
		assert.Empty(t, inputs[0].Path, "a URL is a remote input")
	}
}

func TestRemoteGzipAndRetries(t *testing.T) {
	s := newSite(t)
	data, err := os.ReadFile("../../testdata/corpus/gopherparsesitemap__sitemap.xml")
	require.NoError(t, err)
	serve := func(path, encoding string, body []byte) {
		s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if encoding != "" {
				w.Header().Set("Content-Encoding", encoding)
			}
			w.Write(body)
		})
	}
	serve("/header.xml", "gzip", gzipped(data))
	serve("/magic.xml.gz", "", gzipped(data))
	serve("/double.xml.gz", "gzip", gzipped(gzipped(data)))
	calls := map[string]int{}
	var mu sync.Mutex
	s.mux.HandleFunc("/flaky/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls[r.URL.Path]++
		n := calls[r.URL.Path]
		mu.Unlock()
		switch {
		case r.URL.Path == "/flaky/500" && n == 1:
			w.Header().Set("Retry-After", "0")
			http.Error(w, "oops", http.StatusInternalServerError)
		case r.URL.Path == "/flaky/429" && n == 1:
			w.Header().Set("Retry-After", "0")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case r.URL.Path == "/flaky/429-long":
			w.Header().Set("Retry-After", "3600")
			http.Error(w, "come back later", http.StatusTooManyRequests)
		default:
			w.Write(data)
		}
	})
	want, _, status := runCLI(t, nil, "../../testdata/corpus/gopherparsesitemap__sitemap.xml", "-q")
	require.Equal(t, exitOK, status)
	for _, path := range []string{"/header.xml", "/magic.xml.gz", "/double.xml.gz", "/flaky/500", "/flaky/429"} {
		out, errOut, status := runCLI(t, nil, s.URL+path, "-q")
		require.Equal(t, exitOK, status, errOut)
		assert.Equal(t, want, out, path)
	}
	assert.Equal(t, map[string]int{"/flaky/500": 2, "/flaky/429": 2}, calls)

	_, errOut, status := runCLI(t, nil, s.URL+"/flaky/429-long", "-q")
	assert.Equal(t, exitFail, status)
	assert.Equal(t, "feed2sitemap: error: "+s.URL+"/flaky/429-long: HTTP 429 Too Many Requests; the server asks to wait 1h0m0s, more than the 1m0s allowed\n", errOut)
}

// children serves n small sitemaps under /s/, each after a random delay,
// and returns their URLs.
func (s *site) children(n int, delay time.Duration) []string {
	var locs []string
	for i := 1; i <= n; i++ {
		body := fmt.Sprintf("%s/page/%d/a\n%s/page/%d/b\n", s.URL, i, s.URL, i)
		s.mux.HandleFunc(fmt.Sprintf("/s/%d.txt", i), func(w http.ResponseWriter, r *http.Request) {
			if delay > 0 {
				time.Sleep(rand.N(delay))
			}
			fmt.Fprint(w, body)
		})
		locs = append(locs, fmt.Sprintf("%s/s/%d.txt", s.URL, i))
	}
	return locs
}

func TestRemoteIndexFollowed(t *testing.T) {
	s := newSite(t)
	locs := s.children(12, 5*time.Millisecond)
	s.doc("/index.xml", sitemapIndex(locs...))
	var first string
	for run := range 4 {
		out, errOut, status := runCLIAtTerminal(t, nil, s.URL+"/index.xml", "--concurrency", "3")
		require.Equal(t, exitOK, status, errOut)
		if run == 0 {
			first = out
			conformance.ValidateXML(t, []byte(out))
			assert.Equal(t, 24, strings.Count(out, "<url>"))
			assert.Less(t, strings.Index(out, "/page/1/a"), strings.Index(out, "/page/12/b"))
			assert.Equal(t, "feed2sitemap: read 24 entries from 1 input and 12 child sitemaps, wrote 24 to standard output\n", errOut)
		}
		assert.Equal(t, first, out, "the same bytes, however fast each child came")
	}

	// -v lists the children read, under their index.
	_, errOut, status := runCLI(t, nil, s.URL+"/index.xml", "-v")
	require.Equal(t, exitOK, status)
	assert.Contains(t, errOut, "feed2sitemap:   "+s.URL+"/index.xml (xml): 12 child sitemaps, 0 read, 0 invalid, 0 duplicates, 0 written, 0 warnings\n")
	assert.Contains(t, errOut, "feed2sitemap:     "+s.URL+"/s/1.txt (text): 2 read, 0 invalid, 0 duplicates, 2 written, 0 warnings\n")

	// --no-follow writes the index.
	out, _, status := runCLI(t, nil, s.URL+"/index.xml", "--no-follow", "--to", "text")
	require.Equal(t, exitOK, status)
	assert.Equal(t, strings.Join(locs, "\n")+"\n", out)
}

func TestRemoteFailedChild(t *testing.T) {
	s := newSite(t)
	locs := s.children(3, 0)
	s.doc("/index.xml", sitemapIndex(locs[0], s.URL+"/missing.xml", locs[1], locs[2]))
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	reportPath := filepath.Join(dir, "report.json")

	stdout, errOut, status := runCLI(t, nil, s.URL+"/index.xml", "-o", out, "--report", reportPath)
	assert.Equal(t, exitFail, status)
	assert.Empty(t, stdout)
	assert.NoFileExists(t, out, "no output without --keep-going")
	assert.Equal(t, "feed2sitemap: failed: "+s.URL+"/missing.xml: HTTP 404 Not Found (listed by "+s.URL+"/index.xml)\n"+
		"feed2sitemap: read 6 entries from 1 input and 4 child sitemaps (1 failed); "+out+" not written\n"+
		"feed2sitemap: error: 1 input could not be read: "+s.URL+"/missing.xml: HTTP 404 Not Found (listed by "+s.URL+"/index.xml); "+
		"nothing was written (--keep-going writes what was read)\n", errOut)
	var r report
	b, err := os.ReadFile(reportPath)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &r))
	assert.Equal(t, []reportFailure{{Name: s.URL + "/missing.xml", Parent: s.URL + "/index.xml", Error: s.URL + "/missing.xml: HTTP 404 Not Found"}}, r.Failures)
	require.Len(t, r.Inputs, 5)
	assert.Equal(t, reportInput{Name: s.URL + "/index.xml", Format: "xml", Children: 4, Filtered: map[string]int{}}, r.Inputs[0])
	assert.Equal(t, reportInput{Name: locs[0], Format: "text", Parent: s.URL + "/index.xml", Depth: 1, Read: 2, Written: 2, Filtered: map[string]int{}}, r.Inputs[1])

	// Standard output gets nothing either.
	stdout, _, status = runCLI(t, nil, s.URL+"/index.xml")
	assert.Equal(t, exitFail, status)
	assert.Empty(t, stdout)

	// --keep-going writes the others, and still fails.
	_, errOut, status = runCLI(t, nil, s.URL+"/index.xml", "-o", out, "--keep-going")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "; the output was written without it (--keep-going)\n")
	written, err := os.ReadFile(out)
	require.NoError(t, err)
	conformance.ValidateXML(t, written)
	assert.Equal(t, 6, strings.Count(string(written), "<url>"))
}

func TestRemoteLoopsAndDepth(t *testing.T) {
	s := newSite(t)
	locs := s.children(1, 0)
	s.doc("/self.xml", sitemapIndex(s.URL+"/self.xml", locs[0]))
	s.doc("/a.xml", sitemapIndex(s.URL+"/b.xml"))
	s.doc("/b.xml", sitemapIndex(s.URL+"/a.xml", locs[0]))
	s.doc("/up.xml", sitemapIndex(s.URL+"/back", locs[0]))
	s.mux.Handle("/back", http.RedirectHandler("/up.xml", http.StatusFound))
	s.doc("/1.xml", sitemapIndex(s.URL+"/2.xml"))
	s.doc("/2.xml", sitemapIndex(s.URL+"/3.xml"))
	s.doc("/3.xml", sitemapIndex(locs[0]))
	for name, tc := range map[string]struct {
		args    []string
		warning string
	}{
		"an index that lists itself": {[]string{s.URL + "/self.xml"},
			s.URL + "/self.xml: child sitemap " + s.URL + "/self.xml skipped: it was read already"},
		"A → B → A": {[]string{s.URL + "/a.xml"},
			s.URL + "/b.xml: child sitemap " + s.URL + "/a.xml skipped: it was read already"},
		"a redirect back to an ancestor": {[]string{s.URL + "/up.xml"},
			s.URL + "/up.xml: child sitemap " + s.URL + "/back skipped: it leads to " + s.URL + "/up.xml, which was read already"},
	} {
		t.Run(name, func(t *testing.T) {
			out, errOut, status := runCLI(t, nil, append(tc.args, "--to", "text")...)
			require.Equal(t, exitOK, status, errOut)
			assert.Equal(t, s.URL+"/page/1/a\n"+s.URL+"/page/1/b\n", out)
			assert.Contains(t, errOut, "feed2sitemap: warning: "+tc.warning+"\n")
		})
	}
	// 1.xml → 2.xml → 3.xml → the sitemap: level 4.
	_, errOut, status := runCLI(t, nil, s.URL+"/1.xml", "--max-depth", "3")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: warning: "+s.URL+"/3.xml: child sitemap "+locs[0]+" not followed: it would be level 4, deeper than the limit of 3\n")
	assert.Contains(t, errOut, "nothing to write")
	_, errOut, status = runCLI(t, nil, s.URL+"/1.xml", "--max-depth", "4")
	assert.Equal(t, exitOK, status, errOut)

	_, errOut, status = runCLI(t, nil, s.URL+"/1.xml", "--max-urls-total", "1")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: error: convert: too many entries: more than 1 read over all inputs (the cap on the total), at "+locs[0]+" (--max-urls-total)\n")

	_, errOut, status = runCLI(t, nil, s.URL+"/1.xml", "--concurrency", "0")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--concurrency must be at least 1")
}

func TestRemoteRobots(t *testing.T) {
	s := newSite(t)
	// The corpus' robots.txt with a relative Sitemap: line and no final
	// newline, served with a sitemap from the corpus where it points.
	s.corpus(t, "/robots.txt", "crawlercommons__relative-sitemap-robots.txt")
	s.corpus(t, "/sitemap.xml", "gopherparsesitemap__sitemap.xml")
	// A robots.txt of our own: a BOM, relative, duplicate and lower-case
	// lines, and a redirect.
	locs := s.children(2, 0)
	s.doc("/b/robots.txt", "\ufeffUser-agent: *\nDisallow: /private/\nSitemap: ../s/1.txt\nsitemap: "+locs[0]+"\nSITEMAP:/s/2.txt # the second\nSitemap: /s/1.txt\n")
	s.mux.Handle("/a/robots.txt", http.RedirectHandler("/b/robots.txt", http.StatusFound))

	out, errOut, status := runCLIAtTerminal(t, nil, s.URL+"/robots.txt", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, 4, strings.Count(out, "\n"), "the manifest's count of the sitemap")
	assert.Equal(t, "feed2sitemap: read 4 entries from 1 input and 1 child sitemap, wrote 4 to standard output\n", errOut)

	out, errOut, status = runCLI(t, nil, s.URL+"/a/robots.txt", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, s.URL+"/page/1/a\n"+s.URL+"/page/1/b\n"+s.URL+"/page/2/a\n"+s.URL+"/page/2/b\n", out)
	assert.Equal(t, []string{"/a/robots.txt", "/b/robots.txt"}, s.requests()[2:4])
	assert.ElementsMatch(t, []string{"/s/1.txt", "/s/2.txt"}, s.requests()[4:], "each sitemap fetched once")

	out, _, status = runCLI(t, nil, s.URL+"/a/robots.txt", "--to", "text", "--no-follow")
	require.Equal(t, exitOK, status)
	assert.Equal(t, locs[0]+"\n"+locs[1]+"\n", out)

	// The corpus' other robots.txt files name sitemaps off loopback: read
	// without following, they list them.
	for name, want := range map[string]string{
		"crawlercommons__robots-with-utf8-bom.txt": "http://www.newsweek.com/sitemap_index.xml\n",
		"crawlercommons__sitemap-robots.txt":       "http://domain.com/sitemap.xml\nhttp://domain.com/dir/MixedCased-sitemap.xml\n",
	} {
		s.corpus(t, "/"+name, name)
		out, errOut, status := runCLI(t, nil, s.URL+"/"+name, "--to", "text", "--no-follow")
		require.Equal(t, exitOK, status, errOut)
		assert.Equal(t, want, out, name)
	}
}

func TestConditionalGet(t *testing.T) {
	s := newSite(t)
	data, err := os.ReadFile("../../testdata/corpus/gopherparsesitemap__sitemap.xml")
	require.NoError(t, err)
	s.mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"abc"`)
		if r.Header.Get("If-None-Match") == `"abc"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped(data))
	})
	cache := t.TempDir()
	first, errOut, status := runCLI(t, nil, s.URL+"/sitemap.xml", "--cache", cache)
	require.Equal(t, exitOK, status, errOut)
	second, errOut, status := runCLI(t, nil, s.URL+"/sitemap.xml", "--cache", cache)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, first, second)
	assert.Equal(t, 4, strings.Count(second, "<url>"))
	require.Len(t, s.log, 2)
	assert.Empty(t, s.log[0].Header.Get("If-None-Match"))
	assert.Equal(t, `"abc"`, s.log[1].Header.Get("If-None-Match"))
}

func TestLocalIndexFollowed(t *testing.T) {
	// A local index reads its children beside it, by the last segment of
	// their URLs; from standard input, children are fetched.
	s := newSite(t)
	locs := s.children(2, 0)
	dir := t.TempDir()
	index := filepath.Join(dir, "index.xml")
	require.NoError(t, os.WriteFile(index, []byte(sitemapIndex("https://example.com/maps/1.txt", "https://example.com/maps/2.txt.gz")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "1.txt"), []byte("https://example.com/one\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2.txt.gz"), gzipped([]byte("https://example.com/two\n")), 0o644))
	out, errOut, status := runCLI(t, nil, index, "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "https://example.com/one\nhttps://example.com/two\n", out)
	assert.Empty(t, s.log, "nothing fetched")

	// An index from standard input has no address of its own: its
	// children on loopback are fetched only when allowed.
	_, errOut, status = runCLI(t, strings.NewReader(sitemapIndex(locs...)), "-", "--to", "text")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: failed: "+locs[0]+": fetch: address refused: 127.0.0.1 is a loopback address, and the input was not on one (--allow-private-hosts allows it) (listed by <stdin>)\n")
	out, errOut, status = runCLI(t, strings.NewReader(sitemapIndex(locs...)), "-", "--to", "text", "--allow-private-hosts")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, s.URL+"/page/1/a\n"+s.URL+"/page/1/b\n"+s.URL+"/page/2/a\n"+s.URL+"/page/2/b\n", out)

	require.NoError(t, os.Remove(filepath.Join(dir, "2.txt.gz")))
	_, errOut, status = runCLI(t, nil, index, "--to", "text")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: failed: open "+filepath.Join(dir, "2.txt.gz")+": no such file or directory (listed by "+index+")\n")
}

// TestRemoteStrictUsesServersCharset: a sitemap in UTF-8 whose template
// declares ISO-8859-1, served as charset=utf-8, reads the same with
// --strict as without: the converter's reader and the rules of validate
// both decode it with the server's charset, which decides over the
// declaration (RFC 7303).
func TestRemoteStrictUsesServersCharset(t *testing.T) {
	s := newSite(t)
	s.mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="ISO-8859-1"?>`+"\n"+
			`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">`+
			`<url><loc>%[1]s/caf%%C3%%A9</loc><video:video><video:thumbnail_loc>%[1]s/t.jpg</video:thumbnail_loc>`+
			`<video:title>Crème brûlée</video:title><video:description>À la carte</video:description>`+
			`<video:content_loc>%[1]s/v.mp4</video:content_loc></video:video></url></urlset>`+"\n", s.URL)
	})
	for _, strict := range []bool{false, true} {
		args := []string{s.URL + "/sitemap.xml", "--allow-private-hosts"}
		if strict {
			args = append(args, "--strict")
		}
		out, errOut, status := runCLI(t, nil, args...)
		require.Equal(t, exitOK, status, "strict %v: %s", strict, errOut)
		assert.Contains(t, out, "<video:title>Crème brûlée</video:title>", "strict %v", strict)
	}
}

// --sort loc finds the duplicates of URL lists read remotely (plain and
// gzipped) and locally as the unsorted run does: the same pages, each
// written as first read, and the same duplicates told by -v; with every
// URL its own normal form, and with one that is not (%7e, the page of ~u
// read first), read before its twin.
func TestRemoteListsSortedDeduped(t *testing.T) {
	for _, first := range []string{"~u", "%7eu"} {
		s := newSite(t)
		s.doc("/one.txt", "https://a.example/c\nhttps://a.example/a\nhttps://a.example/d\n")
		gz := gzipped([]byte("https://a.example/" + first + "\nhttps://a.example/e\nhttps://a.example/b\n"))
		s.mux.HandleFunc("/two.txt.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(gz) })
		local := filepath.Join(t.TempDir(), "three.txt")
		require.NoError(t, os.WriteFile(local, []byte("https://a.example/b\nhttps://a.example/a\nhttps://a.example/~u\nhttps://a.example/c\n"), 0o644))
		args := []string{s.URL + "/one.txt", s.URL + "/two.txt.gz", local, "--to", "text", "-v"}

		out, errOut, status := runCLI(t, nil, append(args, "--sort", "loc")...)
		require.Equal(t, exitOK, status, errOut)
		want := []string{"https://a.example/" + first, "https://a.example/a", "https://a.example/b", "https://a.example/c", "https://a.example/d", "https://a.example/e"}
		slices.Sort(want)
		assert.Equal(t, strings.Join(want, "\n")+"\n", out, "first %s", first)

		unsorted, unsortedErr, status := runCLI(t, nil, args...)
		require.Equal(t, exitOK, status, unsortedErr)
		lines := func(s string) []string {
			l := strings.Split(strings.TrimSpace(s), "\n")
			slices.Sort(l)
			return l
		}
		assert.Equal(t, lines(unsorted), lines(out), "first %s: the same pages", first)
		assert.Equal(t, lines(unsortedErr), lines(errOut), "first %s: the same duplicates told", first)
		assert.Equal(t, 4, strings.Count(errOut, "duplicate, merged into"), "first %s: %s", first, errOut)
	}
}

// TestListsUseTheirMemoryAgainRemoteAndLocal reads URL lists large enough
// that their URLs' memory is used again (strblock.Check, which the tests
// run with, fills it with garbage first), from a server and from files, in
// UTF-8, UTF-16 with a byte order mark and ISO-8859-1 named by the server,
// with repeats, URLs not in normal form, non-ASCII paths and lines that
// are no URL: the pages written and the duplicates and warnings told are
// those of --sort loc, whose path does not use that memory again, and the
// local files give the same output as the server.
func TestListsUseTheirMemoryAgainRemoteAndLocal(t *testing.T) {
	var a, b, c strings.Builder
	for i := range 15000 {
		fmt.Fprintf(&a, "https://a.example/p/%d?x=%d&y=%d\n", i%9000, i%5, i%3)
		switch i % 9 {
		case 0:
			fmt.Fprintf(&a, "HTTPS://A.EXAMPLE:443/p/./%d?x=1&y=1#top\n", i%700)
		case 1:
			fmt.Fprintf(&a, "not a url %d\n", i)
		case 2:
			fmt.Fprintf(&a, "https://a.example/caf%%C3%%A9/%d\n", i%400)
		}
		fmt.Fprintf(&b, "https://a.example/été/%d\n", (i*7)%5000)
		if i%11 == 0 {
			fmt.Fprintf(&b, "https://a.example/p/%d?x=%d&y=%d\n", i%9000, i%5, i%3)
		}
		fmt.Fprintf(&c, "https://a.example/caf\xe9/%d\n", i%3000)
	}
	u16 := []byte{0xff, 0xfe}
	for _, r := range utf16.Encode([]rune(b.String())) {
		u16 = binary.LittleEndian.AppendUint16(u16, r)
	}
	s := newSite(t)
	s.doc("/a.txt", a.String())
	s.mux.HandleFunc("/b.txt", func(w http.ResponseWriter, r *http.Request) { w.Write(u16) })
	s.mux.HandleFunc("/c.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		io.WriteString(w, c.String())
	})
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte(a.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.txt"), u16, 0o644))

	count := func(errOut, what string) int { return strings.Count(errOut, what) }
	lines := func(s string) []string {
		l := strings.Split(strings.TrimSpace(s), "\n")
		slices.Sort(l)
		return l
	}
	remote := []string{s.URL + "/a.txt", s.URL + "/b.txt", s.URL + "/c.txt", "--to", "text", "-v"}
	reused := strblock.Reused()
	out, errOut, status := runCLI(t, nil, remote...)
	require.Equal(t, exitOK, status, errOut)
	assert.Positive(t, strblock.Reused()-reused, "the URLs' memory was not used again")

	sorted, sortedErr, status := runCLI(t, nil, append(remote, "--sort", "loc")...)
	require.Equal(t, exitOK, status, sortedErr)
	assert.Equal(t, lines(sorted), lines(out), "the same pages")
	assert.Contains(t, out, "https://a.example/caf%C3%A9/1\n")
	assert.Contains(t, out, "https://a.example/%C3%A9t%C3%A9/7\n")
	assert.Greater(t, count(errOut, "duplicate, merged into"), 10000)
	assert.Equal(t, count(sortedErr, "duplicate, merged into"), count(errOut, "duplicate, merged into"))
	assert.Equal(t, count(sortedErr, "not a url"), count(errOut, "not a url"))

	local, localErr, status := runCLI(t, nil, filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt"), s.URL+"/c.txt", "--to", "text", "-v")
	require.Equal(t, exitOK, status, localErr)
	assert.Equal(t, out, local, "local files and the server give the same output")
}

// --sort loc gives the same output whatever memory it has: the whole in
// memory (the default), distributed into buckets by ranges of URLs
// (--max-memory 256KiB: runs of a few hundred entries), or switched back to
// merging sorted runs (a list already in order after one at random), from
// a server and from files: URL lists in UTF-16 with a byte order mark and
// in ISO-8859-1 named by the server, with repeats and URLs not in normal
// form, and a gzipped sitemap whose entries carry lastmods, priorities and
// images, which go through the sort's files and come out whole.
func TestSortLocSameAtAnyMemoryRemoteAndLocal(t *testing.T) {
	s := newSite(t)
	var random, inOrder, latin strings.Builder
	for i := range 6000 {
		fmt.Fprintf(&random, "https://a.example/été/%d/%s\n", (i*7919)%4000, strings.Repeat("x", i%13))
		if i%7 == 0 {
			fmt.Fprintf(&random, "HTTPS://A.EXAMPLE:443/%%C3%%A9t%%C3%%A9/./%d/\n", i%500)
		}
		fmt.Fprintf(&latin, "https://a.example/caf\xe9/%d\n", (i*31)%2500)
	}
	for i := range 6000 {
		fmt.Fprintf(&inOrder, "https://a.example/z/%06d\n", i)
	}
	u16 := []byte{0xff, 0xfe}
	for _, r := range utf16.Encode([]rune(random.String())) {
		u16 = binary.LittleEndian.AppendUint16(u16, r)
	}
	var sm strings.Builder
	sm.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	for i := range 3000 {
		fmt.Fprintf(&sm, "<url><loc>%s/p/%d</loc><lastmod>2026-%02d-%02d</lastmod><priority>0.%d</priority>"+
			"<image:image><image:loc>%s/img/%d.png</image:loc></image:image></url>\n",
			s.URL, (i*37)%2000, i%12+1, i%28+1, i%10, s.URL, i)
	}
	sm.WriteString("</urlset>\n")
	s.mux.HandleFunc("/random.txt", func(w http.ResponseWriter, r *http.Request) { w.Write(u16) })
	s.doc("/in-order.txt", inOrder.String())
	s.mux.HandleFunc("/latin.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		io.WriteString(w, latin.String())
	})
	gz := gzipped([]byte(sm.String()))
	s.mux.HandleFunc("/sitemap.xml.gz", func(w http.ResponseWriter, r *http.Request) { w.Write(gz) })
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "random.txt"), u16, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in-order.txt"), []byte(inOrder.String()), 0o644))

	sets := map[string][]string{
		"lists, remote":             {s.URL + "/random.txt", s.URL + "/in-order.txt", s.URL + "/latin.txt", "--to", "text"},
		"lists, local":              {filepath.Join(dir, "random.txt"), filepath.Join(dir, "in-order.txt"), s.URL + "/latin.txt", "--to", "text"},
		"sitemap, gzipped, remote":  {s.URL + "/sitemap.xml.gz"},
		"at random, remote":         {s.URL + "/random.txt", s.URL + "/latin.txt", "--to", "text"},
		"in order after at random":  {filepath.Join(dir, "random.txt"), filepath.Join(dir, "in-order.txt"), "--to", "text"},
		"in order before at random": {filepath.Join(dir, "in-order.txt"), filepath.Join(dir, "random.txt"), "--to", "text"},
	}
	outs := map[string]string{}
	for name, args := range sets {
		args = append(args, "--sort", "loc", "-v")
		want, wantErr, status := runCLI(t, nil, args...)
		require.Equal(t, exitOK, status, wantErr)
		require.NotEmpty(t, want, name)
		got, gotErr, status := runCLI(t, nil, append(args, "--max-memory", "256KiB")...)
		require.Equal(t, exitOK, status, gotErr)
		assert.Equal(t, want, got, "%s: the same output in 256 KiB", name)
		assert.Equal(t, strings.Count(wantErr, "duplicate, merged into"), strings.Count(gotErr, "duplicate, merged into"), name)
		outs[name] = want
	}
	assert.Equal(t, outs["lists, remote"], outs["lists, local"], "local files and the server give the same output")
	assert.Contains(t, outs["sitemap, gzipped, remote"], "<image:loc>"+s.URL+"/img/2999.png</image:loc>")
	assert.Contains(t, outs["lists, remote"], "https://a.example/caf%C3%A9/1\n")
	assert.Greater(t, strings.Count(outs["lists, remote"], "\n"), 10000)
}
