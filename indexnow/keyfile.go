package indexnow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
)

// KeyFileMax is the most of a key file that is read, locally or from a
// host: a key is at most 128 characters, and a longer file does not hold
// just a key.
const KeyFileMax = 4096

// MaskKey returns the start of key and "…": its first four characters,
// fewer for a key shorter than 16, enough to tell keys apart in a message
// and not enough to use one. Messages show keys only this way.
func MaskKey(key string) string {
	n := min(4, len(key)/4)
	for n > 0 && !utf8.RuneStart(key[n]) {
		n--
	}
	return key[:n] + "…"
}

// keyText is the key a key file holds: its text without surrounding space
// and without a byte-order mark.
func keyText(content []byte) string {
	return strings.TrimSpace(strings.TrimPrefix(string(content), "\uFEFF"))
}

// ReadKeyFile returns the key held in the local file path: its text
// without surrounding space (a final newline) or byte-order mark, which
// must be a valid key (see CheckKey). Its errors name the file and never
// show what it holds.
func ReadKeyFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, KeyFileMax+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if len(content) > KeyFileMax {
		return "", fmt.Errorf("%s: holds more than %d bytes, so not just an IndexNow key", path, KeyFileMax)
	}
	key := keyText(content)
	if key == "" {
		return "", fmt.Errorf("%s: is empty: it should hold the IndexNow key", path)
	}
	if err := CheckKey(key); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return key, nil
}

// KeyFileURL returns where the engines look for the key of b's host: the
// Client's KeyLocation (a path taken on b's host), or KEY.txt at the root
// of the scheme, host and port of b's URLs.
func (c *Client) KeyFileURL(b Batch) (string, error) {
	kl, err := c.keyLocation(b)
	if err != nil || kl != "" {
		return kl, err
	}
	u := &url.URL{Scheme: batchScheme(b), Host: b.Host, Path: "/" + c.Key + ".txt"}
	return u.String(), nil
}

// batchScheme is the scheme of b's first URL: "http" or "https".
func batchScheme(b Batch) string {
	if len(b.URLs) > 0 && strings.HasPrefix(b.URLs[0], "http:") {
		return "http"
	}
	return "https"
}

// KeyFileError says why a host's key file does not prove the key: the key
// file is on another host, could not be read, answered other than 2xx,
// redirects off its host, or does not hold the key.
type KeyFileError struct {
	Host string // the host whose URLs were to be posted
	// URL is the key file's URL, the key in it masked (MaskKey).
	URL string
	// Status is the HTTP status of the answer; 0 when none came.
	Status int
	// Reason says what was found: "answered 404 Not Found", "holds
	// another key (abcd…)".
	Reason string
	// Err is the request's error when no answer came (a refused address,
	// a time-out); Reason holds its message.
	Err error
}

// Error returns "the key file URL REASON", its control characters
// escaped.
func (e *KeyFileError) Error() string {
	return termsafe.String("the key file " + e.URL + " " + e.Reason)
}

// Unwrap returns Err.
func (e *KeyFileError) Unwrap() error { return e.Err }

// offHostError is the error of a key file's redirect to another host.
type offHostError struct{ to string }

func (e *offHostError) Error() string {
	return "redirects to " + e.to + ", off the host (a key file is read on its host only)"
}

// keyCheck is the outcome of one key file's check, made once.
type keyCheck struct {
	done chan struct{}
	err  error
}

// CheckKeyFile gets the key file of b's host (KeyFileURL) and returns nil
// when it proves the key: the host answers 2xx, after redirects on the
// same host only, with the key and nothing else but surrounding space.
// Otherwise it returns a *KeyFileError, without the key in full. The
// request follows the Client's time-out, retries and User-Agent, through
// KeyFileClient; each key file is checked once, its outcome kept for the
// later batches of its host.
func (c *Client) CheckKeyFile(ctx context.Context, b Batch) error {
	loc, err := c.KeyFileURL(b)
	if err != nil {
		return err
	}
	v, loaded := c.checks.LoadOrStore(loc, &keyCheck{done: make(chan struct{})})
	kc := v.(*keyCheck)
	if loaded {
		select {
		case <-kc.done:
			return kc.err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	kc.err = c.checkKeyFile(ctx, b.Host, loc)
	close(kc.done)
	return kc.err
}

// checkKeyFile checks the key file at loc for host.
func (c *Client) checkKeyFile(ctx context.Context, host, loc string) error {
	fail := func(status int, reason string) error {
		return &KeyFileError{Host: host, URL: c.redact(loc), Status: status, Reason: c.redact(reason)}
	}
	u, err := url.Parse(loc)
	if err != nil {
		return fail(0, "is not a URL")
	}
	if !sameHost(u.Hostname(), (&url.URL{Host: host}).Hostname()) {
		return fail(0, "is not on "+host+": IndexNow reads the key file of a host on the host")
	}
	var content []byte
	status, _, err := c.try(ctx, func() (status int, header http.Header, err error) {
		status, header, content, err = c.getKeyFile(ctx, loc)
		return status, header, err
	})
	switch {
	case errors.As(err, new(*offHostError)):
		return fail(0, err.Error())
	case err != nil && status != 0:
		return fail(status, fmt.Sprintf("answered %d %s", status, http.StatusText(status)))
	case err != nil:
		kfe := fail(0, "could not be read: "+err.Error()).(*KeyFileError)
		kfe.Err = err
		return kfe
	case len(content) > KeyFileMax:
		return fail(status, fmt.Sprintf("holds more than %d bytes, not just the key", KeyFileMax))
	}
	got := keyText(content)
	switch {
	case got == c.Key:
		return nil
	case got == "":
		return fail(status, fmt.Sprintf("answered %d but is empty, without the key", status))
	case CheckKey(got) == nil:
		return fail(status, fmt.Sprintf("answered %d but holds another key (%s), not this one (%s)", status, MaskKey(got), MaskKey(c.Key)))
	}
	start := got
	if len(start) > 40 {
		start = strings.ToValidUTF8(start[:40], "") + "…"
	}
	return fail(status, fmt.Sprintf("answered %d but holds %s (%d bytes), not the key", status, strconv.Quote(start), len(content)))
}

// sameHost reports whether two host names are the same, case and a final
// dot aside.
func sameHost(a, b string) bool {
	return strings.EqualFold(strings.TrimSuffix(a, "."), strings.TrimSuffix(b, "."))
}

// redact masks the key wherever it appears in s.
func (c *Client) redact(s string) string {
	if c.Key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.Key, MaskKey(c.Key))
}

// getKeyFile makes one GET of the key file at loc. It returns the status
// and header of the answer (0 and nil when none came), the start of its
// body (at most KeyFileMax+1 bytes), and an error unless the status is
// 2xx.
func (c *Client) getKeyFile(ctx context.Context, loc string) (status int, header http.Header, content []byte, err error) {
	timeout := c.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc, nil)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("indexnow: %w", err)
	}
	req.Header.Set("Accept", "text/plain, */*;q=0.5")
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	resp, err := c.keyFileClient().Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		var ne net.Error
		if ctx.Err() == context.DeadlineExceeded || errors.As(err, &ne) && ne.Timeout() {
			return 0, nil, nil, fmt.Errorf("no answer within %s", timeout)
		}
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, KeyFileMax))
		return resp.StatusCode, resp.Header, nil, &StatusError{Code: resp.StatusCode}
	}
	content, err = io.ReadAll(io.LimitReader(resp.Body, KeyFileMax+1))
	if err != nil {
		return resp.StatusCode, resp.Header, nil, fmt.Errorf("answered %d, then the body broke off: %w", resp.StatusCode, err)
	}
	return resp.StatusCode, resp.Header, content, nil
}

// keyFileClient returns the client of the key files' GETs: KeyFileClient
// (or HTTPClient, or a client of its own) following redirects on the key
// file's host only.
func (c *Client) keyFileClient() *http.Client {
	c.keyOnce.Do(func() {
		hc := c.KeyFileClient
		if hc == nil {
			hc = c.HTTPClient
		}
		if hc == nil {
			hc = fetch.NewClient(c.timeout())
		}
		own := *hc
		next := hc.CheckRedirect
		own.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if !sameHost(req.URL.Hostname(), via[0].URL.Hostname()) {
				return &offHostError{to: req.URL.String()}
			}
			if next != nil {
				return next(req, via)
			}
			if len(via) > fetch.MaxRedirects {
				return fmt.Errorf("%w: stopped after %d", fetch.ErrTooManyRedirects, fetch.MaxRedirects)
			}
			return nil
		}
		c.keyHTTP = &own
	})
	return c.keyHTTP
}
