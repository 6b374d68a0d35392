package indexnow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

const key = "0123456789abcdef-KEY"

func TestCheckKey(t *testing.T) {
	for _, ok := range []string{"abcdefgh", "ABCDEFGH-1234", strings.Repeat("a", 128), key} {
		assert.NoError(t, indexnow.CheckKey(ok), ok)
	}
	for _, bad := range []string{"", "abcdefg", strings.Repeat("a", 129), "abcdefgh_", "abcd efgh", "abcdéfgh", "abcdefgh/"} {
		err := indexnow.CheckKey(bad)
		assert.ErrorIs(t, err, indexnow.ErrKey, bad)
	}
}

func TestCheckKeyLocation(t *testing.T) {
	for _, ok := range []string{"", "/key.txt", "/keys/" + key + ".txt", "https://example.com/k.txt", "http://example.com:8080/k.txt"} {
		assert.NoError(t, indexnow.CheckKeyLocation(ok), ok)
	}
	for _, bad := range []string{"key.txt", "//example.com/k.txt", "ftp://example.com/k.txt", "https:///k.txt", "%zz"} {
		assert.Error(t, indexnow.CheckKeyLocation(bad), bad)
	}
}

func TestBody(t *testing.T) {
	b := indexnow.Batch{Host: "www.example.org", URLs: []string{"https://www.example.org/url1", "https://www.example.org/folder/url2?a=1&b=<2>"}}
	c := &indexnow.Client{Key: key}
	got, err := c.Body(b)
	require.NoError(t, err)
	assert.Equal(t, `{"host":"www.example.org","key":"`+key+`","urlList":["https://www.example.org/url1","https://www.example.org/folder/url2?a=1&b=<2>"]}`, string(got))

	c.KeyLocation = "https://www.example.org/myIndexNowKey63638.txt"
	got, err = c.Body(b)
	require.NoError(t, err)
	assert.Equal(t, `{"host":"www.example.org","key":"`+key+`","keyLocation":"https://www.example.org/myIndexNowKey63638.txt","urlList":["https://www.example.org/url1","https://www.example.org/folder/url2?a=1&b=<2>"]}`, string(got))

	// A path is taken on the batch's host, with its URLs' scheme.
	c.KeyLocation = "/keys/k.txt"
	got, err = c.Body(indexnow.Batch{Host: "example.com:8080", URLs: []string{"http://example.com:8080/a"}})
	require.NoError(t, err)
	assert.Contains(t, string(got), `"keyLocation":"http://example.com:8080/keys/k.txt"`)
}

// server is an IndexNow endpoint on loopback that answers each request with
// the next of its replies (the last one over and over) and keeps what it
// received.
type server struct {
	*httptest.Server
	mu      sync.Mutex
	replies []reply
	got     []request
}

type reply struct {
	status     int
	retryAfter string
	body       string
}

type request struct {
	method, contentType, body string
}

func newServer(t *testing.T, replies ...reply) *server {
	s := &server{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.got = append(s.got, request{r.Method, r.Header.Get("Content-Type"), string(body)})
		rep := s.replies[min(len(s.got), len(s.replies))-1]
		s.mu.Unlock()
		if rep.retryAfter != "" {
			w.Header().Set("Retry-After", rep.retryAfter)
		}
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]request(nil), s.got...)
}

var batch = indexnow.Batch{Host: "example.com", URLs: []string{"https://example.com/a", "https://example.com/b"}}

func TestSendStatuses(t *testing.T) {
	for _, tc := range []struct {
		status int
		ok     bool
		want   string
	}{
		{200, true, "example.com: 2 URLs: 200 OK: URLs submitted"},
		{202, true, "example.com: 2 URLs: 202 Accepted: URLs received; the key is still to be verified"},
		{400, false, "example.com: 2 URLs: 400 Bad Request: invalid format; the server said: {\"code\": \"InvalidRequestParameters\"}"},
		{403, false, "example.com: 2 URLs: 403 Forbidden: key not valid (the key file was not found on the host, or does not hold the key); the server said: {\"code\": \"InvalidRequestParameters\"}"},
		{422, false, "example.com: 2 URLs: 422 Unprocessable Entity: URLs don't belong to the host, or the key doesn't match the protocol's schema; the server said: {\"code\": \"InvalidRequestParameters\"}"},
		{404, false, "example.com: 2 URLs: 404 Not Found; the server said: {\"code\": \"InvalidRequestParameters\"}"},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			body := ""
			if !tc.ok {
				body = "{\"code\":\n \"InvalidRequestParameters\"}"
			}
			srv := newServer(t, reply{status: tc.status, body: body})
			c := &indexnow.Client{Endpoint: srv.URL + "/indexnow", Key: key, Retry: fetch.RetryPolicy{Retries: 3}}
			var waits []time.Duration
			indexnow.RecordWaits(c, &waits)
			r := c.Send(context.Background(), batch)
			assert.Equal(t, tc.ok, r.OK())
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, 1, r.Attempts, "4xx other than 429 are final")
			assert.Empty(t, waits)
			assert.Equal(t, tc.want, r.String())
			reqs := srv.requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, "POST", reqs[0].method)
			assert.Equal(t, "application/json; charset=utf-8", reqs[0].contentType)
			assert.Equal(t, `{"host":"example.com","key":"`+key+`","urlList":["https://example.com/a","https://example.com/b"]}`, reqs[0].body)
			if !tc.ok {
				var se *indexnow.StatusError
				require.ErrorAs(t, r.Err, &se)
				assert.Equal(t, tc.status, se.Code)
			}
		})
	}
}

func TestRetry(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name     string
		replies  []reply
		retries  int
		ok       bool
		attempts int
		waits    [][2]time.Duration // each wait's bounds: back-off has jitter
		status   int
	}{
		{"429 with Retry-After seconds", []reply{{status: 429, retryAfter: "7"}, {status: 429, retryAfter: "3"}, {status: 200}}, 3, true, 3, [][2]time.Duration{{7 * s, 7 * s}, {3 * s, 3 * s}}, 200},
		{"500 backs off", []reply{{status: 500}, {status: 502}, {status: 503}, {status: 202}}, 3, true, 4, [][2]time.Duration{{s / 2, s}, {s, 2 * s}, {2 * s, 4 * s}}, 202},
		{"retries run out", []reply{{status: 503}}, 2, false, 3, [][2]time.Duration{{s / 2, s}, {s, 2 * s}}, 503},
		{"no retries", []reply{{status: 429, retryAfter: "1"}}, 0, false, 1, nil, 429},
		{"Retry-After longer than allowed", []reply{{status: 429, retryAfter: "3600"}}, 3, false, 1, nil, 429},
		{"Retry-After malformed", []reply{{status: 429, retryAfter: "soon"}, {status: 200}}, 1, true, 2, [][2]time.Duration{{s / 2, s}}, 200},
		{"Retry-After as a date", []reply{{status: 503, retryAfter: "Mon, 02 Jan 2006 15:04:05 GMT"}, {status: 200}}, 1, true, 2, [][2]time.Duration{{0, 0}}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, tc.replies...)
			c := &indexnow.Client{Endpoint: srv.URL, Key: key, Retry: fetch.RetryPolicy{Retries: tc.retries, Base: time.Second}}
			var waits []time.Duration
			indexnow.RecordWaits(c, &waits)
			r := c.Send(context.Background(), batch)
			assert.Equal(t, tc.ok, r.OK(), r.String())
			assert.Equal(t, tc.attempts, r.Attempts)
			require.Len(t, waits, len(tc.waits))
			for i, w := range waits {
				assert.True(t, tc.waits[i][0] <= w && w <= tc.waits[i][1], "wait %d: %s not within %v", i, w, tc.waits[i])
			}
			assert.Equal(t, tc.status, r.Status)
			assert.Len(t, srv.requests(), tc.attempts)
		})
	}
	srv := newServer(t, reply{status: 429, retryAfter: "3600"})
	c := &indexnow.Client{Endpoint: srv.URL, Key: key, Retry: fetch.RetryPolicy{Retries: 3}}
	r := c.Send(context.Background(), batch)
	assert.Equal(t, "example.com: 2 URLs: 429 Too Many Requests: submitting too often (possible spam); the server asks to retry after 1h0m0s, longer than allowed", r.String())
}

func TestRetryWaitsForReal(t *testing.T) {
	// Retry-After: 0 and a 1 ms back-off, slept for real.
	srv := newServer(t, reply{status: 429, retryAfter: "0"}, reply{status: 500}, reply{status: 200})
	c := &indexnow.Client{Endpoint: srv.URL, Key: key, Retry: fetch.RetryPolicy{Retries: 2, Base: time.Millisecond}}
	r := c.Send(context.Background(), batch)
	assert.True(t, r.OK(), r.String())
	assert.Equal(t, 3, r.Attempts)

	// A cancelled context ends the wait.
	srv = newServer(t, reply{status: 503, retryAfter: "60"})
	ctx, cancel := context.WithCancel(context.Background())
	c = &indexnow.Client{Endpoint: srv.URL, Key: key, Retry: fetch.RetryPolicy{Retries: 5}}
	time.AfterFunc(50*time.Millisecond, cancel)
	r = c.Send(ctx, batch)
	assert.False(t, r.OK())
	assert.ErrorIs(t, r.Err, context.Canceled)
	assert.Equal(t, 1, r.Attempts)
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	var calls sync.WaitGroup
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		defer calls.Done()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	c := &indexnow.Client{Endpoint: srv.URL, Key: key, Timeout: 100 * time.Millisecond, Retry: fetch.RetryPolicy{Retries: 1, Base: time.Millisecond}}
	r := c.Send(context.Background(), batch)
	assert.False(t, r.OK())
	assert.Equal(t, 0, r.Status)
	assert.Equal(t, 2, r.Attempts, "a time-out is retried")
	assert.Equal(t, "example.com: 2 URLs: failed: no answer from "+srv.URL+" within 100ms (after 2 attempts)", r.String())
}

func TestNetworkError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	c := &indexnow.Client{Endpoint: "http://" + addr + "/indexnow", Key: key, Retry: fetch.RetryPolicy{Retries: 2}}
	var waits []time.Duration
	indexnow.RecordWaits(c, &waits)
	r := c.Send(context.Background(), batch)
	assert.False(t, r.OK())
	assert.Equal(t, 3, r.Attempts)
	assert.Len(t, waits, 2)
	assert.Contains(t, r.String(), "failed: ")
	assert.Contains(t, r.String(), "connection refused")
}

func TestBadEndpoint(t *testing.T) {
	for _, bad := range []string{"http://[::1", "ftp://example.com/indexnow", "/indexnow", "https://"} {
		assert.Error(t, indexnow.CheckEndpoint(bad), bad)
		c := &indexnow.Client{Endpoint: bad, Key: key, Retry: fetch.RetryPolicy{Retries: 3}}
		r := c.Send(context.Background(), batch)
		assert.False(t, r.OK())
		assert.Equal(t, 0, r.Attempts, "nothing is sent")
		assert.Contains(t, r.String(), "failed: indexnow: endpoint", bad)
	}
	assert.NoError(t, indexnow.CheckEndpoint(indexnow.DefaultEndpoint))
}

func TestJSONIsValid(t *testing.T) {
	c := &indexnow.Client{Key: key, KeyLocation: "/k.txt"}
	got, err := c.Body(indexnow.Batch{Host: "example.com", URLs: []string{`https://example.com/"quoted"\back`, "https://example.com/%E2%82%AC"}})
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(got, &v))
	assert.Equal(t, []any{`https://example.com/"quoted"\back`, "https://example.com/%E2%82%AC"}, v["urlList"])
	assert.Equal(t, "https://example.com/k.txt", v["keyLocation"])
}
