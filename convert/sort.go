package convert

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// Order is the order of the output.
type Order int

// The orders of the output.
const (
	// SortNone keeps the order of the inputs: input after input, each
	// page where it first appeared.
	SortNone Order = iota
	// SortLoc orders by loc, byte by byte.
	SortLoc
	// SortLastMod puts the newest lastmod first and entries without one
	// last; equal lastmods are ordered by loc.
	SortLastMod
)

// ParseSort returns the Order a command-line value names: "none", "loc" or
// "lastmod".
func ParseSort(s string) (Order, error) {
	switch s {
	case "", "none":
		return SortNone, nil
	case "loc":
		return SortLoc, nil
	case "lastmod":
		return SortLastMod, nil
	}
	return 0, fmt.Errorf("unknown sort order %q (none, loc or lastmod)", s)
}

func (o Order) compare(a, b *formats.Entry) int {
	if o == SortLastMod {
		switch {
		case a.LastMod.Newer(b.LastMod):
			return -1
		case b.LastMod.Newer(a.LastMod):
			return 1
		}
	}
	return strings.Compare(a.Loc, b.Loc)
}

// compareRecords is compare on the entries of spool records.
func (o Order) compareRecords(a, b *spool.Record) int { return o.compare(&a.Entry, &b.Entry) }

// sortRunBytes is about how much memory a sorter holds by default.
const sortRunBytes = 32 << 20

// Sorter is the step that gives the entries of a reader in order. An
// input that fits in one run (half of MaxMemory; by loc, two fifths) is
// sorted in memory.
// Past that, the entries are read in runs, one filled while the other is
// handed to a goroutine of its own, which writes it to a spool file:
//
//   - by lastmod, an external merge sort: each run is sorted and written
//     whole (two runs of half of MaxMemory); they are then merged, with a
//     record and a read buffer per run (at most 128 runs at once: more are
//     merged in passes), on a goroutine of its own a few hundred entries
//     ahead.
//   - by loc, a distribution: the first run, sorted, splits the locs into
//     256 ranges, buckets, and each run goes to its buckets, which wait in
//     buffers of their own (two runs of two fifths of MaxMemory, and a
//     fifth for the buffers). Each bucket is then read back whole and
//     sorted in memory, on a goroutine of its own while the one before is
//     given (two runs of half of MaxMemory); one too large for a run is
//     sorted in runs of its own and merged. When a bucket grows past a
//     run while reading (the first run said little of what came after),
//     the runs from then on are sorted as by lastmod, and merged with the
//     buckets. See sortbuckets.go.
//
// The sort is stable. Close it to remove its spool files and give its
// memory back.
type Sorter struct {
	src     Stream
	order   Order
	opts    SortOptions
	mem     *memRun     // the only run, when everything fit in one
	runs    *sortedRuns // the runs, when there were more than one
	merged  sortedPipe  // their merge, or their buckets sorted, on a goroutine of its own
	uniq    *sortDedupe // when the sort also finds the duplicates (sortUnique)
	item    Item        // what merged gave last
	started bool
	err     error // what ended the sorting of the runs
}

// SortOptions configure SortWith.
type SortOptions struct {
	// TempDir is where the runs are kept; "" is the system's temporary
	// directory.
	TempDir string
	// MaxMemory bounds the bytes of the runs held in memory: the
	// entries, encoded as the spool keeps them, and 24 bytes an entry to
	// sort them by; and, sorting by loc, the buffers of its buckets. 0 is
	// 32 MiB.
	MaxMemory int64
}

// Sort returns the entries of r in the order o (SortNone keeps r's), each
// with its input. It reads all of r on the first call to Next, holding
// about 32 MiB of entries in memory at most; the rest wait in a spool
// file in tempDir ("" is the system's temporary directory).
func Sort(r formats.Reader, o Order, tempDir string) *Sorter {
	return SortWith(r, o, SortOptions{TempDir: tempDir})
}

// SortWith is Sort with the memory it may hold set by opts.
func SortWith(r formats.Reader, o Order, opts SortOptions) *Sorter {
	if opts.MaxMemory <= 0 {
		opts.MaxMemory = sortRunBytes
	}
	return &Sorter{src: stream(r), order: o, opts: opts}
}

// Close removes the spool and gives back the memory of the run.
func (s *Sorter) Close() error {
	if s.mem != nil {
		s.mem.run.close()
		s.mem = nil
	}
	if s.merged != nil {
		s.merged.Close()
		s.merged = nil
	}
	var err error
	if s.runs != nil {
		err = s.runs.Close()
		s.runs = nil
	}
	if s.uniq != nil {
		err = cmp.Or(err, s.uniq.close())
	}
	return err
}

// Next returns the next entry.
func (s *Sorter) Next() (formats.Entry, error) {
	if s.merged != nil && s.uniq == nil {
		return s.merged.next() // without the copies of the whole item
	}
	it, err := s.NextItem()
	return it.Entry, err
}

// NextItem returns the next entry in order with its input.
func (s *Sorter) NextItem() (Item, error) {
	if s.order == SortNone {
		return s.src.NextItem()
	}
	for {
		it, err := s.nextSorted()
		if err != nil || s.uniq == nil || !s.uniq.repeats(&it) {
			return it, err
		}
	}
}

// nextSorted returns the next entry in order, sorting first.
func (s *Sorter) nextSorted() (Item, error) {
	if !s.started {
		s.started = true
		s.err = s.sortRuns()
	}
	if s.err != nil {
		return Item{}, s.err
	}
	if s.mem != nil {
		var it Item
		err := s.mem.nextInto(&it)
		return it, err
	}
	if s.merged == nil {
		return Item{}, io.EOF // closed
	}
	// Into the Sorter's own Item: a local one, given to the pipe's
	// method through the interface, would be allocated, one an entry.
	err := s.merged.nextInto(&s.item)
	return s.item, err
}

// sortRuns reads the source in runs, which go to a spool unless there is
// only one: each sorted, or by loc into its buckets, on a goroutine of its
// own while the next is read (see Sorter).
func (s *Sorter) sortRuns() error {
	budget := s.runBudget(true)
	run := &runBuf{budget: budget}
	var w *runWriter
	err := func() error {
		for {
			it, err := s.src.NextItem()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if s.uniq != nil && !s.uniq.fell && !s.uniq.normal(&it) {
				if run, w, err = s.fallBack(run, w, it); err != nil {
					return err
				}
				continue
			}
			if !run.add(&it, s.order) {
				if w == nil {
					if w, err = newRunWriter(s.order, s.opts.TempDir, budget, s.runBudget(false)); err != nil {
						return err
					}
				}
				if run = w.swap(run); w.failed.Load() {
					return nil // finish says what failed
				}
				run.add(&it, s.order)
			}
		}
	}()
	if err == nil && w == nil {
		run.sort(s.order)
		s.mem = &memRun{run: run}
		return nil
	}
	if err == nil && len(run.items) > 0 {
		run = w.swap(run)
	}
	run.close()
	if w == nil {
		return err
	}
	sp, bounds, werr := w.finish()
	if err = cmp.Or(werr, err); err != nil {
		sp.Close()
		return err
	}
	s.merged, s.runs, err = s.sorted(w, sp, bounds)
	return err
}

// sorted returns the entries w wrote to sp in order: their buckets sorted
// one after another, or the merge of the runs between bounds. It closes
// sp when it fails.
func (s *Sorter) sorted(w *runWriter, sp *spool.File, bounds []int64) (sortedPipe, *sortedRuns, error) {
	if w.part == nil {
		return s.mergeRuns(sp, bounds)
	}
	parts := 0
	for _, p := range w.part.pieces {
		parts += min(len(p), 1)
	}
	if err := sp.Flush(); err != nil { // read by the buckets' goroutine and the merge's
		sp.Close()
		return nil, nil, err
	}
	bp := pipeBuckets(sp, w.part, s.runBudget(false), s.opts.TempDir)
	if !w.part.switched {
		return bp, &sortedRuns{sp: sp, parts: parts}, nil
	}
	// The runs read after the switch, sorted, merged with the buckets,
	// which hold what was read before them.
	runs, bounds, err := mergePassesKeeping(sp, sp, bounds, s.order.compareRecords, s.opts.TempDir, sortFanIn-1, sortRunBuffer)
	if err != nil {
		bp.Close()
		sp.Close()
		return nil, nil, err
	}
	sr := &sortedRuns{sp: sp, parts: parts + len(bounds) - 1, buckets: bp}
	if runs != sp {
		sr.merged = runs
	}
	m, err := openRawRuns(bp, runs, bounds, s.order, sortRunBuffer)
	if err != nil {
		sr.Close()
		return nil, nil, err
	}
	return pipeRuns(m), sr, nil
}

// runBudget returns the memory of a run: while reading (half of
// MaxMemory; by loc two fifths, a fifth going to the buffers of the
// buckets), or while sorting the buckets (half).
func (s *Sorter) runBudget(reading bool) int {
	if reading && s.order == SortLoc {
		return int(min(s.opts.MaxMemory/5*2, math.MaxInt))
	}
	return int(min(s.opts.MaxMemory/2, math.MaxInt))
}

// mergeRuns merges the sorted runs of sp between bounds, in passes when
// there are too many at once, then the last on a goroutine of its own:
// the merge on one core, what reads the entries on another. It closes sp
// when it fails.
func (s *Sorter) mergeRuns(sp *spool.File, bounds []int64) (sortedPipe, *sortedRuns, error) {
	sp, bounds, err := mergePasses(sp, bounds, s.order.compareRecords, s.opts.TempDir, sortFanIn, sortRunBuffer)
	if err != nil {
		return nil, nil, err
	}
	m, err := openRawRuns(nil, sp, bounds, s.order, sortRunBuffer)
	if err != nil {
		sp.Close()
		return nil, nil, err
	}
	return pipeRuns(m), &sortedRuns{sp: sp, parts: len(m.scanners)}, nil
}

// runWriter sorts runs and appends them to a spool, on a goroutine of its
// own, with two runs' memory: one it works on while the other is filled.
type runWriter struct {
	order  Order
	part   *bucketing // by loc: the buckets the runs are distributed into
	sp     *spool.File
	bounds []int64      // where each run starts in sp, then where the last ends
	todo   chan *runBuf // runs to sort and write; nil asks for synced
	free   chan *runBuf // runs written, to fill again
	synced chan error   // what failed, once the runs handed over are written
	done   chan struct{}
	failed atomic.Bool
	err    error // what ended the writing, read after done
}

// newRunWriter starts a runWriter spooling to a file in tempDir, whose
// runs hold budget bytes each; by loc, a bucket switches to sorted runs past
// what a run of sorting budget bytes holds.
func newRunWriter(o Order, tempDir string, budget, sorting int) (*runWriter, error) {
	sp, err := spool.New(tempDir)
	if err != nil {
		return nil, err
	}
	w := &runWriter{order: o, sp: sp, todo: make(chan *runBuf), free: make(chan *runBuf, 2), synced: make(chan error), done: make(chan struct{})}
	if o == SortLoc {
		w.part = &bucketing{hot: int64(sorting - sorting/arenaShare)}
	}
	w.free <- &runBuf{budget: budget}
	go w.run()
	return w, nil
}

func (w *runWriter) run() {
	defer close(w.done)
	for r := range w.todo {
		if r == nil {
			if w.err == nil && w.part != nil {
				w.err = w.part.flushAll(w.sp) // every record in the spool
			}
			w.synced <- w.err
			continue
		}
		if w.err == nil {
			if w.err = w.write(r); w.err != nil {
				w.failed.Store(true)
			}
		}
		r.reset()
		w.free <- r
	}
}

// write sorts the run r and appends it to the spool; by loc, until a
// bucket grew past what a run holds, adds its entries to their buckets,
// the first run sorted to split the buckets. bounds are where the sorted
// runs start.
func (w *runWriter) write(r *runBuf) error {
	if w.part == nil || w.part.switched {
		w.bounds = append(w.bounds, w.sp.Size())
		r.sort(w.order)
		return r.writeTo(w.sp)
	}
	if w.part.pieces == nil {
		r.sort(w.order)
		w.part.split(r)
	}
	return w.part.distribute(r, w.sp)
}

// sync waits until the runs handed over are written, and returns what
// failed.
func (w *runWriter) sync() error {
	w.todo <- nil
	return <-w.synced
}

// swap hands the full run r over to be sorted and written and returns an
// empty one, once there is one.
func (w *runWriter) swap(r *runBuf) *runBuf {
	w.todo <- r
	return <-w.free
}

// finish waits for the runs handed over to be written, gives back their
// memory, and returns the spool with where each run starts and where the
// last ends, or what failed.
func (w *runWriter) finish() (*spool.File, []int64, error) {
	close(w.todo)
	<-w.done
	if w.part != nil {
		if w.err == nil {
			w.err = w.part.flushAll(w.sp)
		}
		w.part.close()
	}
	close(w.free)
	for r := range w.free {
		r.close()
	}
	return w.sp, append(w.bounds, w.sp.Size()), w.err
}
