package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
)

// progress shows a progress line on standard error during long runs, when
// standard error is a terminal and -q was not given: entries read, the
// rate, and files written.
type progress struct {
	mu    *sync.Mutex // shared with the reporter, which writes to w too
	w     io.Writer
	on    bool
	dest  *destination
	start time.Time
	last  time.Time
	shown bool
}

// progressDelay is how long a run goes before the progress line appears,
// and how often it changes.
const progressDelay = 500 * time.Millisecond

func newProgress(w io.Writer, quiet bool, dest *destination, mu *sync.Mutex) *progress {
	now := time.Now()
	w = termsafe.Unwrap(w) // the line is redrawn with CR and ESC [K
	return &progress{mu: mu, w: w, on: !quiet && isTerminal(w), dest: dest, start: now, last: now}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// update is called with the number of entries read so far.
func (p *progress) update(read int) {
	if !p.on {
		return
	}
	now := time.Now()
	if now.Sub(p.last) < progressDelay {
		return
	}
	p.last = now
	p.mu.Lock()
	defer p.mu.Unlock()
	rate := float64(read) / now.Sub(p.start).Seconds()
	parts := 0
	if p.dest.set != nil {
		parts = p.dest.set.PartsWritten()
	}
	fmt.Fprintf(p.w, "\r\033[Kfeed2sitemap: read %d entries (%.0f/s), %d files written", read, rate, parts)
	p.shown = true
}

// clear removes the progress line, so that other messages start on a
// clean line.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// clearing returns warn, clearing the progress line before each warning.
func (p *progress) clearing(warn func(*formats.ParseError)) func(*formats.ParseError) {
	return func(pe *formats.ParseError) {
		p.clear()
		warn(pe)
	}
}
