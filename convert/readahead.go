package convert

import (
	"sync"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Parsing ahead. The reader of each input (or child sitemap) being read
// runs on a goroutine of its own, a few batches of entries ahead of the
// goroutine that reads the input, so that parsing an input and what the
// reading does with its entries (following, accounting, rewriting,
// filtering) run on two cores. What reaches the reading goroutine is what
// the reader gives, in its order: each entry, each warning (held while the
// parsing goroutine gives it, and given on the reading one before the
// entry it came before, as the reader gave it), the document-level
// elements read before each entry, and the error that ended the reader.
//
// Strict reading, and an input whose reading is observed (convert
// --strict's checks), are not parsed ahead: a strict reading ends at its
// first problem, and an observer follows the reader's goroutine.
//
// Memory stays bounded: a batch holds at most aheadBatch entries and
// about aheadBatchBytes bytes of them, and at most aheadDepth batches are
// parsed ahead of the one being read, per input being read (the input on
// top of the stack of indexes being followed, and those below it, whose
// readers wait).
const (
	aheadBatch      = 256
	aheadBatchBytes = 256 << 10
	aheadDepth      = 3
)

// warnRoute carries the warnings of one reader: to deliver, on the
// goroutine that calls Next, or held in the batch being parsed while the
// reader runs ahead.
type warnRoute struct {
	deliver func(*formats.ParseError)
	ahead   *parsedAhead // set before its goroutine starts, never after
	// mayRunAhead is false when the reader must run on the goroutine that
	// reads it: strict reading, or an observed input.
	mayRunAhead bool
	// forms is the observer of the reading when it computes the normal
	// forms of the locs it reads (see normalForms); nil otherwise.
	forms normalForms
}

// warn is the reader's ReadOptions.Warn.
func (w *warnRoute) warn(pe *formats.ParseError) {
	if w.ahead != nil {
		w.ahead.hold(pe)
		return
	}
	w.deliver(pe)
}

// heldWarning is a warning the reader gave before the entry at of its
// batch (or before the batch's error, when at is the batch's length).
type heldWarning struct {
	at int
	pe *formats.ParseError
}

// heldExtra is what the reader told beside its entries (its
// document-level elements, the entries it left out) once the entry before
// at was read.
type heldExtra struct {
	at      int
	head    []string
	leftOut int
}

// aheadBatch is entries a reader gave, with what came with them.
type parsedBatch struct {
	entries []formats.Entry
	warns   []heldWarning
	extras  []heldExtra
	bytes   int
	err     error // after the entries: what ended the reader; nil when more follow
}

// parsedAhead is a reader run on a goroutine of its own, read in batches.
// It gives what the reader gives, in its order (see Next).
type parsedAhead struct {
	r     formats.Reader
	route *warnRoute
	full  chan parsedBatch
	free  chan parsedBatch
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once

	// The goroutine's: the batch being filled, and what the reader told
	// beside its entries when last asked.
	fill  parsedBatch
	extra heldExtra

	// The reading goroutine's: the batch being read, its next entry,
	// warning and extra, what the reader told beside the entries given,
	// and the error once met.
	cur                 parsedBatch
	next, warn, extraNo int
	told                heldExtra
	err                 error
}

// readAhead starts reading r, whose warnings go through route, on a
// goroutine of its own, and returns the reader of what it reads. Close
// (stop) it when it is not read to its end.
func readAhead(r formats.Reader, route *warnRoute) *parsedAhead {
	p := &parsedAhead{r: r, route: route, full: make(chan parsedBatch, aheadDepth), free: make(chan parsedBatch, aheadDepth+1),
		stop: make(chan struct{}), done: make(chan struct{})}
	route.ahead = p
	go p.run()
	return p
}

// run reads r to its end or error, a batch at a time, until stopped.
func (p *parsedAhead) run() {
	defer close(p.done)
	xr, _ := p.r.(formats.ExtraReader)
	for {
		select {
		case p.fill = <-p.free:
			p.fill.entries, p.fill.warns, p.fill.extras, p.fill.bytes = p.fill.entries[:0], p.fill.warns[:0], p.fill.extras[:0], 0
		default:
			p.fill = parsedBatch{entries: make([]formats.Entry, 0, aheadBatch)}
		}
		b := &p.fill
		for len(b.entries) < aheadBatch && b.bytes < aheadBatchBytes {
			e, err := p.r.Next()
			if err != nil {
				b.err = err
				break
			}
			b.entries = append(b.entries, e)
			b.bytes += heldBytes(&e)
			if xr != nil {
				if h, n := xr.Head(), xr.LeftOut(); len(h) != len(p.extra.head) || n != p.extra.leftOut {
					p.extra = heldExtra{at: len(b.entries), head: h, leftOut: n}
					b.extras = append(b.extras, p.extra)
				}
			}
		}
		batch := p.fill
		p.fill = parsedBatch{}
		select {
		case p.full <- batch:
		case <-p.stop:
			return
		}
		if batch.err != nil {
			return
		}
	}
}

// hold keeps a warning of the reader, on its goroutine, in the batch
// being filled.
func (p *parsedAhead) hold(pe *formats.ParseError) {
	p.fill.warns = append(p.fill.warns, heldWarning{at: len(p.fill.entries), pe: pe})
}

// Next returns the next entry of the reader, having given the warnings
// the reader gave before it, or the error that ended the reader.
func (p *parsedAhead) Next() (formats.Entry, error) {
	var e formats.Entry
	err := p.nextInto(&e)
	return e, err
}

// nextInto is Next filling *e in place: the entry is copied once, from
// its batch. What *e holds on an error is not to be used.
func (p *parsedAhead) nextInto(e *formats.Entry) error {
	for {
		if p.err != nil {
			return p.err
		}
		b := &p.cur
		for p.warn < len(b.warns) && b.warns[p.warn].at <= p.next {
			p.route.deliver(b.warns[p.warn].pe)
			p.warn++
		}
		if p.next < len(b.entries) {
			*e = b.entries[p.next]
			b.entries[p.next] = formats.Entry{}
			p.next++
			for p.extraNo < len(b.extras) && b.extras[p.extraNo].at <= p.next {
				p.told = b.extras[p.extraNo]
				p.extraNo++
			}
			return nil
		}
		if b.err != nil {
			p.err = b.err
			continue
		}
		p.recycle()
		p.cur = <-p.full
	}
}

// recycle hands the batch read back to be filled again.
func (p *parsedAhead) recycle() {
	if cap(p.cur.entries) == 0 {
		return
	}
	clear(p.cur.warns)
	clear(p.cur.extras)
	select {
	case p.free <- p.cur:
	default:
	}
	p.cur, p.next, p.warn, p.extraNo = parsedBatch{}, 0, 0, 0
}

// Head returns the document-level elements the reader had read when it
// gave the entry last returned; once it ended, all it read (see
// formats.ExtraReader).
func (p *parsedAhead) Head() []string {
	if p.err != nil {
		return headOf(p.r)
	}
	return p.told.head
}

// LeftOut returns how many entries the reader had left out when it gave
// the entry last returned; once it ended, all it left out.
func (p *parsedAhead) LeftOut() int {
	if xr, ok := p.r.(formats.ExtraReader); ok && p.err != nil {
		return xr.LeftOut()
	}
	return p.told.leftOut
}

// ended returns the reader, once Next returned the error that ended it:
// its goroutine no longer touches it.
func (p *parsedAhead) ended() formats.Reader { return p.r }

// close stops the goroutine and waits for it to end.
func (p *parsedAhead) close() {
	p.once.Do(func() { close(p.stop) })
	<-p.done
}

// heldBytes estimates the memory an entry read ahead takes: its strings,
// and for its extension data a share by item, beside a fixed part.
func heldBytes(e *formats.Entry) int {
	n := 160 + len(e.Loc) + len(e.Title) + len(e.Summary)
	if x := e.Ext; x != nil {
		n += 1024 + 512*len(x.Images) + 4096*len(x.Videos) + 256*len(x.Alternates)
		if x.News != nil {
			n += 512
		}
		for _, f := range x.Foreign {
			n += 16 + len(f)
		}
	}
	return n
}
