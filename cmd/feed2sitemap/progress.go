package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/feed2sitemap/feed2sitemap/convert"
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

	total int64        // the size of the local inputs, 0 when unknown
	done  atomic.Int64 // bytes of them read so far
}

// progressDelay is how long a run goes before the progress line appears,
// and how often it changes.
const progressDelay = 500 * time.Millisecond

// newProgress returns the progress line of a run writing to dest, shown
// on w when on.
func newProgress(w io.Writer, on bool, dest *destination, mu *sync.Mutex) *progress {
	now := time.Now()
	w = termsafe.Unwrap(w) // the line is redrawn with CR and ESC [K
	return &progress{mu: mu, w: w, on: on, dest: dest, start: now, last: now}
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
	fmt.Fprintf(p.w, "\r\033[Kfeed2sitemap: %s", p.line(read, now))
	p.shown = true
}

// line is the progress line after read entries, at now: the entries and
// the rate, the share of the input read and the time left when its size
// is known, and the files written once there are any.
func (p *progress) line(read int, now time.Time) string {
	elapsed := now.Sub(p.start).Seconds()
	s := fmt.Sprintf("read %d entries (%.0f/s)", read, float64(read)/elapsed)
	if done := p.done.Load(); p.total > 0 && done > 0 {
		frac := min(1, float64(done)/float64(p.total))
		s += fmt.Sprintf(", %.0f%% of the input", 100*frac)
		if left := time.Duration(elapsed * (1 - frac) / frac * float64(time.Second)); frac < 1 {
			s += fmt.Sprintf(", about %s left", left.Round(time.Second))
		}
	}
	if p.dest.set != nil {
		if n := p.dest.set.PartsWritten(); n > 0 {
			s += fmt.Sprintf(", %d %s written", n, plural(n, "file", "files"))
		}
	}
	return s
}

// track counts the bytes read of the local inputs, whose size is known,
// when the line is shown: the percentage and the time left come from it.
// Standard input and remote inputs have no size known in advance, so the
// line shows neither when there are any.
func (p *progress) track(inputs []convert.Input) {
	if !p.on {
		return
	}
	var total int64
	for _, in := range inputs {
		fi, err := os.Stat(in.Path)
		if in.Path == "" || err != nil || !fi.Mode().IsRegular() {
			return
		}
		total += fi.Size()
	}
	p.total = total
	for i := range inputs {
		open := inputs[i].Open
		var seen int64 // over its openings: a local input may be opened again
		inputs[i].Open = func() (io.ReadCloser, error) {
			r, err := open()
			if err != nil {
				return nil, err
			}
			return &countingReader{ReadCloser: r, n: &p.done, seen: &seen}, nil
		}
	}
}

// countingReader adds to n what it reads past what the earlier openings
// of its input read (seen), which it raises.
type countingReader struct {
	io.ReadCloser
	n    *atomic.Int64
	seen *int64
	at   int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	k, err := c.ReadCloser.Read(b)
	if c.at += int64(k); c.at > *c.seen {
		c.n.Add(c.at - *c.seen)
		*c.seen = c.at
	}
	return k, err
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
