// Package indexnow submits URLs to search engines with the IndexNow
// protocol (https://www.indexnow.org): a POST of a JSON body
//
//	{"host": "example.com", "key": "…", "keyLocation": "…", "urlList": ["…", …]}
//
// to an endpoint, with at most 10,000 URLs a request, all on the one host
// the body names. The key proves the submitter controls the host: the host
// must serve it in a text file, at https://HOST/KEY.txt by default or at the
// keyLocation the body gives.
//
// A Client sends one batch, with a time-out per attempt and bounded retries
// on 429 Too Many Requests, 5xx and network errors, waiting as Retry-After
// says or backing off exponentially (the policy of package fetch); with
// KeyCheck it first gets the key file of the batch's host and posts
// nothing unless the host serves the key. A Submitter groups a stream of URLs by
// host into batches and sends each when it is full. A State remembers what
// was submitted, so that only new and changed URLs are submitted again.
//
// DefaultEndpoint is the shared endpoint, which forwards every submission
// to all the participating search engines (Bing, Yandex, Seznam, Naver and
// others); an engine's own endpoint works the same way.
package indexnow

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
)

// DefaultEndpoint is the shared IndexNow endpoint, which forwards what it
// receives to every participating search engine.
const DefaultEndpoint = "https://api.indexnow.org/indexnow"

// MaxBatch is the most URLs one request may hold.
const MaxBatch = 10000

// DefaultTimeout bounds one attempt of a Client without a Timeout.
const DefaultTimeout = fetch.DefaultTimeout

// ErrKey is wrapped by the error CheckKey returns for a key the protocol
// does not allow.
var ErrKey = errors.New("indexnow: the key must be 8 to 128 characters of a-z, A-Z, 0-9 and -")

// CheckKey returns an error unless key is 8 to 128 characters, each a
// letter a-z or A-Z, a digit or a dash, as the protocol requires.
func CheckKey(key string) error {
	if len(key) < 8 || len(key) > 128 {
		return fmt.Errorf("%w (it has %d)", ErrKey, len(key))
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return fmt.Errorf("%w (it holds %q)", ErrKey, key[i:i+1])
		}
	}
	return nil
}

// Client sends batches of URLs to an IndexNow endpoint. The zero value of
// every field but Key is usable. Its fields must not change once it has
// sent a batch; it may then be used from several goroutines.
type Client struct {
	// Endpoint is the URL submissions are posted to; "" is
	// DefaultEndpoint.
	Endpoint string
	// Key is the key the host serves.
	Key string
	// KeyLocation, when set, is where the key file is: an absolute URL on
	// the host, or a path ("/keys/KEY.txt") that is taken on each batch's
	// host. When empty no keyLocation is sent, and engines look for the
	// key at https://HOST/KEY.txt.
	KeyLocation string
	// HTTPClient sends the requests; nil is fetch.NewClient(Timeout). A
	// fetch.Scope's client (Scope.HTTPClient) applies the remote-host
	// policy. Whatever its CheckRedirect, a redirect is never followed:
	// the POST answered by a redirect is a failure (see Send).
	HTTPClient *http.Client
	// Timeout bounds each attempt, from the request to the end of the
	// response; 0 is DefaultTimeout.
	Timeout time.Duration
	// Retry says when a batch is sent again: after a 429, a 5xx status, a
	// time-out or a network error, waiting as Retry-After says or backing
	// off; a Retry-After longer than its MaxWait ends the attempts. Other
	// statuses are final. The zero value sends each batch once.
	Retry fetch.RetryPolicy
	// UserAgent is sent with every request when set.
	UserAgent string
	// KeyCheck, when set, makes Send check the key file of each batch's
	// host first (CheckKeyFile) and refuse to post the batch, with a
	// *KeyFileError, when the host does not serve the key.
	KeyCheck bool
	// KeyFileClient gets the key files; nil is HTTPClient. Whatever its
	// CheckRedirect, a redirect to another host is not followed. A
	// fetch.Scope's client with no top-level input applies the
	// remote-host policy to every host.
	KeyFileClient *http.Client

	// sleep waits d, or until ctx is done; tests replace it.
	sleep   func(ctx context.Context, d time.Duration) error
	once    sync.Once
	own     *http.Client // when HTTPClient is nil
	keyOnce sync.Once
	keyHTTP *http.Client // keyFileClient's
	checks  sync.Map     // key file URL -> *keyCheck
}

// Batch is one request's worth of URLs, all on Host.
type Batch struct {
	Host string   // the host of every URL, as in the URLs ("example.com:8080")
	URLs []string // absolute http(s) URLs on Host
}

// body is the JSON body of a request, its fields in the protocol's order.
type body struct {
	Host        string   `json:"host"`
	Key         string   `json:"key"`
	KeyLocation string   `json:"keyLocation,omitempty"`
	URLList     []string `json:"urlList"`
}

// Body returns the JSON body the Client posts for b, without a final
// newline.
func (c *Client) Body(b Batch) ([]byte, error) {
	kl, err := c.keyLocation(b)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body{Host: b.Host, Key: c.Key, KeyLocation: kl, URLList: b.URLs}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// keyLocation returns the key location to send for b.
func (c *Client) keyLocation(b Batch) (string, error) {
	if c.KeyLocation == "" {
		return "", nil
	}
	if !strings.HasPrefix(c.KeyLocation, "/") {
		return c.KeyLocation, nil
	}
	u := &url.URL{Scheme: batchScheme(b), Host: b.Host, Path: c.KeyLocation}
	return u.String(), nil
}

func (c *Client) endpoint() string {
	if c.Endpoint == "" {
		return DefaultEndpoint
	}
	return c.Endpoint
}

// CheckEndpoint returns an error unless endpoint is an absolute http or
// https URL.
func CheckEndpoint(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("indexnow: endpoint %q is not an absolute http(s) URL", endpoint)
	}
	return nil
}

// CheckKeyLocation returns an error unless loc is empty, an absolute http
// or https URL, or a path starting with "/".
func CheckKeyLocation(loc string) error {
	if loc == "" || strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "//") {
		return nil
	}
	u, err := url.Parse(loc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("indexnow: key location %q is not an absolute http(s) URL or a path starting with /", loc)
	}
	return nil
}

// Result is what became of one batch.
type Result struct {
	Host     string
	URLs     int // how many URLs the batch held
	Status   int // the HTTP status of the last attempt; 0 when none came
	Attempts int // requests made
	// Err says why the batch was not accepted; nil when it was (a 2xx
	// status).
	Err error
}

// OK reports whether the endpoint accepted the batch.
func (r Result) OK() bool { return r.Err == nil }

// String describes the result in one line: "example.com: 3 URLs: 202
// Accepted: URLs received; the key is still to be verified".
func (r Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d %s: ", r.Host, r.URLs, plural(r.URLs, "URL", "URLs"))
	var se *StatusError
	var ke *KeyFileError
	switch {
	case errors.As(r.Err, &ke):
		fmt.Fprintf(&b, "not posted: %v", r.Err)
	case errors.As(r.Err, &se):
		b.WriteString(r.Err.Error())
	case r.Err != nil:
		fmt.Fprintf(&b, "failed: %v", r.Err)
	case r.Status != 0:
		fmt.Fprintf(&b, "%d %s", r.Status, StatusMeaning(r.Status))
	default:
		b.WriteString("not sent")
	}
	if r.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", r.Attempts)
	}
	return termsafe.String(b.String())
}

// StatusError is the error of a batch the endpoint refused.
type StatusError struct {
	Code    int    // the HTTP status
	Message string // the start of the response body, space collapsed
}

// Error returns the status, its meaning and the server's message, its
// control characters escaped: "403 Forbidden: key not valid (…); the
// server said: …".
func (e *StatusError) Error() string {
	s := fmt.Sprintf("%d %s", e.Code, StatusMeaning(e.Code))
	switch {
	case e.Code >= 300 && e.Code < 400:
		s += ": " + termsafe.String(e.Message)
	case e.Message != "":
		s += "; the server said: " + termsafe.String(e.Message)
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// StatusMeaning returns what an IndexNow endpoint means by an HTTP status.
func StatusMeaning(code int) string {
	switch code {
	case http.StatusOK:
		return "OK: URLs submitted"
	case http.StatusAccepted:
		return "Accepted: URLs received; the key is still to be verified"
	case http.StatusBadRequest:
		return "Bad Request: invalid format"
	case http.StatusForbidden:
		return "Forbidden: key not valid (the key file was not found on the host, or does not hold the key)"
	case http.StatusUnprocessableEntity:
		return "Unprocessable Entity: URLs don't belong to the host, or the key doesn't match the protocol's schema"
	case http.StatusTooManyRequests:
		return "Too Many Requests: submitting too often (possible spam)"
	}
	if t := http.StatusText(code); t != "" {
		return t
	}
	return "unknown status"
}

// Send posts b, retrying as the Client's settings say, and returns what
// became of it. With KeyCheck, it first checks the key file of b's host,
// and posts nothing when the host does not serve the key. It returns
// early, with ctx's error, when ctx is done. Only
// a 2xx answer to the POST itself counts as accepted: a redirect (of any
// status, 307 and 308 included) is not followed, and fails with an error
// naming where it leads, since a POST redirected to a GET would be
// answered 200 without submitting anything; the endpoint must be given as
// its final URL.
func (c *Client) Send(ctx context.Context, b Batch) Result {
	res := Result{Host: b.Host, URLs: len(b.URLs)}
	payload, err := c.Body(b)
	if err == nil {
		err = CheckEndpoint(c.endpoint())
	}
	if err == nil && c.KeyCheck {
		err = c.CheckKeyFile(ctx, b)
	}
	if err != nil {
		res.Err = err
		return res
	}
	res.Status, res.Attempts, res.Err = c.try(ctx, func() (int, http.Header, error) { return c.post(ctx, payload) })
	return res
}

// try makes a request with do until it succeeds, retrying as c.Retry says
// after a 429, a 5xx or a network error (not after an address the
// remote-host policy refuses). It returns the status of the last answer
// (0 when none came), the number of attempts, and the last error.
func (c *Client) try(ctx context.Context, do func() (int, http.Header, error)) (status, attempts int, err error) {
	for {
		attempts++
		var header http.Header
		status, header, err = do()
		if err == nil || ctx.Err() != nil || (status != 0 && !fetch.Retryable(status)) || attempts > c.Retry.Retries ||
			errors.Is(err, fetch.ErrAddressRefused) || errors.Is(err, fetch.ErrTooManyRedirects) || errors.As(err, new(*offHostError)) {
			return status, attempts, err
		}
		wait, ok := c.Retry.Wait(attempts, header, time.Now())
		if !ok {
			return status, attempts, fmt.Errorf("%w; the server asks to retry after %s, longer than allowed", err, wait.Round(time.Second))
		}
		if err := c.doSleep(ctx, wait); err != nil {
			return status, attempts, err
		}
	}
}

// timeout is the time one attempt may take.
func (c *Client) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

// post makes one attempt. It returns the status and header of the answer
// (0 and nil when none came), and an error unless the status is 2xx.
func (c *Client) post(ctx context.Context, payload []byte) (status int, header http.Header, err error) {
	timeout := c.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	endpoint := c.endpoint()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(payload))
	if err != nil {
		return 0, nil, fmt.Errorf("indexnow: %w", err)
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	c.once.Do(func() {
		hc := c.HTTPClient
		if hc == nil {
			hc = fetch.NewClient(timeout)
		}
		own := *hc
		own.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		c.own = &own
	})
	resp, err := c.own.Do(req)
	if err != nil {
		var ne net.Error
		if ctx.Err() == context.DeadlineExceeded || errors.As(err, &ne) && ne.Timeout() {
			return 0, nil, fmt.Errorf("no answer from %s within %s", endpoint, timeout)
		}
		return 0, nil, err
	}
	defer resp.Body.Close()
	// A few kilobytes of the answer say why a batch was refused; the rest
	// is drained so that the connection can be reused.
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 2048))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp.StatusCode, resp.Header, nil
	}
	// A server may quote the key back: it is masked, as in every message.
	m := c.redact(strings.Join(strings.Fields(strings.ToValidUTF8(string(msg), "\uFFFD")), " "))
	if len(m) > 200 {
		m = strings.ToValidUTF8(m[:200], "") + "…"
	}
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		where := "elsewhere"
		if loc, err := resp.Location(); err == nil {
			where = "to " + loc.String()
		}
		m = fmt.Sprintf("the endpoint redirects %s; a redirect of the POST is not followed (give the final URL as the endpoint)", where)
	}
	return resp.StatusCode, resp.Header, &StatusError{Code: resp.StatusCode, Message: m}
}

// doSleep waits d, or until ctx is done, with the test's clock when set.
func (c *Client) doSleep(ctx context.Context, d time.Duration) error {
	if c.sleep != nil {
		return c.sleep(ctx, d)
	}
	return fetch.Sleep(ctx, d)
}
