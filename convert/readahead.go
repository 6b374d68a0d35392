package convert

import (
	"sync"
	"sync/atomic"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
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
// An input whose reading is observed (convert --strict's checks) is
// parsed ahead when its check can run behind the reader (see
// deferredCheck): the check then runs on a third goroutine, between the
// parsing one and the reading one, batch by batch, and what it reports is
// held as the warnings are, and made on the reading goroutine before the
// entry it came before. The normal forms the check computes (normalForms)
// travel with the entries. An observed input whose check cannot run so is
// read in step.
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
	// reads it: an observed input whose check cannot run behind it.
	mayRunAhead bool
	// check is the content of an observed input whose check runs behind
	// its reader when it is read ahead; nil otherwise.
	check deferredCheck
	// forms is the observer of the reading when it computes the normal
	// forms of the locs it reads (see normalForms); nil otherwise.
	forms normalForms
	// observed is set when the reading has an observer.
	observed bool
}

// warn is the reader's ReadOptions.Warn.
func (w *warnRoute) warn(pe *formats.ParseError) {
	if w.ahead != nil {
		w.ahead.hold(pe)
		return
	}
	w.deliver(pe)
}

// report is the function a deferred check makes its reports through
// (see deferredCheck): held in the batch being checked while the reader
// runs ahead, made at once otherwise.
func (w *warnRoute) report(fn func()) {
	if w.ahead != nil {
		w.ahead.holdReport(fn)
		return
	}
	fn()
}

// heldWarning is a warning the reader gave, or a report its check made
// (report set, pe nil), before the entry at of its batch (or before the
// batch's error, when at is the batch's length).
type heldWarning struct {
	at     int
	pe     *formats.ParseError
	report func()
}

// heldForm is the normal form of an entry's loc and the length of its
// scope, as the observer of the reading computed it (see normalForms); an
// empty key when it did not.
type heldForm struct {
	key   string
	scope int
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
	// warns are the reader's warnings; with a deferred check, those and
	// what the check reported, in the order the reading made them, put
	// there by the checking goroutine.
	warns  []heldWarning
	extras []heldExtra
	// With a deferred check: the points marked in the check's recording
	// (an entry's end, nil, or a warning of the reader's), the check of
	// what the reader gave for this batch (deferredCheck's Cut), and, once
	// it ran, the normal forms it computed, one for each entry.
	marks []*formats.ParseError
	check func(onMark func())
	forms []heldForm
	// scopes are, when the reader says which locs it found normal as it
	// read them (scoper), the scope of each entry's, -1 for one not.
	scopes []int32
	bytes  int
	err    error  // after the entries: what ended the reader; nil when more follow
	seq    uint64 // the batch's number, from 1: its entries' Item.batch
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

	// The goroutine's: the batch being filled, its number, and what the
	// reader told beside its entries when last asked.
	fill  parsedBatch
	seq   uint64
	extra heldExtra

	// strs is the recycler of the reader's strings, when it cuts them
	// from blocks it uses again (see stringsDone); nil otherwise.
	strs *strblock.Recycler
	// scoper is the reader, when it says which locs it found in normal
	// form as it read them, with their scope (text lists), and nothing
	// else computes normal forms (no check, no observer of them): the
	// scopes travel with the entries (parsedBatch.scopes).
	scoper normalScoper

	// With a deferred check (see readcheck.go): the check's recorder, the
	// batches parsed and not yet checked, whether the checking goroutine
	// runs (a report made then is the check's, made on it, and held), and
	// its batch being checked and the entry it is at.
	chk      checkRecorder
	parsed   chan parsedBatch
	running  atomic.Bool
	checking *parsedBatch
	at       int

	// The reading goroutine's: the batch being read, its next entry,
	// warning and extra, what the reader told beside the entries given,
	// and the error once met.
	cur                 parsedBatch
	next, warn, extraNo int
	scope               int32 // of the entry last given's loc, found normal by the reader; -1 if not (see scoper)
	told                heldExtra
	form                heldForm // the normal form of the entry last given
	formLoc             string   // and its loc
	err                 error
}

// readAhead starts reading r, whose warnings go through route, on a
// goroutine of its own, and returns the reader of what it reads. Close
// (stop) it when it is not read to its end.
func readAhead(r formats.Reader, route *warnRoute) *parsedAhead {
	p := &parsedAhead{r: r, route: route, full: make(chan parsedBatch, aheadDepth), free: make(chan parsedBatch, aheadDepth+3),
		stop: make(chan struct{}), done: make(chan struct{})}
	route.ahead = p
	if route.check == nil && route.forms == nil {
		if rs, ok := r.(stringRecycler); ok {
			p.strs = new(strblock.Recycler)
			rs.RecycleStrings(p.strs)
		}
		p.scoper, _ = r.(normalScoper)
	}
	out := p.full
	if route.check != nil {
		p.chk = route.check.DeferCheck(route.report)
		p.parsed = make(chan parsedBatch, 1)
		out = p.parsed
		p.running.Store(true)
		go p.checkBatches()
	}
	go p.run(out)
	return p
}

// run reads r to its end or error, a batch at a time, until stopped, and
// sends the batches to out.
func (p *parsedAhead) run(out chan<- parsedBatch) {
	if p.chk != nil {
		defer close(p.parsed) // the checking goroutine closes done
	} else {
		defer close(p.done)
	}
	xr, _ := p.r.(formats.ExtraReader)
	for {
		select {
		case p.fill = <-p.free:
			p.fill.entries, p.fill.warns, p.fill.extras, p.fill.bytes = p.fill.entries[:0], p.fill.warns[:0], p.fill.extras[:0], 0
			p.fill.marks, p.fill.forms, p.fill.scopes = p.fill.marks[:0], p.fill.forms[:0], p.fill.scopes[:0]
		default:
			p.fill = parsedBatch{entries: make([]formats.Entry, 0, aheadBatch)}
		}
		b := &p.fill
		p.seq++
		b.seq = p.seq
		if p.strs != nil {
			p.strs.Begin(p.seq)
		}
		for len(b.entries) < aheadBatch && b.bytes < aheadBatchBytes && (p.chk == nil || p.chk.Bytes() < aheadBatchBytes) {
			e, err := p.r.Next()
			if err != nil {
				b.err = err
				break
			}
			b.entries = append(b.entries, e)
			b.bytes += heldBytes(&e)
			if p.scoper != nil {
				scope, ok := p.scoper.NormalScope()
				if !ok {
					scope = -1
				}
				b.scopes = append(b.scopes, int32(scope))
			}
			if p.chk != nil {
				b.marks = append(b.marks, nil)
				p.chk.Mark()
			}
			if xr != nil {
				if h, n := xr.Head(), xr.LeftOut(); len(h) != len(p.extra.head) || n != p.extra.leftOut {
					p.extra = heldExtra{at: len(b.entries), head: h, leftOut: n}
					b.extras = append(b.extras, p.extra)
				}
			}
		}
		batch := p.fill
		p.fill = parsedBatch{}
		if p.chk != nil {
			batch.check = p.chk.Cut()
		}
		select {
		case out <- batch:
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
	if p.chk != nil {
		// In its place among what the check reports.
		p.fill.marks = append(p.fill.marks, pe)
		p.chk.Mark()
		return
	}
	p.fill.warns = append(p.fill.warns, heldWarning{at: len(p.fill.entries), pe: pe})
}

// NormalForm returns the normal form of loc and the length of its scope
// as the observer of the reading computed them, when loc is that of the
// entry last given (see normalForms).
func (p *parsedAhead) NormalForm(loc string) (key string, scope int, ok bool) {
	if loc != p.formLoc || p.form.key == "" {
		return "", 0, false
	}
	return p.form.key, p.form.scope, true
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
			if w := b.warns[p.warn]; w.report != nil {
				w.report()
			} else {
				p.route.deliver(w.pe)
			}
			p.warn++
		}
		if p.next < len(b.entries) {
			*e = b.entries[p.next]
			b.entries[p.next] = formats.Entry{}
			if p.next < len(b.forms) {
				p.form, p.formLoc = b.forms[p.next], e.Loc
			}
			p.scope = -1
			if p.next < len(b.scopes) {
				p.scope = b.scopes[p.next]
			}
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
	clear(p.cur.marks)
	clear(p.cur.forms)
	p.cur.check = nil
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

// normalScoper is a reader that says whether it found the loc it gave
// last in its normal form under the always-on rules as it read it, and
// then the length of its scope (formats/text's Reader).
type normalScoper interface {
	NormalScope() (scope int, ok bool)
}

// strings returns the recycler of the strings of the entry last given and
// the batch it came in (see stringsDone); nil when the reader's strings
// are not used again.
func (p *parsedAhead) strings() (*strblock.Recycler, uint64) { return p.strs, p.cur.seq }

// ended returns the reader, once Next returned the error that ended it:
// its goroutine no longer touches it.
func (p *parsedAhead) ended() formats.Reader { return p.r }

// close stops the goroutines and waits for them to end.
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
