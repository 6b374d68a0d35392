package live

import (
	"context"
	"net/url"
	"sync"
	"time"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

// hostLimits keeps each host's requests within PerHost at once and Rate a
// second.
type hostLimits struct {
	perHost  int
	interval time.Duration // between two requests to a host
	sleep    func(ctx context.Context, d time.Duration) error

	mu    sync.Mutex
	hosts map[string]*hostLimit
}

// hostLimit is the state of one host (an origin).
type hostLimit struct {
	slots chan struct{}
	next  time.Time // when its next request may start
}

func (l *hostLimits) host(u *url.URL) *hostLimit {
	o := fetch.Origin(u)
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.hosts[o]
	if h == nil {
		h = &hostLimit{slots: make(chan struct{}, l.perHost)}
		l.hosts[o] = h
	}
	return h
}

// acquire waits for a free slot of u's host and for its turn at the host's
// rate; release must be called once the request is done (its body read
// and closed). It fails only when ctx ends.
func (l *hostLimits) acquire(ctx context.Context, u *url.URL) (release func(), err error) {
	h := l.host(u)
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	release = func() { <-h.slots }
	l.mu.Lock()
	now := time.Now()
	start := now
	if h.next.After(now) {
		start = h.next
	}
	h.next = start.Add(l.interval)
	l.mu.Unlock()
	if wait := start.Sub(now); wait > 0 {
		if err := l.sleep(ctx, wait); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}
