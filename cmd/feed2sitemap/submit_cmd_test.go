package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

const testKey = "f2s-test-key-0123456789"

// indexNowServer is an IndexNow endpoint on loopback. answer says how to
// answer a request (status and Retry-After), given its body and how many
// requests came before it; nil accepts everything with 202.
type indexNowServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
	answer func(n int, b submission) (int, string)
}

// submission is a request's JSON body.
type submission struct {
	Host        string   `json:"host"`
	Key         string   `json:"key"`
	KeyLocation string   `json:"keyLocation"`
	URLList     []string `json:"urlList"`
}

func newIndexNowServer(t *testing.T, answer func(n int, b submission) (int, string)) *indexNowServer {
	s := &indexNowServer{answer: answer}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var b submission
		if r.Method != http.MethodPost || r.URL.Path != "/indexnow" || r.Header.Get("Content-Type") != "application/json; charset=utf-8" || json.Unmarshal(raw, &b) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, string(raw))
		s.mu.Unlock()
		status, retryAfter := http.StatusAccepted, ""
		if s.answer != nil {
			status, retryAfter = s.answer(n, b)
		}
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *indexNowServer) endpoint() string { return s.URL + "/indexnow" }

func (s *indexNowServer) received() []submission {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []submission
	for _, raw := range s.bodies {
		var b submission
		json.Unmarshal([]byte(raw), &b)
		out = append(out, b)
	}
	return out
}

// writeSitemap writes a sitemap of the locs, each "loc" or "loc lastmod".
func writeSitemap(t *testing.T, path string, entries ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, e := range entries {
		loc, lastmod, _ := strings.Cut(e, " ")
		b.WriteString("<url><loc>" + loc + "</loc>")
		if lastmod != "" {
			b.WriteString("<lastmod>" + lastmod + "</lastmod>")
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func TestSubmitBody(t *testing.T) {
	srv := newIndexNowServer(t, nil)
	dir := t.TempDir()
	in := writeSitemap(t, filepath.Join(dir, "sitemap.xml"), "https://example.com/a 2026-11-20", "https://example.com/b?x=1&amp;y=2", "https://example.com/a 2026-11-21")
	out, errOut, status := runCLI(t, nil, "submit", "-v", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--key-location", "/keys/k.txt", in)
	require.Equal(t, exitOK, status, errOut)
	srv.mu.Lock()
	bodies := srv.bodies
	srv.mu.Unlock()
	require.Len(t, bodies, 1)
	assert.Equal(t, `{"host":"example.com","key":"`+testKey+`","keyLocation":"https://example.com/keys/k.txt","urlList":["https://example.com/a","https://example.com/b?x=1&y=2"]}`, bodies[0], "deduplicated, one request")
	assert.Equal(t, "example.com: 2 URLs: 202 Accepted: URLs received; the key is still to be verified\n", out)
	assert.Equal(t, "feed2sitemap: submitted 2 URLs in 1 batch for 1 host to "+srv.endpoint()+"\n", errOut)
}

func TestSubmitBatches(t *testing.T) {
	dir := t.TempDir()
	urls := filepath.Join(dir, "urls.txt")
	var list strings.Builder
	for i := range 25000 {
		fmt.Fprintf(&list, "https://example.com/page/%d\n", i)
	}
	require.NoError(t, os.WriteFile(urls, []byte(list.String()), 0o644))

	srv := newIndexNowServer(t, nil)
	out, errOut, status := runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), urls)
	require.Equal(t, exitOK, status, errOut)
	got := srv.received()
	require.Len(t, got, 3, "at most 10,000 URLs a request")
	assert.Equal(t, []int{10000, 10000, 5000}, []int{len(got[0].URLList), len(got[1].URLList), len(got[2].URLList)})
	assert.Equal(t, "https://example.com/page/10000", got[1].URLList[0])
	assert.Equal(t, strings.Repeat("example.com: 10000 URLs: 202 Accepted: URLs received; the key is still to be verified\n", 2)+
		"example.com: 5000 URLs: 202 Accepted: URLs received; the key is still to be verified\n", out)

	// A small --batch, and several hosts: one host a request.
	mixed := filepath.Join(dir, "mixed.txt")
	require.NoError(t, os.WriteFile(mixed, []byte("https://a.example/1\nhttps://b.example/1\nhttps://a.example/2\nhttps://a.example/3\nhttps://b.example/2\nhttps://c.example/1\n"), 0o644))
	srv = newIndexNowServer(t, nil)
	out, errOut, status = runCLI(t, nil, "submit", "-v", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--batch", "2", mixed)
	require.Equal(t, exitOK, status, errOut)
	var batches []string
	for _, b := range srv.received() {
		assert.Empty(t, b.KeyLocation, "no key location unless asked")
		batches = append(batches, b.Host+" "+strings.Join(b.URLList, " "))
	}
	assert.Equal(t, []string{
		"a.example https://a.example/1 https://a.example/2",
		"b.example https://b.example/1 https://b.example/2",
		"a.example https://a.example/3",
		"c.example https://c.example/1",
	}, batches)
	assert.Equal(t, 4, strings.Count(out, "202 Accepted"))
	assert.Contains(t, errOut, "submitted 6 URLs in 4 batches for 3 hosts")
}

func TestSubmitRetries(t *testing.T) {
	dir := t.TempDir()
	in := writeSitemap(t, filepath.Join(dir, "sitemap.xml"), "https://example.com/a")
	// 429 with Retry-After, then 500 (back-off), then accepted.
	srv := newIndexNowServer(t, func(n int, _ submission) (int, string) {
		switch n {
		case 0:
			return http.StatusTooManyRequests, "0"
		case 1:
			return http.StatusInternalServerError, ""
		}
		return http.StatusOK, ""
	})
	out, errOut, status := runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), in)
	require.Equal(t, exitOK, status, errOut)
	assert.Len(t, srv.received(), 3)
	assert.Equal(t, "example.com: 1 URL: 200 OK: URLs submitted (after 3 attempts)\n", out)

	// Retries run out: the batch fails, the run fails.
	srv = newIndexNowServer(t, func(int, submission) (int, string) { return http.StatusTooManyRequests, "0" })
	out, errOut, status = runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--retries", "1", in)
	assert.Equal(t, exitFail, status)
	assert.Len(t, srv.received(), 2)
	assert.Equal(t, "example.com: 1 URL: 429 Too Many Requests: submitting too often (possible spam) (after 2 attempts)\n", out)
	assert.Contains(t, errOut, "feed2sitemap: tried to submit 1 URL in 1 batch for 1 host to "+srv.endpoint()+"; 1 batch failed\n")
	assert.Contains(t, errOut, "feed2sitemap: error: 1 of 1 batch failed: example.com: 1 URL: 429 Too Many Requests")
}

func TestSubmitFailures(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(in, []byte("https://ok.example/1\nhttps://bad.example/1\nhttps://gone.example/1\n"), 0o644))
	statuses := map[string]int{"ok.example": 200, "bad.example": 403, "gone.example": 422}
	srv := newIndexNowServer(t, func(_ int, b submission) (int, string) { return statuses[b.Host], "" })
	out, errOut, status := runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), in)
	assert.Equal(t, exitFail, status)
	assert.Len(t, srv.received(), 3, "a failed batch does not stop the others, and 4xx is not retried")
	assert.Equal(t, "ok.example: 1 URL: 200 OK: URLs submitted\n"+
		"bad.example: 1 URL: 403 Forbidden: key not valid (the key file was not found on the host, or does not hold the key)\n"+
		"gone.example: 1 URL: 422 Unprocessable Entity: URLs don't belong to the host, or the key doesn't match the protocol's schema\n", out)
	assert.Contains(t, errOut, "error: 2 of 3 batches failed: bad.example: 1 URL: 403 Forbidden")

	// -q prints only the failures.
	out, _, status = runCLI(t, nil, "submit", "-q", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), in)
	assert.Equal(t, exitFail, status)
	assert.NotContains(t, out, "ok.example")
	assert.Contains(t, out, "bad.example")
}

func TestSubmitTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	dir := t.TempDir()
	in := writeSitemap(t, filepath.Join(dir, "sitemap.xml"), "https://example.com/a")
	out, errOut, status := runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.URL, "--timeout", "200ms", "--retries", "0", in)
	assert.Equal(t, exitFail, status)
	assert.Equal(t, "example.com: 1 URL: failed: no answer from "+srv.URL+" within 200ms\n", out)
	assert.Contains(t, errOut, "1 of 1 batch failed")
}

func TestSubmitSinceState(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "indexnow.state")
	in := filepath.Join(dir, "sitemap.xml")
	failHost := ""
	srv := newIndexNowServer(t, func(_ int, b submission) (int, string) {
		if b.Host == failHost {
			return http.StatusInternalServerError, ""
		}
		return http.StatusOK, ""
	})
	submit := func() (sent []string, out, errOut string, status int) {
		before := len(srv.received())
		out, errOut, status = runCLI(t, nil, "submit", "-v", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--since-state", state, "--retries", "0", in)
		for _, b := range srv.received()[before:] {
			sent = append(sent, b.URLList...)
		}
		return sent, out, errOut, status
	}

	writeSitemap(t, in, "https://a.example/1 2026-11-01", "https://a.example/2 2026-11-02", "https://a.example/3", "https://b.example/1 2026-11-03")
	sent, _, errOut, status := submit()
	require.Equal(t, exitOK, status, errOut)
	assert.Len(t, sent, 4, "the first run submits everything")
	require.FileExists(t, state)

	sent, out, errOut, status := submit()
	require.Equal(t, exitOK, status, errOut)
	assert.Empty(t, sent, "a second run submits nothing")
	assert.Empty(t, out)
	assert.Equal(t, "feed2sitemap: submitted 0 URLs in 0 batches for 0 hosts to "+srv.endpoint()+"; 4 unchanged since the last submission\n", errOut)

	// A changed lastmod and a new URL are submitted, nothing else.
	writeSitemap(t, in, "https://a.example/1 2026-11-01", "https://a.example/2 2026-11-20T10:00:00Z", "https://a.example/3", "https://b.example/1 2026-11-03", "https://b.example/2")
	sent, _, errOut, status = submit()
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, []string{"https://a.example/2", "https://b.example/2"}, sent)

	// A batch that fails leaves its URLs for next time; the others are
	// recorded.
	writeSitemap(t, in, "https://a.example/1 2026-11-21", "https://b.example/1 2026-11-21")
	failHost = "b.example"
	sent, _, _, status = submit()
	assert.Equal(t, exitFail, status)
	assert.Equal(t, []string{"https://a.example/1", "https://b.example/1"}, sent)
	failHost = ""
	sent, _, errOut, status = submit()
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, []string{"https://b.example/1"}, sent, "only the failed batch's URLs again")

	// A dry run prints what it would send and leaves the state alone.
	writeSitemap(t, in, "https://a.example/1 2026-11-22")
	before, err := os.ReadFile(state)
	require.NoError(t, err)
	n := len(srv.received())
	out, errOut, status = runCLI(t, nil, "submit", "--dry-run", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--since-state", state, in)
	require.Equal(t, exitOK, status, errOut)
	assert.Len(t, srv.received(), n, "nothing sent")
	assert.Equal(t, `{"host":"a.example","key":"`+testKey+`","urlList":["https://a.example/1"]}`+"\n", out)
	assert.Equal(t, "feed2sitemap: dry run: would submit 1 URL in 1 batch for 1 host to "+srv.endpoint()+"\n", errOut)
	after, err := os.ReadFile(state)
	require.NoError(t, err)
	assert.Equal(t, before, after)

	// A damaged state file is an error that names it; nothing is sent.
	require.NoError(t, os.WriteFile(state, []byte("User-agent: *\n"), 0o644))
	_, errOut, status = runCLI(t, nil, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--since-state", state, in)
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "--since-state: "+state+": indexnow: not a state file")
	assert.Len(t, srv.received(), n)
}

func TestSubmitUsage(t *testing.T) {
	dir := t.TempDir()
	in := writeSitemap(t, filepath.Join(dir, "sitemap.xml"), "https://example.com/a")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"submit", in}, "missing flags: --indexnow-key"},
		{[]string{"submit", "--indexnow-key", "short", in}, "the key must be 8 to 128 characters"},
		{[]string{"submit", "--indexnow-key", "bad_key_chars", in}, `it holds "_"`},
		{[]string{"submit", "--indexnow-key", testKey, "--batch", "0", in}, "--batch must be 1 to 10000"},
		{[]string{"submit", "--indexnow-key", testKey, "--batch", "10001", in}, "--batch must be 1 to 10000"},
		{[]string{"submit", "--indexnow-key", testKey, "--endpoint", "api.indexnow.org", in}, "is not an absolute http(s) URL"},
		{[]string{"submit", "--indexnow-key", testKey, "--key-location", "key.txt", in}, "key location"},
		{[]string{"submit", "--indexnow-key", testKey, "--host", "a b", in}, "host"},
	} {
		_, errOut, status := runCLI(t, nil, tc.args...)
		assert.Equal(t, exitUsage, status, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.msg, tc.args)
	}

	// The default endpoint is the shared one (a dry run sends nothing).
	out, errOut, status := runCLI(t, nil, "submit", "--dry-run", "--indexnow-key", testKey, in)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "feed2sitemap: dry run: would submit 1 URL in 1 batch for 1 host to "+indexnow.DefaultEndpoint+"\n", errOut)
	assert.Equal(t, `{"host":"example.com","key":"`+testKey+`","urlList":["https://example.com/a"]}`+"\n", out)

	// Inputs that hold no URL: nothing to submit.
	empty := filepath.Join(dir, "index.xml")
	require.NoError(t, os.WriteFile(empty, []byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`), 0o644))
	_, errOut, status = runCLI(t, nil, "submit", "--indexnow-key", testKey, "--endpoint", "http://127.0.0.1:1/indexnow", empty)
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "nothing to submit")
}
