package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
	"github.com/feed2sitemap/feed2sitemap/live"
	"github.com/feed2sitemap/feed2sitemap/validate"
)

// liveFlags are the flags of validate --live.
type liveFlags struct {
	Live            bool    `help:"Check every page the inputs list (after following indexes) on the web too: rules live-status, live-redirect, live-noindex, live-canonical and live-robots (see docs/validation-rules.md). A HEAD request per page, a GET only for HTML pages, of which the head alone is read; robots.txt once per host. The pages are not inputs named on the command line: those on loopback or private addresses are refused unless --allow-private-hosts."`
	LiveConcurrency int     `name:"live-concurrency" placeholder:"N" default:"8" help:"With --live, check at most N pages at once (at most 2 requests at once on one host; default: ${default})."`
	LiveRate        float64 `name:"live-rate" placeholder:"N" default:"4" help:"With --live, send at most N requests a second to one host (default: ${default})."`
}

// check validates the flags.
func (f *liveFlags) check() error {
	switch {
	case f.LiveConcurrency < 1:
		return usageError{errors.New("--live-concurrency must be at least 1")}
	case f.LiveRate <= 0:
		return usageError{errors.New("--live-rate must be more than 0")}
	}
	return nil
}

// spoolStdin makes standard input, among the inputs, readable twice (by
// the validator, then for the live checks) by copying it to a temporary
// file. The returned function removes the file.
func spoolStdin(inputs []convert.Input) (func(), error) {
	done := func() {}
	for i, in := range inputs {
		if in.Name != "<stdin>" || in.Path != "" {
			continue
		}
		rc, err := in.Open()
		if err != nil {
			return done, err
		}
		f, err := os.CreateTemp("", "feed2sitemap-stdin-*")
		if err == nil {
			_, err = io.Copy(f, rc)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		rc.Close()
		if f != nil {
			name := f.Name()
			done = func() { os.Remove(name) }
		}
		if err != nil {
			return done, fmt.Errorf("<stdin>: %w", err)
		}
		name := f.Name()
		inputs[i].Open = func() (io.ReadCloser, error) { return os.Open(name) }
	}
	return done, nil
}

// checkLive checks on the web the pages the inputs list, reading them
// again (following indexes as the validator did), and records the
// findings in rep under the document that listed each page. The inputs
// named in skip could not be read and are left out.
func (c *validateCmd) checkLive(e *env, src *sourceFlags, inputs []convert.Input, skip []string, rep *validate.Report) error {
	ua := src.UserAgent
	if ua == "" {
		ua = fetch.UserAgent(buildVersion())
	}
	prog := &liveProgress{w: termsafe.Unwrap(e.Stderr), on: e.isTerminal(e.Stderr), start: time.Now()}
	checker := live.New(live.Options{
		// The pages are no input the user named: like the key files of
		// submit, they are fetched under a scope of no top-level host.
		Client:      src.client().NewScope("").HTTPClient(),
		UserAgent:   ua,
		Timeout:     src.Timeout,
		Retry:       fetch.RetryPolicy{Retries: src.Retries, Base: fetch.DefaultBackoff, MaxWait: fetch.DefaultMaxWait},
		Concurrency: c.LiveConcurrency,
		PerHost:     min(live.MaxPerHost, c.LiveConcurrency),
		Rate:        c.LiveRate,
		Checked:     func(string) { prog.checked() },
	})
	warnings := map[string]*validate.Rule{}
	ruleOf := func(f live.Finding) *validate.Rule {
		r := validate.LookupRule(f.Rule)
		if !f.Uncertain || r.Severity == validate.Warning {
			return r
		}
		if warnings[r.ID] == nil {
			w := *r
			w.Severity = validate.Warning
			warnings[r.ID] = &w
		}
		return warnings[r.ID]
	}
	ctx, cancel := src.runCtx(context.Background())
	defer cancel()
	err := checker.Check(ctx, c.pages(src, inputs, skip), func(f live.Finding) {
		prog.found++
		if errors.Is(f.Err, fetch.ErrAddressRefused) {
			f.Message += " (--allow-private-hosts allows it)"
		}
		rep.Finding(validate.Finding{Rule: ruleOf(f), Source: f.Page.From, Message: f.Message})
	})
	prog.clear()
	if err != nil {
		return fmt.Errorf("--live: %w (after checking %d pages)", err, prog.n)
	}
	return nil
}

// pages returns the pages the inputs list, read with convert's readers
// and following indexes as the validator does, each with the name of the
// document that listed it. What cannot be read was reported by the
// validator already and is passed over here.
func (c *validateCmd) pages(src *sourceFlags, inputs []convert.Input, skip []string) func(func(live.Page) bool) {
	return func(yield func(live.Page) bool) {
		src.NoFollow, src.KeepGoing = c.NoFollow, true
		var opts convert.Options
		src.apply(&opts)
		for _, in := range inputs {
			if slices.Contains(skip, in.Name) {
				continue
			}
			if !c.inputPages(in, opts, yield) {
				return
			}
		}
	}
}

// inputPages yields the pages of one input; false when yield asked to
// stop.
func (c *validateCmd) inputPages(in convert.Input, opts convert.Options, yield func(live.Page) bool) bool {
	// What reading the inputs again tells, the validator reported.
	r, err := openFollowed([]convert.Input{in}, opts, convert.Observe{})
	if err != nil {
		return true
	}
	defer r.Close()
	var names []string
	for {
		it, err := r.NextItem()
		if err != nil {
			return true
		}
		if it.Entry.Kind == formats.KindSitemap {
			continue
		}
		if it.Input >= len(names) {
			names = names[:0]
			for _, st := range r.src.Inputs() {
				names = append(names, st.Name)
			}
		}
		from := in.Name
		if it.Input < len(names) {
			from = names[it.Input]
		}
		if !yield(live.Page{URL: it.Entry.Loc, From: from}) {
			return false
		}
	}
}

// liveProgress is the progress line of the live checks on a terminal:
// the pages checked, the rate, and the findings so far. Its methods are
// called one at a time (under the checker's lock).
type liveProgress struct {
	w     io.Writer
	on    bool
	start time.Time
	last  time.Time
	shown bool
	n     int // pages checked
	found int // findings
}

func (p *liveProgress) checked() {
	p.n++
	now := time.Now()
	if !p.on || now.Sub(p.last) < progressDelay || now.Sub(p.start) < progressDelay {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "\r\033[Kfeed2sitemap: live checks: %d %s checked (%.1f/s), %d %s", p.n, plural(p.n, "page", "pages"),
		float64(p.n)/now.Sub(p.start).Seconds(), p.found, plural(p.found, "finding", "findings"))
	p.shown = true
}

// clear removes the line.
func (p *liveProgress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
