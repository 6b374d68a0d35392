package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// answer is what one request (after its redirects) got.
type answer struct {
	status int
	header http.Header
	final  *url.URL  // where the redirects led
	head   *htmlHead // the head of an HTML page read with readHTML
	body   []byte    // the body read with readRobots
	err    error     // no answer: why
	tries  int
}

// readMode says what of an answer's body is read.
type readMode int

const (
	readNone   readMode = iota
	readHTML            // an HTML page's head, when the answer is 2xx HTML
	readRobots          // a robots.txt, up to RobotsMaxBytes, when 2xx
)

// request makes a method request of rawURL, trying again as the retry
// policy says, within the host's limits, and reads what read says of a
// 2xx answer.
func (c *Checker) request(ctx context.Context, method, rawURL string, read readMode) answer {
	u, err := url.Parse(rawURL)
	if err != nil {
		return answer{err: err, tries: 1}
	}
	for attempt := 1; ; attempt++ {
		a := c.attempt(ctx, method, u, read)
		a.tries = attempt
		retry := a.err != nil && !errors.Is(a.err, fetch.ErrAddressRefused) && !errors.Is(a.err, fetch.ErrTooManyRedirects) ||
			a.err == nil && fetch.Retryable(a.status)
		if !retry || attempt > c.opts.Retry.Retries || ctx.Err() != nil {
			return a
		}
		wait, ok := c.opts.Retry.Wait(attempt, a.header, time.Now())
		if !ok {
			return a
		}
		if err := c.opts.Sleep(ctx, wait); err != nil {
			return a
		}
	}
}

// attempt makes one request.
func (c *Checker) attempt(ctx context.Context, method string, u *url.URL, read readMode) answer {
	release, err := c.hosts.acquire(ctx, u)
	if err != nil {
		return answer{err: err}
	}
	defer release()
	actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, method, u.String(), nil)
	if err != nil {
		return answer{err: err}
	}
	if c.opts.UserAgent != "" {
		req.Header.Set("User-Agent", c.opts.UserAgent)
	}
	req.Header.Set("Accept", "text/html, application/xhtml+xml;q=0.9, */*;q=0.8")
	resp, err := c.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		var ne net.Error
		if ctx.Err() == nil && (actx.Err() != nil || errors.As(err, &ne) && ne.Timeout()) {
			err = fmt.Errorf("no answer within %v", c.opts.Timeout)
		}
		return answer{err: err}
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, header: resp.Header, final: resp.Request.URL}
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	switch {
	case read == readHTML && ok && isHTML(resp.Header):
		a.head = readHead(io.LimitReader(resp.Body, c.opts.MaxHeadBytes))
	case read == readRobots && ok:
		if a.body, err = readRobotsBody(resp.Body); err != nil {
			a.err = fmt.Errorf("answered %s, then the body broke off: %w", statusText(resp.StatusCode), err)
		}
	}
	return a
}

// isHTML reports whether the Content-Type of an answer is an HTML one.
func isHTML(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && (mt == "text/html" || mt == "application/xhtml+xml")
}

// checkPage checks one page and reports its findings.
func (c *Checker) checkPage(ctx context.Context, p Page, report func(Finding)) {
	find := func(rule string, uncertain bool, format string, args ...any) {
		report(Finding{Page: p, Rule: rule, Uncertain: uncertain, Message: p.URL + ": " + fmt.Sprintf(format, args...)})
	}
	u, err := url.Parse(p.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		find(RuleStatus, false, "not an absolute http or https URL")
		return
	}
	c.checkRobots(ctx, u, find)

	a := c.request(ctx, http.MethodHead, p.URL, readNone)
	if a.err == nil && (a.status == http.StatusMethodNotAllowed || a.status == http.StatusNotImplemented) {
		// A server that does not answer HEAD: ask with GET.
		a = c.request(ctx, http.MethodGet, p.URL, readHTML)
	}
	if ctx.Err() != nil {
		return
	}
	if a.err != nil {
		msg := "no answer" + tries(a.tries) + ": " + a.err.Error()
		if errors.Is(a.err, fetch.ErrAddressRefused) {
			msg = "not checked: " + a.err.Error()
		}
		report(Finding{Page: p, Rule: RuleStatus, Uncertain: true, Message: p.URL + ": " + msg, Err: a.err})
		return
	}
	if a.final != nil && normalize.Key(a.final.String()) != normalize.Key(p.URL) {
		find(RuleRedirect, false, "redirects to %s; list that URL instead", a.final)
	}
	switch {
	case a.status == http.StatusTooManyRequests || a.status >= 500:
		find(RuleStatus, true, "answered %s%s", statusText(a.status), tries(a.tries))
		return
	case a.status >= 300 && a.status <= 399:
		find(RuleStatus, false, "answered %s without a Location to follow", statusText(a.status))
		return
	case a.status >= 400:
		find(RuleStatus, false, "answered %s", statusText(a.status))
		return
	case a.status < 200:
		find(RuleStatus, true, "answered %s", statusText(a.status))
		return
	}
	if a.head == nil && isHTML(a.header) {
		// The HEAD said HTML: its head holds the robots meta elements
		// and the canonical link. The redirects were followed already.
		g := c.request(ctx, http.MethodGet, a.final.String(), readHTML)
		if ctx.Err() != nil {
			return
		}
		if g.err == nil && g.status >= 200 && g.status <= 299 {
			a = g
		}
	}
	if why := noindexHeader(a.header); why != "" {
		find(RuleNoindex, false, "X-Robots-Tag: %s keeps it out of search results", why)
	}
	if a.head != nil && a.head.noindex != "" {
		find(RuleNoindex, false, "%s keeps it out of search results", a.head.noindex)
	}
	base := a.final
	canon, how := linkCanonical(a.header), "Link header"
	if canon == "" && a.head != nil {
		canon, how = a.head.canonical, "link element"
		if a.head.base != "" {
			if b, err := base.Parse(a.head.base); err == nil {
				base = b
			}
		}
	}
	if canon != "" {
		if cu, err := base.Parse(canon); err == nil && normalize.Key(cu.String()) != normalize.Key(a.final.String()) {
			find(RuleCanonical, false, "names %s as its canonical URL (%s); list that URL instead, or make the page canonical", cu, how)
		}
	}
}

// tries says, after a request tried more than once, how often.
func tries(n int) string {
	if n > 1 {
		return fmt.Sprintf(" (%d tries)", n)
	}
	return ""
}

// statusText is "404 Not Found".
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return fmt.Sprint(code)
}

// isEngine reports whether a user agent named by an X-Robots-Tag or a
// meta element is one whose rules are checked: a search engine's crawler,
// or every crawler ("robots" for meta elements).
func isEngine(agent string) bool {
	switch strings.ToLower(agent) {
	case "", "robots", "googlebot", "bingbot", "*":
		return true
	}
	return false
}

// noindexDirective reports whether a comma-separated list of robots
// directives holds noindex (or none, which means noindex, nofollow).
func noindexDirective(list string) bool {
	for d := range strings.SplitSeq(list, ",") {
		switch strings.ToLower(strings.TrimSpace(d)) {
		case "noindex", "none":
			return true
		}
	}
	return false
}

// robotsDirectives are the X-Robots-Tag directives that take a value after
// a colon, which a user agent's name before a colon is not.
var robotsDirectives = []string{"unavailable_after", "max-snippet", "max-image-preview", "max-video-preview"}

// noindexHeader returns the X-Robots-Tag value that says noindex for the
// search engines (unscoped, or scoped to one of them: "googlebot:
// noindex"), "" when none does.
func noindexHeader(h http.Header) string {
	for _, v := range h.Values("X-Robots-Tag") {
		agent, list := "", v
		if name, rest, ok := strings.Cut(v, ":"); ok {
			name = strings.TrimSpace(name)
			known := false
			for _, d := range robotsDirectives {
				known = known || strings.EqualFold(name, d)
			}
			if !known && !strings.ContainsAny(name, ", ") {
				agent, list = name, rest
			}
		}
		if isEngine(agent) && noindexDirective(list) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// linkCanonical returns the target of the first rel="canonical" link of
// the Link headers, "" when there is none.
func linkCanonical(h http.Header) string {
	for _, v := range h.Values("Link") {
		for v != "" {
			start := strings.IndexByte(v, '<')
			end := strings.IndexByte(v, '>')
			if start < 0 || end < start {
				break
			}
			target := v[start+1 : end]
			v = v[end+1:]
			// The parameters run to the next comma outside quotes.
			quoted, i := false, 0
			for ; i < len(v); i++ {
				if v[i] == '"' {
					quoted = !quoted
				} else if v[i] == ',' && !quoted {
					break
				}
			}
			params := v[:i]
			v = v[min(i+1, len(v)):]
			for p := range strings.SplitSeq(params, ";") {
				name, value, ok := strings.Cut(p, "=")
				if !ok || !strings.EqualFold(strings.TrimSpace(name), "rel") {
					continue
				}
				for rel := range strings.FieldsSeq(strings.Trim(strings.TrimSpace(value), `"`)) {
					if strings.EqualFold(rel, "canonical") {
						return strings.TrimSpace(target)
					}
				}
			}
		}
	}
	return ""
}
