// Package fetch gets remote inputs over HTTP: one GET per URL, with
// time-outs, a redirect limit, bounded retries that honour Retry-After,
// gzip content encoding removed, a cap on the decoded size, a User-Agent
// that names the tool, and an optional cache of validators for conditional
// requests on later runs.
//
// Every request follows a remote-host Policy, applied per top-level input
// by a Scope: the children of an index stay on its origin, and no request
// reaches a loopback, link-local, private, unspecified or multicast
// address unless the top-level input is on one or the policy allows it.
// The address is checked after DNS resolution, as the connection is made,
// and on every redirect.
//
// A body is read whole into a temporary file (or the cache) before Fetch
// returns it, so the time-out covers the whole transfer, a body is never
// held in memory, and a slow reader downstream never holds a connection
// open. The http.Client is injected (Options.Client), so tests run against
// httptest servers.
package fetch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
)

// Defaults of Options.
const (
	// DefaultTimeout is the time one attempt may take, from connecting to
	// the last byte of the body.
	DefaultTimeout = 30 * time.Second
	// DefaultConnectTimeout is the time connecting may take, when shorter
	// than the timeout.
	DefaultConnectTimeout = 10 * time.Second
	// DefaultMaxBytes is the cap on a body's size, counted after
	// Content-Encoding is removed: the protocol's limit of a sitemap.
	DefaultMaxBytes = formats.MaxBytes
	// MaxRedirects is how many redirects a request follows.
	MaxRedirects = 10
	// ProjectURL is the project's address, named in the User-Agent.
	ProjectURL = "https://github.com/feed2sitemap/feed2sitemap"
)

// ErrTooManyRedirects is wrapped by the error of a request that was
// redirected more than MaxRedirects times (a redirect loop, most often).
var ErrTooManyRedirects = errors.New("fetch: too many redirects")

// UserAgent returns the User-Agent the tool sends:
// "feed2sitemap/VERSION (+https://github.com/feed2sitemap/feed2sitemap)".
func UserAgent(version string) string {
	return "feed2sitemap/" + version + " (+" + ProjectURL + ")"
}

// Options configure a Fetcher. The zero value is usable: a client of its
// own, the default time-out, no retries, no size cap, no cache.
type Options struct {
	// Client sends the requests, as it is: the Policy does not apply to
	// it. Nil means a client per Scope, like NewClient(Timeout) but with
	// the Policy. A client without a CheckRedirect of its own gets one
	// that stops after MaxRedirects redirects.
	Client *http.Client
	// UserAgent is sent with every request; empty means UserAgent("dev").
	UserAgent string
	// Timeout is the time one attempt may take, body included. 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxBytes caps a body's size, counted after Content-Encoding is
	// removed; a larger body fails with an error wrapping
	// formats.ErrTooLarge. 0 means no cap.
	MaxBytes int64
	// Retry says when a failed request is tried again.
	Retry RetryPolicy
	// CacheDir, when set, is where validators (ETag, Last-Modified) and
	// bodies are kept between runs: a later request for the same URL asks
	// whether it changed (If-None-Match, If-Modified-Since), and a 304
	// Not Modified answer is served from the cache.
	CacheDir string
	// TempDir holds the bodies fetched; "" is the system's temporary
	// directory.
	TempDir string
	// Sleep waits d before a retry, or returns ctx's error if ctx ends
	// first. Nil means the function Sleep; tests replace it to record the
	// waits.
	Sleep func(ctx context.Context, d time.Duration) error
	// Policy is the remote-host policy of the requests (see Policy); it
	// applies unless Client is set, which is then used as it is.
	Policy Policy
	// Warn, when set, is told of what does not stop a fetch: a cache
	// directory that cannot be used, so that the fetch goes on without
	// the cache.
	Warn func(error)
}

// NewClient returns an HTTP client whose connections are made within
// DefaultConnectTimeout (or timeout, when shorter) and whose answers'
// headers must arrive within timeout; it follows at most MaxRedirects
// redirects and uses the environment's proxy settings.
func NewClient(timeout time.Duration) *http.Client {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: min(timeout, DefaultConnectTimeout), KeepAlive: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   min(timeout, DefaultConnectTimeout),
			ResponseHeaderTimeout: timeout,
			ForceAttemptHTTP2:     true,
			MaxIdleConnsPerHost:   8,
			IdleConnTimeout:       90 * time.Second,
		},
		CheckRedirect: checkRedirect,
	}
}

func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return fmt.Errorf("%w: stopped after %d (a redirect loop?)", ErrTooManyRedirects, MaxRedirects)
	}
	return nil
}

// Fetcher gets URLs. It is safe for concurrent use.
type Fetcher struct {
	opts   Options
	client *http.Client // when Options.Client was given; else each Scope has its own
	cache  *cache

	noCache  sync.Once   // warns of an unusable cache once
	cacheOff atomic.Bool // the cache turned out unusable
}

// New returns a Fetcher with the options.
func New(opts Options) *Fetcher {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.UserAgent == "" {
		opts.UserAgent = UserAgent("dev")
	}
	if opts.Sleep == nil {
		opts.Sleep = Sleep
	}
	client := opts.Client
	if client != nil && client.CheckRedirect == nil {
		c := *client
		c.CheckRedirect = checkRedirect
		client = &c
	}
	f := &Fetcher{opts: opts, client: client}
	if opts.CacheDir != "" {
		f.cache = &cache{dir: opts.CacheDir, unusable: f.cacheUnusable}
		if err := f.cache.usable(); err != nil {
			f.cacheUnusable(err)
		}
	}
	return f
}

// cacheUnusable turns the cache off for the rest of the Fetcher's life,
// with a warning.
func (f *Fetcher) cacheUnusable(err error) {
	f.noCache.Do(func() {
		f.cacheOff.Store(true)
		if f.opts.Warn != nil {
			f.opts.Warn(fmt.Errorf("fetch: the cache directory %s cannot be used (%v); fetching without the cache", f.opts.CacheDir, err))
		}
	})
}

// cached returns the cache, or nil when there is none or it was turned
// off.
func (f *Fetcher) cached() *cache {
	if f.cacheOff.Load() {
		return nil
	}
	return f.cache
}

// Sleep waits d, or until ctx ends and then returns its error: the wait
// between attempts of a Fetcher whose Options.Sleep is nil, for other
// clients that retry by a RetryPolicy too.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Error is why a URL could not be fetched.
type Error struct {
	URL      string // the URL asked for
	Final    string // where redirects led, when elsewhere
	Status   int    // the HTTP status of the last answer; 0 when there was none
	Attempts int    // requests made
	Err      error
}

// Error says what went wrong, naming the URL: "https://example.com/a.xml:
// HTTP 404 Not Found".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.URL)
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	if e.Final != "" && e.Final != e.URL {
		fmt.Fprintf(&b, " (redirected to %s)", e.Final)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (%d attempts)", e.Attempts)
	}
	// The status reason and the URLs come from the network.
	return termsafe.String(b.String())
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Body is a fetched body: its bytes after Content-Encoding was removed, and
// where it came from. Close it to remove its temporary file.
type Body struct {
	// URL is where the body came from, after redirects: relative links in
	// it resolve against this.
	URL *url.URL
	// Status is the HTTP status of the answer: 200 (or another 2xx), or
	// 304 when the body was served from the cache.
	Status int
	// Size is the body's length in bytes.
	Size int64
	// Charset is the charset parameter of the answer's Content-Type (of
	// the answer the cache kept, for a 304), or "": the encoding the body
	// is in, which decides over an XML declaration's (RFC 7303).
	Charset string

	r      io.Reader
	f      *os.File
	remove string // the file to remove on Close
}

// Read reads the body.
func (b *Body) Read(p []byte) (int, error) { return b.r.Read(p) }

// Location returns URL, the final URL after redirects.
func (b *Body) Location() *url.URL { return b.URL }

// ContentCharset returns Charset, the charset the server gave for the
// body.
func (b *Body) ContentCharset() string { return b.Charset }

// Close closes the body and removes its temporary file.
func (b *Body) Close() error {
	err := b.f.Close()
	if b.remove != "" {
		os.Remove(b.remove)
	}
	return err
}

// Fetch gets rawURL, a top-level input in a scope of its own (see
// NewScope), and returns its body once it was read whole. It tries again,
// as the retry policy says, after a network error, a time-out, a 429 or a
// 5xx answer, but never once a body began to arrive. Any answer other than
// 2xx (or a 304 served from the cache), a body larger than MaxBytes, a body
// shorter than its Content-Length, an address the Policy refuses, and a
// time-out give an *Error naming the URL. When ctx ends, the error is
// ctx's cause (context.Cause), so that a deadline of the whole run set
// with a cause says so.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string) (*Body, error) {
	return f.NewScope(rawURL).Fetch(ctx, rawURL)
}

func (f *Fetcher) fetch(ctx context.Context, s *Scope, rawURL string) (*Body, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &Error{URL: rawURL, Err: errors.New("not an http or https URL")}
	}
	if ctx.Err() != nil {
		return nil, &Error{URL: rawURL, Err: context.Cause(ctx)}
	}
	cached := f.cached().load(rawURL)
	for attempt := 1; ; attempt++ {
		body, retry, ferr := f.attempt(ctx, s.client, rawURL, cached)
		if ferr == nil {
			return body, nil
		}
		ferr.Attempts = attempt
		if retry == nil || attempt > f.opts.Retry.Retries || ctx.Err() != nil {
			return nil, ferr
		}
		wait, ok := f.opts.Retry.Wait(attempt, retry, time.Now())
		if !ok {
			ferr.Err = fmt.Errorf("%w; the server asks to wait %v, more than the %v allowed", ferr.Err, wait.Round(time.Second), f.opts.Retry.maxWait())
			return nil, ferr
		}
		if err := f.opts.Sleep(ctx, wait); err != nil {
			if ctx.Err() != nil {
				ferr.Err = fmt.Errorf("%w (after: %v)", context.Cause(ctx), ferr.Err)
			}
			return nil, ferr
		}
	}
}

// attempt makes one request. retry is non-nil when the request may be
// tried again: the answer's header, or an empty one after a network error.
func (f *Fetcher) attempt(ctx context.Context, client *http.Client, rawURL string, cached *entry) (body *Body, retry http.Header, ferr *Error) {
	actx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	fail := func(err error) *Error {
		switch {
		case ctx.Err() != nil:
			err = context.Cause(ctx)
		case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
			err = fmt.Errorf("no complete answer within %v", f.opts.Timeout)
		}
		return &Error{URL: rawURL, Err: err}
	}
	req, err := http.NewRequestWithContext(actx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, nil, fail(err)
	}
	req.Header.Set("User-Agent", f.opts.UserAgent)
	req.Header.Set("Accept", "application/xml, text/xml, application/rss+xml, application/atom+xml, application/feed+json, application/json, text/plain;q=0.9, */*;q=0.8")
	// Asked for explicitly, gzip is not removed by the transport: the
	// size cap counts the decoded bytes here, and a body that says it is
	// gzipped and is not can still be read.
	req.Header.Set("Accept-Encoding", "gzip")
	if cached != nil {
		if cached.ETag != "" {
			req.Header.Set("If-None-Match", cached.ETag)
		}
		if cached.LastModified != "" {
			req.Header.Set("If-Modified-Since", cached.LastModified)
		}
	}
	resp, err := client.Do(req)
	if err != nil {
		ferr := fail(unwrapURLError(err))
		if errors.Is(err, ErrTooManyRedirects) || errors.Is(err, ErrAddressRefused) || errors.Is(err, ErrOtherOrigin) || ctx.Err() != nil {
			return nil, nil, ferr
		}
		return nil, http.Header{}, ferr
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	status := func(err error) *Error {
		return &Error{URL: rawURL, Final: final.String(), Status: resp.StatusCode, Err: err}
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && cached != nil:
		b, err := f.cached().open(cached, f.opts.MaxBytes)
		if err != nil {
			return nil, nil, status(err)
		}
		b.URL = final
		return b, nil, nil
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
	case Retryable(resp.StatusCode):
		return nil, resp.Header, status(fmt.Errorf("HTTP %s", resp.Status))
	default:
		return nil, nil, status(fmt.Errorf("HTTP %s", resp.Status))
	}
	r, err := decode(resp)
	if err != nil {
		return nil, nil, status(err)
	}
	b, err := f.save(rawURL, resp, r)
	if err != nil {
		ferr := fail(err)
		ferr.Final, ferr.Status = final.String(), resp.StatusCode
		return nil, nil, ferr
	}
	b.URL = final
	return b, nil, nil
}

// save copies the body r into a temporary file, or into the cache when the
// answer has validators, and returns it open for reading.
func (f *Fetcher) save(rawURL string, resp *http.Response, r io.Reader) (*Body, error) {
	v := validators(resp.Header)
	if c := f.cached(); c != nil && (v.ETag != "" || v.LastModified != "") {
		v.URL = rawURL
		b, err := c.store(v, r, f.opts.MaxBytes)
		var ue unusableError
		if !errors.As(err, &ue) {
			return b, err
		}
		// Nothing of the body was read yet: it goes to a temporary file.
		f.cacheUnusable(ue.err)
	}
	tmp, err := os.CreateTemp(f.opts.TempDir, "feed2sitemap-fetch-*")
	if err != nil {
		return nil, err
	}
	b := &Body{Status: resp.StatusCode, Charset: v.Charset, f: tmp, r: tmp, remove: tmp.Name()}
	if runtime.GOOS != "windows" {
		// Removed now, the file goes away with the process however it
		// ends; the open descriptor still reads it.
		os.Remove(tmp.Name())
		b.remove = ""
	}
	if b.Size, err = copyCapped(tmp, r, f.opts.MaxBytes); err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// copyCapped copies r to w, failing with formats.ErrTooLarge when r holds
// more than max bytes (0: no cap).
func copyCapped(w io.Writer, r io.Reader, max int64) (int64, error) {
	if max <= 0 {
		return io.Copy(w, r)
	}
	n, err := io.Copy(w, io.LimitReader(r, max+1))
	if err == nil && n > max {
		err = tooLarge(max)
	}
	return n, err
}

func tooLarge(max int64) error {
	return fmt.Errorf("%w: more than the cap of %d bytes (counted decompressed); stopped rather than read part of it", formats.ErrTooLarge, max)
}

// decode returns the body of resp with its Content-Encoding removed. A body
// said to be gzipped that does not start with gzip's magic bytes is read as
// it is: servers say so of bodies they did not compress.
func decode(resp *http.Response) (io.Reader, error) {
	var r io.Reader = resp.Body
	codings := strings.Split(resp.Header.Get("Content-Encoding"), ",")
	if len(codings) > source.MaxGzipLayers {
		// Each layer holds a decompressor's buffers: a header listing
		// thousands would take the memory a gzip bomb is refused.
		return nil, fmt.Errorf("Content-Encoding lists %d codings; at most %d are removed", len(codings), source.MaxGzipLayers)
	}
	for i := len(codings) - 1; i >= 0; i-- {
		switch c := strings.ToLower(strings.TrimSpace(codings[i])); c {
		case "", "identity":
		case "gzip", "x-gzip":
			br := bufio.NewReader(r)
			if magic, _ := br.Peek(2); len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
				r = br
				continue
			}
			zr, err := gzip.NewReader(br)
			if err != nil {
				return nil, fmt.Errorf("corrupt gzip content encoding: %w", err)
			}
			r = gzipErrors{zr}
		default:
			return nil, fmt.Errorf("unsupported Content-Encoding %q (only gzip was asked for)", c)
		}
	}
	return r, nil
}

// gzipErrors says that errors of the decompressor are about the content
// encoding.
type gzipErrors struct{ r io.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("corrupt gzip content encoding: %w", err)
	}
	return n, err
}

// unwrapURLError drops the "Get "URL": " of a *url.Error: Error names the
// URL already.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
