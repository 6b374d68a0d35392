package convert

import (
	"cmp"
	"io"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// A sort by loc of entries that carry nothing but their locs (text lists)
// also finds their duplicates, when every loc is its own normal form: two
// entries are then the same page exactly when their locs are equal, and
// the sort, which is stable, gives them one after the other, the first
// read first. Such a sort keeps no table of pages and no keys: memory holds
// its runs only. It gives what Dedupe (Plain) then Sort by loc give, the
// same entries with the same inputs, and tells the observer of the same
// duplicates, in the order of the output rather than of the inputs.
//
// From the first entry whose loc is not its normal form on, the entries go
// through a plain Dedupe before the sort, which first takes in the pages
// read before (see Sorter.fallBack). The first entry of each page is the
// same as a Dedupe of every entry finds, as the entries of each page are
// taken in in the order they came.

// sortDedupe is what a Sorter that also deduplicates keeps (sortUnique).
type sortDedupe struct {
	opts DedupeOptions
	obs  Observer
	// The entry given last, to which an entry with the same loc is a
	// duplicate.
	last      string
	lastInput int
	given     bool
	// Once an entry's loc was not its normal form (fell): the Dedupe the
	// entries go through from then on, on a goroutine of its own (ahead);
	// and when the pages read before did not fit in it, what was read
	// before, sorted, which it reads first, and what closes that.
	fell   bool
	hash   func(string) uint64 // the Dedupe's hash, when not nil (tests)
	dedupe *Deduper
	ahead  *Prefetcher
	before Stream
	closeB func() error
}

// sortUnique returns the entries of r ordered by loc, each page once, as
// SortWith(Dedupe(r, do, obs), SortLoc, o) gives them; do.Plain must be
// set. Close it to remove its spool files.
func sortUnique(r formats.Reader, o SortOptions, do DedupeOptions, obs Observer) *Sorter {
	s := SortWith(r, SortLoc, o)
	s.uniq = &sortDedupe{opts: do, obs: observer(obs)}
	return s
}

// normal reports whether the loc of it is its own normal form, under the
// rules of the dedupe.
func (u *sortDedupe) normal(it *Item) bool {
	return it.keyUnder(u.opts.Normalize) == it.Entry.Loc
}

// repeats reports whether it is a duplicate of the entry given before it,
// telling the observer; when not, it is the entry given last.
func (u *sortDedupe) repeats(it *Item) bool {
	if u.given && it.Entry.Loc == u.last {
		u.obs.Dropped(Drop{From: it.Input, Into: u.lastInput, Loc: it.Entry.Loc, Rule: RuleDuplicate})
		return true
	}
	u.last, u.lastInput, u.given = it.Entry.Loc, it.Input, true
	return false
}

// close stops what reads back and removes its files.
func (u *sortDedupe) close() error {
	var err error
	if u.ahead != nil {
		err = u.ahead.Close()
	}
	if u.dedupe != nil {
		err = cmp.Or(err, u.dedupe.Close())
	}
	if u.closeB != nil {
		err = cmp.Or(err, u.closeB())
	}
	u.ahead, u.dedupe, u.closeB = nil, nil, nil
	return err
}

// fallBack has the Sorter read the rest of its source, from it on,
// through a plain Dedupe, once it, an entry whose loc is not its normal
// form, was read. run is the run being filled and w the writer of the runs
// before, nil when there was none; it returns those to go on with.
//
// The pages read so far, in the runs written and in run, are first taken
// into the Dedupe (seed), in the order they were read, and stay where they
// are: the duplicates among them are still found by the sort. When they do
// not fit in the Dedupe's memory, the runs are merged and read back
// through a Dedupe, before the rest, and the sort starts again (refeed).
func (s *Sorter) fallBack(run *runBuf, w *runWriter, it Item) (*runBuf, *runWriter, error) {
	u := s.uniq
	u.fell = true
	d := u.newDedupe(nil, it, s.src)
	ok, err := s.seed(d.merger, run, w)
	if err == nil && ok {
		s.readThrough(d)
		return run, w, nil
	}
	d.Close()
	if err != nil {
		return run, w, err
	}
	run, err = s.refeed(run, w, it)
	return run, nil, err
}

// seed takes the pages read so far, in the runs written to w's spool, then
// in run, into the plain merger m, in the order they were read: the runs
// hold what was read one after another, and each keeps the entries of a
// loc in the order they came. False when they do not fit in its memory.
func (s *Sorter) seed(m *merger, run *runBuf, w *runWriter) (bool, error) {
	var b seedBatch
	if w != nil {
		if err := w.sync(); err != nil {
			return false, err
		}
		sc, err := w.sp.Scan()
		if err != nil {
			return false, err
		}
		for {
			rec, err := sc.NextRaw()
			if err == io.EOF {
				break
			}
			if err != nil {
				return false, err
			}
			if ok, err := b.add(m, rec); !ok || err != nil {
				return false, err
			}
		}
	}
	for i := range run.items {
		if ok, err := b.add(m, run.record(i)); !ok || err != nil {
			return false, err
		}
	}
	return b.flush(m)
}

// seedBatch is a batch of pages for merger.seed: their locs, one after
// another, and their inputs.
type seedBatch struct {
	bytes  []byte
	ends   []int
	inputs []int
	locs   []string
}

// seedBatchLen is how many pages a seedBatch holds.
const seedBatchLen = 512

// add adds the page of the record rec to b, seeding m with b when full.
func (b *seedBatch) add(m *merger, rec []byte) (bool, error) {
	at, n, input := spool.EncodedInputLoc(rec)
	if at == 0 {
		return false, errRawRecord
	}
	b.bytes = append(b.bytes, rec[at:at+n]...)
	b.ends = append(b.ends, len(b.bytes))
	b.inputs = append(b.inputs, input)
	if len(b.ends) < seedBatchLen {
		return true, nil
	}
	return b.flush(m)
}

// flush seeds m with the pages of b and empties it.
func (b *seedBatch) flush(m *merger) (bool, error) {
	b.locs = b.locs[:0]
	start := 0
	for _, end := range b.ends {
		// Views of bytes, which merger.seed copies what it keeps of.
		b.locs = append(b.locs, unsafe.String(unsafe.SliceData(b.bytes[start:end]), end-start))
		start = end
	}
	ok, err := m.seed(b.locs, b.inputs)
	clear(b.locs)
	b.bytes, b.ends, b.inputs = b.bytes[:0], b.ends[:0], b.inputs[:0]
	return ok, err
}

// refeed ends the sort of what was read before it, and has the Sorter
// read, through a Dedupe, those entries in order, then it, then the rest
// of its source. It returns the run to fill next.
func (s *Sorter) refeed(run *runBuf, w *runWriter, it Item) (*runBuf, error) {
	u := s.uniq
	if w == nil {
		run.sort(s.order)
		old := run
		u.before, u.closeB = intoStream{&memRun{run: old}}, func() error { old.close(); return nil }
		run = &runBuf{budget: old.budget}
	} else {
		if len(run.items) > 0 {
			run = w.swap(run)
		}
		sp, bounds, werr := w.finish()
		if werr != nil {
			sp.Close()
			return run, werr
		}
		p, runs, err := s.sorted(w, sp, bounds)
		if err != nil {
			return run, err
		}
		u.before, u.closeB = intoStream{p}, func() error { p.Close(); return runs.Close() }
	}
	s.readThrough(u.newDedupe(u.before, it, s.src))
	return run, nil
}

// newDedupe returns the plain Dedupe of first (when not nil), then it,
// then rest.
func (u *sortDedupe) newDedupe(first Stream, it Item, rest Stream) *Deduper {
	t := &thenStream{item: &it, rest: intoOf(rest)}
	if first != nil {
		t.first = intoOf(first)
	}
	d := Dedupe(intoStream{t}, u.opts, u.obs)
	if u.hash != nil {
		d.hash = u.hash
	}
	return d
}

// readThrough has the Sorter read what d gives from now on, on a goroutine
// of d's own.
func (s *Sorter) readThrough(d *Deduper) {
	s.uniq.dedupe, s.uniq.ahead = d, Prefetch(d)
	s.src = s.uniq.ahead
}

// memRun reads the entries of a sorted run in memory, in order.
type memRun struct {
	run  *runBuf
	next int
	dec  spool.Decoder
}

func (m *memRun) nextInto(it *Item) error {
	if m.next == len(m.run.items) {
		return io.EOF
	}
	var r spool.Record
	_, err := m.dec.Decode(m.run.record(m.next), &r)
	m.next++
	*it = Item{Entry: r.Entry, Input: r.Input}
	return err
}

// thenStream reads first (when not nil), then gives item, then reads
// rest.
type thenStream struct {
	first into
	item  *Item // nil once given
	rest  into
}

func (t *thenStream) nextInto(it *Item) error {
	if t.first != nil {
		err := t.first.nextInto(it)
		if err != io.EOF {
			return err
		}
		t.first = nil
	}
	if t.item != nil {
		*it, t.item = *t.item, nil
		return nil
	}
	return t.rest.nextInto(it)
}
