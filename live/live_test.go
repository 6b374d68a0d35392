package live

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

// testSite is a loopback site of the pages the rules are about. It counts
// the requests in progress, on the site and over every site of a test,
// and fails the test when there are more than the limits.
type testSite struct {
	*httptest.Server
	t       *testing.T
	limits  *counter // shared by the sites of a test
	mu      sync.Mutex
	inHost  int
	maxHost int
	methods map[string][]string // path -> the methods asked, in order
	delay   time.Duration
}

// counter counts requests in progress over several sites.
type counter struct {
	mu       sync.Mutex
	n, max   int
	overall  int // the limit
	requests int
}

func newTestSite(t *testing.T, limits *counter) *testSite {
	s := &testSite{t: t, limits: limits, methods: map[string][]string{}, delay: 5 * time.Millisecond}
	mux := http.NewServeMux()
	page := func(head, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			if r.Method == http.MethodHead {
				return
			}
			fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>t</title>%s</head><body>%s</body></html>", head, body)
		}
	}
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /private/\nDisallow: /nogoogle\n")
	})
	mux.Handle("/good", page(`<link rel="canonical" href="/good">`, "hello"))
	mux.Handle("/target", page(`<link rel="canonical" href="/target">`, ""))
	mux.HandleFunc("/file.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.4")
	})
	mux.Handle("/missing", http.NotFoundHandler())
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/error", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	mux.Handle("/moved", http.RedirectHandler("/target", http.StatusMovedPermanently))
	mux.HandleFunc("/noindex-header", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
		page("", "")(w, r)
	})
	mux.HandleFunc("/noindex-googlebot", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("X-Robots-Tag", "unavailable_after: 25 Jun 2040 15:00:00 PST")
		w.Header().Add("X-Robots-Tag", "googlebot: none")
		page("", "")(w, r)
	})
	mux.HandleFunc("/noindex-otherbot", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Robots-Tag", "otherbot: noindex")
		page("", "")(w, r)
	})
	mux.Handle("/noindex-meta", page(`<META CONTENT="nofollow, NoIndex" NAME="Robots">`, ""))
	mux.Handle("/noindex-meta-googlebot", page(`<meta name="googlebot" content="noindex">`, ""))
	mux.Handle("/noindex-in-body", page("", `<meta name="robots" content="noindex">`))
	mux.Handle("/canonical-link", page(`<link rel="canonical" href="/good">`, ""))
	mux.Handle("/canonical-self", page(`<link href="canonical-self" rel="Canonical">`, ""))
	mux.HandleFunc("/canonical-header", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Link", `<https://fonts.example/x.css>; rel="preload", <`+s.URL+`/good>; rel="canonical"`)
		w.Header().Set("Content-Type", "application/pdf")
	})
	mux.Handle("/private/page", page("", ""))
	mux.Handle("/nogoogle", page("", ""))
	mux.HandleFunc("/no-head-method", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		page(`<meta name="robots" content="noindex">`, "")(w, r)
	})
	mux.HandleFunc("/endless-head", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.Method == http.MethodHead {
			return
		}
		fmt.Fprint(w, "<html><head>")
		for i := 0; i < 1<<16; i++ {
			if _, err := fmt.Fprint(w, `<meta name="x" content="a long enough meta element to fill the head">`); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/long-body", func(w http.ResponseWriter, r *http.Request) {
		page(`<link rel="canonical" href="/long-body">`, strings.Repeat("<p>text</p>", 1<<16))(w, r)
	})
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.enter(r)
		defer s.leave()
		time.Sleep(s.delay)
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *testSite) enter(r *http.Request) {
	s.mu.Lock()
	s.inHost++
	s.maxHost = max(s.maxHost, s.inHost)
	if s.inHost > MaxPerHost {
		s.t.Errorf("%d requests at once on %s", s.inHost, s.URL)
	}
	s.methods[r.URL.Path] = append(s.methods[r.URL.Path], r.Method)
	s.mu.Unlock()
	c := s.limits
	c.mu.Lock()
	c.n++
	c.requests++
	c.max = max(c.max, c.n)
	if c.n > c.overall {
		s.t.Errorf("%d requests at once over every site, more than %d", c.n, c.overall)
	}
	c.mu.Unlock()
}

func (s *testSite) leave() {
	s.mu.Lock()
	s.inHost--
	s.mu.Unlock()
	s.limits.mu.Lock()
	s.limits.n--
	s.limits.mu.Unlock()
}

func (s *testSite) asked(path string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.methods[path])
}

// countingTransport counts the bytes of the bodies read, by path.
type countingTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	read map[string]int64
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(req)
	if err == nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, c: c, path: req.URL.Path}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	c    *countingTransport
	path string
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.c.mu.Lock()
	b.c.read[b.path] += int64(n)
	b.c.mu.Unlock()
	return n, err
}

func pagesOf(urls ...string) func(func(Page) bool) {
	return func(yield func(Page) bool) {
		for _, u := range urls {
			if !yield(Page{URL: u, From: "sitemap.xml"}) {
				return
			}
		}
	}
}

// run checks the pages and returns the findings as "path rule
// [uncertain]: message", sorted.
func run(t *testing.T, c *Checker, base string, urls ...string) []string {
	var got []string
	err := c.Check(context.Background(), pagesOf(urls...), func(f Finding) {
		assert.Equal(t, "sitemap.xml", f.Page.From)
		s := strings.TrimPrefix(f.Page.URL, base) + " " + f.Rule
		if f.Uncertain {
			s += " uncertain"
		}
		got = append(got, s+": "+strings.ReplaceAll(f.Message, base, ""))
	})
	require.NoError(t, err)
	sort.Strings(got)
	return got
}

func TestCheckerRules(t *testing.T) {
	limits := &counter{overall: 3}
	s := newTestSite(t, limits)
	ct := &countingTransport{base: http.DefaultTransport, read: map[string]int64{}}
	client := fetch.NewClient(5 * time.Second)
	client.Transport = ct
	c := New(Options{Client: client, UserAgent: "test-agent", Concurrency: 3, Rate: 1000, MaxHeadBytes: 32 << 10,
		Retry: fetch.RetryPolicy{Retries: 1, Base: time.Millisecond, MaxWait: time.Millisecond}})
	var urls []string
	for _, p := range []string{"/good", "/good", "/file.pdf", "/missing", "/gone", "/error", "/moved", "/noindex-header",
		"/noindex-googlebot", "/noindex-otherbot", "/noindex-meta", "/noindex-meta-googlebot", "/noindex-in-body",
		"/canonical-link", "/canonical-self", "/canonical-header", "/private/page", "/nogoogle", "/no-head-method",
		"/endless-head", "/long-body"} {
		urls = append(urls, s.URL+p)
	}
	got := run(t, c, s.URL, urls...)
	assert.Equal(t, []string{
		"/canonical-header live-canonical: /canonical-header: names /good as its canonical URL (Link header); list that URL instead, or make the page canonical",
		"/canonical-link live-canonical: /canonical-link: names /good as its canonical URL (link element); list that URL instead, or make the page canonical",
		"/error live-status uncertain: /error: answered 503 Service Unavailable (2 tries)",
		"/gone live-status: /gone: answered 410 Gone",
		"/missing live-status: /missing: answered 404 Not Found",
		"/moved live-redirect: /moved: redirects to /target; list that URL instead",
		"/no-head-method live-noindex: /no-head-method: <meta name=\"robots\" content=\"noindex\"> keeps it out of search results",
		"/nogoogle live-robots: /nogoogle: robots.txt disallows it to Googlebot (line 6: Disallow: /nogoogle)",
		"/noindex-googlebot live-noindex: /noindex-googlebot: X-Robots-Tag: googlebot: none keeps it out of search results",
		"/noindex-header live-noindex: /noindex-header: X-Robots-Tag: noindex, nofollow keeps it out of search results",
		"/noindex-meta live-noindex: /noindex-meta: <meta name=\"Robots\" content=\"nofollow, NoIndex\"> keeps it out of search results",
		"/noindex-meta-googlebot live-noindex: /noindex-meta-googlebot: <meta name=\"googlebot\" content=\"noindex\"> keeps it out of search results",
		"/private/page live-robots: /private/page: robots.txt disallows it to Googlebot, Bingbot, * (line 5: Disallow: /private/)",
	}, got)

	// HEAD first; GET only for HTML pages that answered 2xx.
	assert.Equal(t, []string{"HEAD"}, s.asked("/file.pdf"))
	assert.Equal(t, []string{"HEAD"}, s.asked("/missing"))
	assert.Equal(t, []string{"HEAD", "HEAD"}, s.asked("/error"), "tried again as the retry policy says")
	assert.Equal(t, []string{"HEAD"}, s.asked("/canonical-header"))
	assert.Equal(t, []string{"HEAD", "GET"}, s.asked("/good"), "a page listed twice is checked once")
	assert.Equal(t, []string{"HEAD", "GET"}, s.asked("/no-head-method"))
	assert.Equal(t, []string{"GET"}, s.asked("/robots.txt"), "robots.txt fetched once")
	// Only the head is read: up to MaxHeadBytes, or less when it ends.
	ct.mu.Lock()
	assert.LessOrEqual(t, ct.read["/endless-head"], int64(32<<10))
	assert.Greater(t, ct.read["/endless-head"], int64(16<<10))
	assert.Less(t, ct.read["/long-body"], int64(8<<10))
	ct.mu.Unlock()
	assert.LessOrEqual(t, limits.max, 3)
}

func TestCheckerLimits(t *testing.T) {
	// Three sites, many pages each: never more than 2 requests at once
	// on one, nor more than Concurrency over all; and both limits are
	// reached, so the counting is not idle.
	limits := &counter{overall: 4}
	var sites []*testSite
	var urls []string
	for range 3 {
		s := newTestSite(t, limits)
		s.delay = 20 * time.Millisecond
		sites = append(sites, s)
	}
	for i := range 12 {
		for _, s := range sites {
			urls = append(urls, fmt.Sprintf("%s/file.pdf?%d", s.URL, i))
		}
	}
	c := New(Options{Concurrency: 4, Rate: 1000})
	assert.Empty(t, run(t, c, "", urls...))
	assert.Equal(t, 4, limits.max)
	for _, s := range sites {
		assert.Equal(t, 2, s.maxHost)
		assert.Len(t, s.asked("/file.pdf"), 12)
	}
}

func TestCheckerRate(t *testing.T) {
	// At 20 requests a second on a host, its robots.txt and 9 pages take
	// at least 450ms.
	s := newTestSite(t, &counter{overall: 8})
	s.delay = 0
	var urls []string
	for i := range 9 {
		urls = append(urls, fmt.Sprintf("%s/file.pdf?%d", s.URL, i))
	}
	start := time.Now()
	assert.Empty(t, run(t, New(Options{Rate: 20}), s.URL, urls...))
	assert.GreaterOrEqual(t, time.Since(start), 450*time.Millisecond)
}

func TestCheckerRobotsUnreachable(t *testing.T) {
	// A robots.txt answering 5xx disallows everything; 4xx allows
	// everything.
	fail := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer fail.Close()
	missing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer missing.Close()
	c := New(Options{Rate: 1000})
	assert.Equal(t, []string{"/a live-robots uncertain: /a: /robots.txt answered 500 Internal Server Error: search engines take that as disallowing the whole site"},
		run(t, c, fail.URL, fail.URL+"/a"))
	assert.Empty(t, run(t, c, missing.URL, missing.URL+"/a"))
}

func TestCheckerDeadline(t *testing.T) {
	// When ctx ends, Check returns its cause and reports nothing more.
	s := newTestSite(t, &counter{overall: 8})
	s.delay = 200 * time.Millisecond
	cause := fmt.Errorf("the run's deadline")
	ctx, cancel := context.WithTimeoutCause(context.Background(), 50*time.Millisecond, cause)
	defer cancel()
	var found []Finding
	err := New(Options{Rate: 1000}).Check(ctx, pagesOf(s.URL+"/missing", s.URL+"/gone"), func(f Finding) { found = append(found, f) })
	assert.ErrorIs(t, err, cause)
	assert.Empty(t, found)
}
