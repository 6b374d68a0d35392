package fetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/formats"
)

const list = "https://example.com/a\nhttps://example.com/b\n"

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// waits records the waits a fetcher asks for instead of waiting.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return nil
}

func newFetcher(t *testing.T, opts fetch.Options) (*fetch.Fetcher, *waits) {
	t.Helper()
	w := &waits{}
	if opts.Sleep == nil {
		opts.Sleep = w.sleep
	}
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Second
	}
	opts.TempDir = t.TempDir()
	return fetch.New(opts), w
}

func get(t *testing.T, f *fetch.Fetcher, url string) (string, *fetch.Body, error) {
	t.Helper()
	b, err := f.Fetch(context.Background(), url)
	if err != nil {
		return "", nil, err
	}
	defer b.Close()
	data, err := io.ReadAll(b)
	require.NoError(t, err)
	assert.Equal(t, int64(len(data)), b.Size)
	return string(data), b, nil
}

func TestUserAgentAndAccept(t *testing.T) {
	var ua, accept string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua, accept = r.UserAgent(), r.Header.Get("Accept-Encoding")
		io.WriteString(w, list)
	}))
	defer srv.Close()
	f, _ := newFetcher(t, fetch.Options{UserAgent: fetch.UserAgent("1.2.3")})
	body, b, err := get(t, f, srv.URL+"/urls.txt")
	require.NoError(t, err)
	assert.Equal(t, list, body)
	assert.Equal(t, 200, b.Status)
	assert.Equal(t, "feed2sitemap/1.2.3 (+https://github.com/feed2sitemap/feed2sitemap)", ua)
	assert.Equal(t, "gzip", accept)
}

func TestRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/old", http.RedirectHandler("/moved", http.StatusMovedPermanently))
	mux.Handle("/moved", http.RedirectHandler("/dir/new.txt", http.StatusFound))
	mux.HandleFunc("/dir/new.txt", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, list) })
	mux.HandleFunc("/loop/", func(w http.ResponseWriter, r *http.Request) {
		next := map[string]string{"/loop/a": "/loop/b", "/loop/b": "/loop/a"}[r.URL.Path]
		http.Redirect(w, r, next, http.StatusFound)
	})
	var hops atomic.Int32
	mux.HandleFunc("/chain/", func(w http.ResponseWriter, r *http.Request) {
		hops.Add(1)
		var n int
		fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
		if n == 0 {
			io.WriteString(w, list)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/chain/%d", n-1), http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f, waits := newFetcher(t, fetch.Options{Retry: fetch.RetryPolicy{Retries: 2}})

	body, b, err := get(t, f, srv.URL+"/old")
	require.NoError(t, err)
	assert.Equal(t, list, body)
	assert.Equal(t, srv.URL+"/dir/new.txt", b.URL.String(), "the final URL, after redirects")
	assert.Equal(t, b.URL, b.Location())

	// Ten redirects are followed, an eleventh is not.
	_, _, err = get(t, f, srv.URL+"/chain/10")
	require.NoError(t, err)
	_, _, err = get(t, f, srv.URL+"/chain/11")
	require.ErrorIs(t, err, fetch.ErrTooManyRedirects)

	// A loop ends at the limit, and is not tried again.
	_, _, err = get(t, f, srv.URL+"/loop/a")
	require.ErrorIs(t, err, fetch.ErrTooManyRedirects)
	assert.Equal(t, srv.URL+"/loop/a: fetch: too many redirects: stopped after 10 (a redirect loop?)", err.Error())
	assert.Empty(t, waits.d)
}

func TestContentEncoding(t *testing.T) {
	bomb := gz(bytes.Repeat([]byte("https://example.com/page\n"), 400_000)) // 10 MB in ~30 KB
	mux := http.NewServeMux()
	serve := func(path, encoding string, body []byte) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			if encoding != "" {
				w.Header().Set("Content-Encoding", encoding)
			}
			w.Write(body)
		})
	}
	serve("/header", "gzip", gz([]byte(list)))
	serve("/x-gzip", "x-gzip", gz([]byte(list)))
	serve("/twice-header", "gzip, gzip", gz(gz([]byte(list))))
	serve("/lie", "gzip", []byte(list))
	serve("/magic", "", gz([]byte(list)))
	serve("/double", "gzip", gz(gz([]byte(list))))
	serve("/bomb", "gzip", bomb)
	serve("/br", "br", []byte("\x0b\x02\x80"))
	serve("/corrupt", "gzip", gz([]byte(list))[:20])
	serve("/many-layers", strings.Repeat("gzip, ", 4999)+"gzip", gz([]byte(list)))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f, _ := newFetcher(t, fetch.Options{MaxBytes: 1 << 20})

	for path, want := range map[string]string{
		"/header":       list,
		"/x-gzip":       list,
		"/twice-header": list,
		"/lie":          list,                     // said to be gzipped, and is not
		"/magic":        string(gz([]byte(list))), // left for formats.Open, which removes gzip by its magic bytes
		"/double":       string(gz([]byte(list))), // one layer removed here, the other by formats.Open
	} {
		body, _, err := get(t, f, srv.URL+path)
		require.NoError(t, err, path)
		assert.Equal(t, want, body, path)
	}

	_, _, err := get(t, f, srv.URL+"/bomb")
	require.ErrorIs(t, err, formats.ErrTooLarge)
	assert.Equal(t, srv.URL+"/bomb: formats: input too large: more than the cap of 1048576 bytes (counted decompressed); stopped rather than read part of it", err.Error())

	_, _, err = get(t, f, srv.URL+"/br")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unsupported Content-Encoding "br"`)
	_, _, err = get(t, f, srv.URL+"/many-layers")
	require.Error(t, err, "a decompressor per layer would take hundreds of MiB")
	assert.Contains(t, err.Error(), "Content-Encoding lists 5000 codings; at most 3 are removed")
	_, _, err = get(t, f, srv.URL+"/corrupt")
	require.Error(t, err)
	assert.Contains(t, err.Error(), srv.URL+"/corrupt: corrupt gzip content encoding")

	// Without a cap the bomb is read whole, into a file, not memory.
	g, _ := newFetcher(t, fetch.Options{})
	b, err := g.Fetch(context.Background(), srv.URL+"/bomb")
	require.NoError(t, err)
	assert.Equal(t, int64(10_000_000), b.Size)
	require.NoError(t, b.Close())
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/no-answer", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "https://example.com/a\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(release)
	f, waits := newFetcher(t, fetch.Options{Timeout: 100 * time.Millisecond, Retry: fetch.RetryPolicy{Retries: 1}})

	_, _, err := get(t, f, srv.URL+"/no-answer")
	require.Error(t, err)
	assert.Equal(t, srv.URL+"/no-answer: no complete answer within 100ms (2 attempts)", err.Error())
	assert.Len(t, waits.d, 1, "a time-out before the answer is tried again")

	waits.d = nil
	_, _, err = get(t, f, srv.URL+"/slow-body")
	require.Error(t, err)
	assert.Equal(t, srv.URL+"/slow-body: no complete answer within 100ms", err.Error())
	assert.Empty(t, waits.d, "never tried again once the body began")
}

func TestRetries(t *testing.T) {
	var calls sync.Map
	count := func(path string) int {
		n, _ := calls.LoadOrStore(path, new(atomic.Int32))
		return int(n.(*atomic.Int32).Add(1))
	}
	date := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	mux := http.NewServeMux()
	mux.HandleFunc("/500-then-200", func(w http.ResponseWriter, r *http.Request) {
		if count(r.URL.Path) == 1 {
			http.Error(w, "busy", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, list)
	})
	mux.HandleFunc("/429", func(w http.ResponseWriter, r *http.Request) {
		switch count(r.URL.Path) {
		case 1:
			w.Header().Set("Retry-After", "7")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case 2:
			w.Header().Set("Retry-After", date)
			http.Error(w, "slow down", http.StatusTooManyRequests)
		default:
			io.WriteString(w, list)
		}
	})
	mux.HandleFunc("/429-long", func(w http.ResponseWriter, r *http.Request) {
		count(r.URL.Path)
		w.Header().Set("Retry-After", "3600")
		http.Error(w, "come back tomorrow", http.StatusTooManyRequests)
	})
	mux.HandleFunc("/503", func(w http.ResponseWriter, r *http.Request) {
		count(r.URL.Path)
		http.Error(w, "down", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/404", func(w http.ResponseWriter, r *http.Request) {
		count(r.URL.Path)
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	policy := fetch.RetryPolicy{Retries: 2, Base: 100 * time.Millisecond, MaxWait: time.Minute}
	f, waits := newFetcher(t, fetch.Options{Retry: policy})

	body, _, err := get(t, f, srv.URL+"/500-then-200")
	require.NoError(t, err)
	assert.Equal(t, list, body)
	require.Len(t, waits.d, 1)
	assert.InDelta(t, 75*time.Millisecond, waits.d[0], float64(25*time.Millisecond), "the first back-off: half to all of the base")

	waits.d = nil
	body, _, err = get(t, f, srv.URL+"/429")
	require.NoError(t, err)
	assert.Equal(t, list, body)
	require.Len(t, waits.d, 2)
	assert.Equal(t, 7*time.Second, waits.d[0], "Retry-After in seconds")
	assert.InDelta(t, 30*time.Second, waits.d[1], float64(2*time.Second), "Retry-After as a date")

	waits.d = nil
	_, _, err = get(t, f, srv.URL+"/429-long")
	require.Error(t, err)
	assert.Equal(t, srv.URL+"/429-long: HTTP 429 Too Many Requests; the server asks to wait 1h0m0s, more than the 1m0s allowed", err.Error())
	assert.Empty(t, waits.d)

	_, _, err = get(t, f, srv.URL+"/503")
	var fe *fetch.Error
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 503, fe.Status)
	assert.Equal(t, 3, fe.Attempts)
	assert.Equal(t, srv.URL+"/503: HTTP 503 Service Unavailable (3 attempts)", err.Error())
	require.Len(t, waits.d, 2)
	assert.Greater(t, waits.d[1], 99*time.Millisecond, "the back-off doubles")

	waits.d = nil
	_, _, err = get(t, f, srv.URL+"/404")
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, srv.URL+"/404: HTTP 404 Not Found", err.Error())
	assert.Empty(t, waits.d, "a 404 is not tried again")
	for path, want := range map[string]int{"/429-long": 1, "/503": 3, "/404": 1} {
		n, _ := calls.Load(path)
		assert.Equal(t, want, int(n.(*atomic.Int32).Load()), path)
	}
}

func TestNetworkErrorRetried(t *testing.T) {
	// A port nothing listens on: connections are refused.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close()
	f, waits := newFetcher(t, fetch.Options{Retry: fetch.RetryPolicy{Retries: 2, Base: time.Millisecond}})
	_, _, err = get(t, f, "http://"+addr+"/sitemap.xml")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "http://"+addr+"/sitemap.xml: ")
	assert.Contains(t, err.Error(), "(3 attempts)")
	assert.Len(t, waits.d, 2)

	_, _, err = get(t, f, "ftp://example.com/sitemap.xml")
	assert.EqualError(t, err, "ftp://example.com/sitemap.xml: not an http or https URL")
}

func TestCancel(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusBadGateway)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	f := fetch.New(fetch.Options{Retry: fetch.RetryPolicy{Retries: 5, Base: time.Hour, MaxWait: time.Hour},
		Sleep: func(ctx context.Context, d time.Duration) error { cancel(); <-ctx.Done(); return ctx.Err() }})
	_, err := f.Fetch(ctx, srv.URL)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "HTTP 502 Bad Gateway")
}

func TestConditionalGet(t *testing.T) {
	var conditional []string
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("/etag.xml", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		conditional = append(conditional, r.Header.Get("If-None-Match"))
		mu.Unlock()
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gz([]byte(list)))
	})
	mux.HandleFunc("/lastmod.txt", func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "lastmod.txt", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), strings.NewReader(list))
	})
	mux.Handle("/moved", http.RedirectHandler("/lastmod.txt", http.StatusFound))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	dir := t.TempDir()
	f, _ := newFetcher(t, fetch.Options{CacheDir: dir})

	for _, path := range []string{"/etag.xml", "/lastmod.txt", "/moved"} {
		body, b, err := get(t, f, srv.URL+path)
		require.NoError(t, err)
		assert.Equal(t, list, body)
		assert.Equal(t, 200, b.Status, path)
		body, b, err = get(t, f, srv.URL+path)
		require.NoError(t, err)
		assert.Equal(t, list, body, "the cached body, decoded")
		assert.Equal(t, http.StatusNotModified, b.Status, path)
	}
	_, b, err := get(t, f, srv.URL+"/moved")
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/lastmod.txt", b.URL.String(), "a 304 after redirects keeps the final URL")
	assert.Equal(t, []string{"", `"v1"`}, conditional)

	// A corrupt entry is ignored: the request is made without validators.
	files, err := filepath.Glob(filepath.Join(dir, "*.cache"))
	require.NoError(t, err)
	require.Len(t, files, 3, "one per URL asked for, a redirected one included")
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(file, data[:len(data)-3], 0o644))
	}
	body, b, err := get(t, f, srv.URL+"/etag.xml")
	require.NoError(t, err)
	assert.Equal(t, list, body)
	assert.Equal(t, 200, b.Status)
	assert.Equal(t, []string{"", `"v1"`, ""}, conditional)

	// A cached body over a cap set later fails like a fetched one.
	capped, _ := newFetcher(t, fetch.Options{CacheDir: dir, MaxBytes: 10})
	_, _, err = get(t, capped, srv.URL+"/etag.xml")
	require.ErrorIs(t, err, formats.ErrTooLarge)

	// Nothing is cached of a body that failed.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), ".tmp-"), "no temporary file left: %s", e.Name())
	}
}

func TestConcurrentFetches(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "https://example.com%s\n", r.URL.Path)
	}))
	defer srv.Close()
	f, _ := newFetcher(t, fetch.Options{CacheDir: t.TempDir()})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := f.Fetch(context.Background(), fmt.Sprintf("%s/%d", srv.URL, i%4))
			if assert.NoError(t, err) {
				data, _ := io.ReadAll(b)
				assert.Equal(t, fmt.Sprintf("https://example.com/%d\n", i%4), string(data))
				b.Close()
			}
		}()
	}
	wg.Wait()
}

// BenchmarkFetch measures a GET over loopback of a 1 MB sitemap-sized
// body, gzipped in transit, into its temporary file.
func BenchmarkFetch(b *testing.B) {
	body := gz(bytes.Repeat([]byte("https://example.com/some/page/of/the/site\n"), 25_000))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(body)
	}))
	defer srv.Close()
	f := fetch.New(fetch.Options{TempDir: b.TempDir()})
	b.SetBytes(25_000 * 42)
	b.ReportAllocs()
	for b.Loop() {
		r, err := f.Fetch(context.Background(), srv.URL)
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}
