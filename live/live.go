// Package live checks the pages a sitemap lists on the web: that each
// answers, without a redirect, lets search engines index it, names itself
// as its canonical URL, and is allowed by its host's robots.txt.
//
// A Checker makes a HEAD request for each page, and a GET only for HTML
// pages, of which it reads the head alone (at most MaxHeadBytes). Its
// requests go through the http.Client it is given (the remote-host policy
// of package fetch applies when that is a fetch.Scope's client), at most
// Concurrency at once, at most PerHost at once on one host, and at most
// Rate a second on one host.
package live

import (
	"context"
	"hash/maphash"
	"iter"
	"net/http"
	"sync"
	"time"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// The rules of the findings, as package validate names them.
const (
	// RuleStatus: the page answered 4xx or 5xx, or did not answer.
	RuleStatus = "live-status"
	// RuleRedirect: the page redirects elsewhere.
	RuleRedirect = "live-redirect"
	// RuleNoindex: the page asks search engines not to index it.
	RuleNoindex = "live-noindex"
	// RuleCanonical: the page names another URL as its canonical one.
	RuleCanonical = "live-canonical"
	// RuleRobots: the host's robots.txt disallows the page to search
	// engines.
	RuleRobots = "live-robots"
)

// Defaults of Options.
const (
	// DefaultConcurrency is how many pages are checked at once.
	DefaultConcurrency = 8
	// MaxPerHost is how many requests are made to one host at once, at
	// most.
	MaxPerHost = 2
	// DefaultRate is how many requests a second go to one host.
	DefaultRate = 4.0
	// DefaultMaxHeadBytes is how much of an HTML page is read, at most,
	// looking for the end of its head.
	DefaultMaxHeadBytes = 256 << 10
)

// Agents are the user agents whose robots.txt rules and robots meta
// elements are checked: the search engines' crawlers, and every crawler.
var Agents = []string{"Googlebot", "Bingbot", "*"}

// Options configure a Checker.
type Options struct {
	// Client makes the requests (a fetch.Scope's HTTPClient, so that the
	// remote-host policy applies); nil is fetch.NewClient(Timeout).
	Client *http.Client
	// UserAgent is sent with every request.
	UserAgent string
	// Timeout bounds each request, from connecting to the last byte
	// read; 0 is fetch.DefaultTimeout.
	Timeout time.Duration
	// Retry says when a request that failed on the network, timed out,
	// or was answered 429 or 5xx is tried again.
	Retry fetch.RetryPolicy
	// Concurrency is how many pages are checked at once; 0 is
	// DefaultConcurrency.
	Concurrency int
	// PerHost is how many requests go to one host (scheme, host and
	// port) at once: 1 or MaxPerHost; 0 is MaxPerHost.
	PerHost int
	// Rate is how many requests a second go to one host; 0 is
	// DefaultRate.
	Rate float64
	// MaxHeadBytes caps what is read of an HTML page; 0 is
	// DefaultMaxHeadBytes.
	MaxHeadBytes int64
	// Checked, when set, is told of each page once it was checked (from
	// the goroutines that check them, one at a time).
	Checked func(url string)
	// Sleep waits for d or until ctx ends; nil is fetch.Sleep. Tests
	// replace it.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Page is a URL to check and where it was listed.
type Page struct {
	// URL is the page's absolute http or https URL.
	URL string
	// From names the document that listed it; it is passed on to the
	// page's findings.
	From string
}

// Finding is one problem a live check found.
type Finding struct {
	// Page is the page checked.
	Page Page
	// Rule is the rule broken: RuleStatus, RuleRedirect, RuleNoindex,
	// RuleCanonical or RuleRobots.
	Rule string
	// Uncertain is true for a finding that may not hold on another try,
	// reported as a warning when its rule's findings are errors: a 429 or
	// 5xx answer, no answer, a request the remote-host policy refused,
	// and a robots.txt that could not be read.
	Uncertain bool
	// Message says what was found, naming the page.
	Message string
	// Err is, for a live-status finding of a page that did not answer,
	// why (a refused address wraps fetch.ErrAddressRefused); nil for the
	// others.
	Err error
}

// Checker checks pages. A Checker is safe for concurrent use; its robots.txt
// files are fetched once per origin and kept for its life.
type Checker struct {
	opts   Options
	client *http.Client
	hosts  hostLimits
	robots sync.Map // origin -> *robotsEntry
	seed   maphash.Seed
}

// New returns a Checker with the options, their zero values replaced by
// the defaults.
func New(opts Options) *Checker {
	if opts.Timeout <= 0 {
		opts.Timeout = fetch.DefaultTimeout
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = DefaultConcurrency
	}
	if opts.PerHost <= 0 || opts.PerHost > MaxPerHost {
		opts.PerHost = MaxPerHost
	}
	if opts.Rate <= 0 {
		opts.Rate = DefaultRate
	}
	if opts.MaxHeadBytes <= 0 {
		opts.MaxHeadBytes = DefaultMaxHeadBytes
	}
	if opts.Sleep == nil {
		opts.Sleep = fetch.Sleep
	}
	c := &Checker{opts: opts, client: opts.Client, seed: maphash.MakeSeed()}
	if c.client == nil {
		c.client = fetch.NewClient(opts.Timeout)
	}
	c.hosts = hostLimits{perHost: opts.PerHost, interval: time.Duration(float64(time.Second) / opts.Rate), sleep: opts.Sleep, hosts: map[string]*hostLimit{}}
	return c
}

// Check checks every page of pages, a page listed more than once (in the
// same normal form) once, and calls report with each finding, one call at
// a time. It returns when every page was checked, or when ctx ends, with
// ctx's cause; the findings of the pages whose check ctx cut short are
// not reported.
func (c *Checker) Check(ctx context.Context, pages iter.Seq[Page], report func(Finding)) error {
	var mu sync.Mutex
	emit := func(f Finding) {
		if ctx.Err() != nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		report(f)
	}
	var wg sync.WaitGroup
	slots := make(chan struct{}, c.opts.Concurrency)
	seen := map[uint64]bool{}
	for p := range pages {
		key := maphash.String(c.seed, normalize.Key(p.URL))
		if seen[key] {
			continue
		}
		seen[key] = true
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			c.checkPage(ctx, p, emit)
			if c.opts.Checked != nil && ctx.Err() == nil {
				mu.Lock()
				c.opts.Checked(p.URL)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}
