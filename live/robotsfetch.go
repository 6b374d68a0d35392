package live

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

// robotsEntry is the robots.txt of one origin, fetched once.
type robotsEntry struct {
	done   chan struct{}
	robots *Robots
}

// hostRobots returns the robots.txt of u's origin, fetching it the first
// time: a 2xx answer is parsed (its first RobotsMaxBytes); a 4xx one
// allows everything; a 5xx one (after the retries), no answer, or a
// refused address disallow everything (RFC 9309, 2.3.1). nil when ctx
// ended first.
func (c *Checker) hostRobots(ctx context.Context, u *url.URL) *Robots {
	origin := fetch.Origin(&url.URL{Scheme: u.Scheme, Host: u.Host})
	v, loaded := c.robots.LoadOrStore(origin, &robotsEntry{done: make(chan struct{})})
	e := v.(*robotsEntry)
	if loaded {
		select {
		case <-e.done:
			return e.robots
		case <-ctx.Done():
			return nil
		}
	}
	e.robots = c.fetchRobots(ctx, (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/robots.txt"}).String())
	close(e.done)
	return e.robots
}

func (c *Checker) fetchRobots(ctx context.Context, loc string) *Robots {
	a := c.request(ctx, http.MethodGet, loc, readRobots)
	switch {
	case ctx.Err() != nil:
		return nil
	case a.err != nil:
		return disallowAll(loc + " could not be read (" + a.err.Error() + ")")
	case a.status >= 500 || a.status == http.StatusTooManyRequests:
		return disallowAll(loc + " answered " + statusText(a.status) + tries(a.tries))
	case a.status >= 400:
		return &Robots{}
	case a.status < 200 || a.status > 299:
		return disallowAll(loc + " answered " + statusText(a.status))
	}
	return ParseRobots(a.body)
}

// checkRobots reports u when its host's robots.txt disallows it to one of
// Agents.
func (c *Checker) checkRobots(ctx context.Context, u *url.URL, find func(rule string, uncertain bool, format string, args ...any)) {
	r := c.hostRobots(ctx, u)
	if r == nil {
		return
	}
	if r.all != "" {
		find(RuleRobots, true, "%s: search engines take that as disallowing the whole site", r.all)
		return
	}
	pq := u.EscapedPath()
	if u.RawQuery != "" {
		pq += "?" + u.RawQuery
	}
	var agents []string
	var rule Verdict
	for _, agent := range Agents {
		if v := r.Allowed(agent, pq); !v.Allowed {
			agents = append(agents, agent)
			if rule.Rule == "" {
				rule = v
			}
		}
	}
	if len(agents) == 0 {
		return
	}
	find(RuleRobots, false, "robots.txt disallows it to %s (line %d: %s)", strings.Join(agents, ", "), rule.Line, rule.Rule)
}

// readRobots reads a robots.txt body, at most RobotsMaxBytes of it.
func readRobotsBody(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, RobotsMaxBytes))
	if err != nil && !errors.Is(err, io.EOF) {
		return b, err
	}
	return b, nil
}
