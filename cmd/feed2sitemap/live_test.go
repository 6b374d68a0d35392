package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/internal/fakenet"
	"github.com/feed2sitemap/feed2sitemap/validate"
)

// liveSite is a loopback server playing the hosts www.example and
// shop.example (on public addresses routed to it), each serving the pages
// the live rules are about. It counts the requests in progress per host
// and over all, failing the test past 2 per host or past overall.
type liveSite struct {
	*httptest.Server
	t       *testing.T
	port    string
	overall int
	mu      sync.Mutex
	in      map[string]int // host -> requests in progress
	inAll   int
	maxAll  int
	maxHost map[string]int
	log     []string // "METHOD host path"
	mux     *http.ServeMux
}

func newLiveSite(t *testing.T, n *fakenet.Net, overall int) *liveSite {
	s := &liveSite{t: t, overall: overall, in: map[string]int{}, maxHost: map[string]int{}}
	mux := http.NewServeMux()
	s.mux = mux
	page := func(head string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			if r.Method == http.MethodGet {
				fmt.Fprintf(w, "<!doctype html><html><head><title>A page</title>%s</head><body><p>Text</p></body></html>", head)
			}
		}
	}
	header := func(name, value string, next http.HandlerFunc) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set(name, strings.ReplaceAll(value, "HOST", r.Host))
			next(w, r)
		}
	}
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.Handle("/good", page(`<link rel="canonical" href="/good">`))
	mux.Handle("/other-good", page(""))
	mux.HandleFunc("/file.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.4")
	})
	mux.Handle("/missing", http.NotFoundHandler())
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/error", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	mux.Handle("/moved", http.RedirectHandler("/other-good", http.StatusMovedPermanently))
	mux.Handle("/noindex-header", header("X-Robots-Tag", "noindex", page("")))
	mux.Handle("/noindex-googlebot", header("X-Robots-Tag", "googlebot: noindex, nofollow", page("")))
	mux.Handle("/noindex-meta", page(`<meta content="noindex" name="ROBOTS">`))
	mux.Handle("/canonical-link", page(`<link rel="canonical" href="http://HOST/good">`))
	mux.Handle("/canonical-header", header("Link", `<http://HOST/good>; rel="canonical"`, page("")))
	mux.Handle("/private/page", page(""))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.Split(r.Host, ":")[0]
		s.enter(host, r.Method+" "+host+" "+r.URL.Path)
		defer s.leave(host)
		time.Sleep(10 * time.Millisecond)
		// The documents and pages name their host as HOST.
		w2 := &hostWriter{ResponseWriter: w, host: r.Host}
		mux.ServeHTTP(w2, r)
	}))
	t.Cleanup(s.Close)
	s.port = s.URL[strings.LastIndex(s.URL, ":")+1:]
	for name, addr := range map[string]string{"www.example": "203.0.113.10", "shop.example": "203.0.113.11"} {
		n.Name(name, addr)
		n.Route(addr+":"+s.port, "127.0.0.1:"+s.port)
	}
	n.Name("intranet.example", "10.0.0.9")
	return s
}

// hostWriter writes HOST in a body as the request's host.
type hostWriter struct {
	http.ResponseWriter
	host string
}

func (w *hostWriter) Write(b []byte) (int, error) {
	_, err := w.ResponseWriter.Write(bytes.ReplaceAll(b, []byte("HOST"), []byte(w.host)))
	return len(b), err
}

func (s *liveSite) enter(host, entry string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, entry)
	s.in[host]++
	s.inAll++
	s.maxHost[host] = max(s.maxHost[host], s.in[host])
	s.maxAll = max(s.maxAll, s.inAll)
	if s.in[host] > 2 {
		s.t.Errorf("%d requests at once on %s", s.in[host], host)
	}
	if s.inAll > s.overall {
		s.t.Errorf("%d requests at once, more than %d", s.inAll, s.overall)
	}
}

func (s *liveSite) leave(host string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.in[host]--
	s.inAll--
}

func (s *liveSite) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

// asked returns the methods asked of host and path, in order.
func (s *liveSite) asked(host, path string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var methods []string
	for _, l := range s.log {
		if m, rest, _ := strings.Cut(l, " "); rest == host+" "+path {
			methods = append(methods, m)
		}
	}
	return methods
}

var livePages = []string{"/good", "/file.pdf", "/missing", "/gone", "/error", "/moved", "/noindex-header",
	"/noindex-googlebot", "/noindex-meta", "/canonical-link", "/canonical-header", "/private/page"}

func TestValidateLive(t *testing.T) {
	n := fakenet.New()
	s := newLiveSite(t, n, 3)
	www, shop := "http://www.example:"+s.port, "http://shop.example:"+s.port
	var locs []string
	for _, p := range livePages {
		locs = append(locs, www+p, shop+p)
	}
	in := writeSitemap(t, filepath.Join(t.TempDir(), "sitemap.xml"), locs...)

	out, errOut, status := runNet(t, n, "validate", "--live", "--live-concurrency", "3", "--live-rate", "100", "--retries", "1", in)
	assert.Equal(t, exitFail, status, errOut)
	assert.Equal(t, "feed2sitemap: error: validation failed\n", errOut)
	var want []string
	for _, h := range []string{www, shop} {
		want = append(want,
			"-: error: "+h+"/missing: answered 404 Not Found [live-status]",
			"-: error: "+h+"/gone: answered 410 Gone [live-status]",
			"-: warning: "+h+"/error: answered 502 Bad Gateway (2 tries) [live-status]",
			"-: warning: "+h+"/moved: redirects to "+h+"/other-good; list that URL instead [live-redirect]",
			"-: error: "+h+"/noindex-header: X-Robots-Tag: noindex keeps it out of search results [live-noindex]",
			"-: error: "+h+"/noindex-googlebot: X-Robots-Tag: googlebot: noindex, nofollow keeps it out of search results [live-noindex]",
			`-: error: `+h+`/noindex-meta: <meta name="ROBOTS" content="noindex"> keeps it out of search results [live-noindex]`,
			"-: warning: "+h+"/canonical-link: names "+h+"/good as its canonical URL (link element); list that URL instead, or make the page canonical [live-canonical]",
			"-: warning: "+h+"/canonical-header: names "+h+"/good as its canonical URL (Link header); list that URL instead, or make the page canonical [live-canonical]",
			"-: error: "+h+"/private/page: robots.txt disallows it to Googlebot, Bingbot, * (line 2: Disallow: /private/) [live-robots]",
		)
	}
	sort.Strings(want)
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  -: ") {
			got = append(got, strings.TrimSpace(line))
		}
	}
	sort.Strings(got)
	assert.Equal(t, want, got, out)
	assert.Contains(t, out, in+" (xml, 24 URLs): 12 errors, 8 warnings\n")
	assert.Contains(t, out, "      fix: list the URL the redirect leads to instead\n")
	assert.Contains(t, out, "\n12 errors, 8 warnings in 1 file\n")
	for _, good := range []string{"/good", "/file.pdf"} {
		assert.NotContains(t, out, www+good+":")
	}

	// HEAD first, GET only for HTML pages; robots.txt once per host; the
	// limits held (the server fails the test otherwise) and were reached.
	assert.Equal(t, []string{"HEAD"}, s.asked("www.example", "/file.pdf"))
	assert.Equal(t, []string{"HEAD"}, s.asked("shop.example", "/missing"))
	assert.Equal(t, []string{"HEAD", "GET"}, s.asked("shop.example", "/good"))
	assert.Equal(t, []string{"GET"}, s.asked("www.example", "/robots.txt"))
	assert.Equal(t, 3, s.maxAll)
	assert.Equal(t, 2, s.maxHost["www.example"])

	// The same in JSON.
	out, errOut, status = runNet(t, n, "validate", "--live", "--format", "json", "--live-concurrency", "3", "--live-rate", "100", "--retries", "0", in)
	assert.Equal(t, exitFail, status, errOut)
	var rep validate.JSONReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.False(t, rep.Valid)
	assert.Equal(t, 12, rep.Errors)
	assert.Equal(t, 8, rep.Warnings)
	require.Len(t, rep.Files, 1)
	count := map[string]int{}
	for _, f := range rep.Files[0].Findings {
		count[f.Rule+" "+f.Severity.String()]++
		assert.NotEmpty(t, f.Fix)
		assert.Zero(t, f.Line)
	}
	assert.Equal(t, map[string]int{"live-status error": 4, "live-status warning": 2, "live-redirect warning": 2,
		"live-noindex error": 6, "live-canonical warning": 4, "live-robots error": 2}, count)
}

func TestValidateLiveFollowsAndStdin(t *testing.T) {
	// A remote index's child sitemap: its pages are checked, the findings
	// under the child. A sitemap on standard input is read twice.
	n := fakenet.New()
	s := newLiveSite(t, n, 8)
	www := "http://www.example:" + s.port
	for path, doc := range map[string]string{
		"/index.xml": sitemapIndex(www + "/pages.xml"),
		"/pages.xml": urlset("<loc>"+www+"/good</loc>", "<loc>"+www+"/missing</loc>"),
	} {
		s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, doc) })
	}
	out, errOut, status := runNet(t, n, "validate", "--live", "--live-rate", "100", www+"/index.xml")
	assert.Equal(t, exitFail, status, errOut)
	assert.Contains(t, out, www+"/pages.xml (xml, 2 URLs, listed by "+www+"/index.xml): 1 error, 0 warnings\n"+
		"  -: error: "+www+"/missing: answered 404 Not Found [live-status]\n")

	var stdout, stderr bytes.Buffer
	stdin := strings.NewReader(urlset("<loc>" + www + "/gone</loc>"))
	status = run([]string{"validate", "--live", "--live-rate", "100", "-"}, &env{Stdin: stdin, Stdout: &stdout, Stderr: &stderr, Network: n.Policy(fetch.Policy{})})
	assert.Equal(t, exitFail, status, stderr.String())
	assert.Contains(t, stdout.String(), "<stdin> (xml, 1 URL): 1 error, 0 warnings\n  -: error: "+www+"/gone: answered 410 Gone [live-status]\n")

	// Without --live, nothing is fetched but the inputs.
	before := len(s.requests())
	out, errOut, status = runNet(t, n, "validate", www+"/pages.xml")
	assert.Equal(t, exitOK, status, errOut+out)
	assert.Equal(t, []string{"GET www.example /pages.xml"}, s.requests()[before:])
}

func TestValidateLivePrivateAddresses(t *testing.T) {
	// A page on a private address is not asked for, unless
	// --allow-private-hosts.
	n := fakenet.New()
	s := newLiveSite(t, n, 8)
	page := "http://intranet.example:" + s.port + "/missing"
	in := writeSitemap(t, filepath.Join(t.TempDir(), "sitemap.xml"), page)
	out, errOut, status := runNet(t, n, "validate", "--live", in)
	assert.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, "-: warning: "+page+": not checked: fetch: address refused: intranet.example resolves to 10.0.0.9, which is a private address, and the input was not on one (--allow-private-hosts allows it) [live-status]")
	for _, d := range n.Dialed() {
		assert.False(t, netip.MustParseAddrPort(d).Addr().IsPrivate(), "dialed %s", d)
	}
	assert.Empty(t, s.asked("intranet.example", "/missing"))

	n.Route("10.0.0.9:"+s.port, "127.0.0.1:"+s.port)
	out, errOut, status = runNet(t, n, "validate", "--live", "--allow-private-hosts", in)
	assert.Equal(t, exitFail, status, errOut)
	assert.Contains(t, out, "-: error: "+page+": answered 404 Not Found [live-status]")

	// The flags are checked.
	_, errOut, status = runNet(t, n, "validate", "--live", "--live-rate", "0", in)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--live-rate must be more than 0")
	_, errOut, status = runNet(t, n, "validate", "--live", "--live-concurrency", "0", in)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--live-concurrency must be at least 1")
}

func TestLiveProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := &liveProgress{w: &b, on: true, start: time.Now().Add(-2 * time.Second)}
	p.found = 1
	p.checked()
	assert.Regexp(t, `^\r\x1b\[Kfeed2sitemap: live checks: 1 page checked \([0-9.]+/s\), 1 finding$`, b.String())
	p.clear()
	assert.True(t, strings.HasSuffix(b.String(), "\r\x1b[K"))
	off := &liveProgress{w: &b, start: time.Now().Add(-2 * time.Second)}
	b.Reset()
	off.checked()
	assert.Empty(t, b.String(), "no line off a terminal")
}

func TestValidateLiveDeadline(t *testing.T) {
	// The run's deadline covers the live checks: a run stopped by it
	// reports what was found and fails, saying how far it got.
	n := fakenet.New()
	s := newLiveSite(t, n, 8)
	var locs []string
	for i := range 40 {
		locs = append(locs, fmt.Sprintf("http://www.example:%s/missing?%d", s.port, i))
	}
	in := writeSitemap(t, filepath.Join(t.TempDir(), "sitemap.xml"), locs...)
	out, errOut, status := runNet(t, n, "validate", "--live", "--live-rate", "10", "--deadline", "300ms", in)
	assert.Equal(t, exitFail, status)
	assert.Regexp(t, `^feed2sitemap: error: --live: stopped: the run took longer than its deadline of 300ms \(--deadline\) \(after checking [0-9]+ pages\)\n$`, errOut)
	assert.Contains(t, out, "answered 404 Not Found [live-status]")
	assert.Less(t, len(s.requests()), 10)
}
