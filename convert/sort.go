package convert

import (
	"container/heap"
	"fmt"
	"io"
	"slices"
	"strings"

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

// sortRunBytes is about how much memory a sorter holds: entries are sorted
// in runs of this size, kept in a spool file and merged.
const sortRunBytes = 32 << 20

// Sorter is the step that gives the entries of a reader in order, by an
// external merge sort: memory holds one run at a time while sorting, and
// one record per run while merging. The sort is stable. Close it to
// remove its spool file.
type Sorter struct {
	src     Stream
	order   Order
	tempDir string
	sp      *spool.File
	mem     []sorted // the only run, when everything fit in one
	runs    runHeap
	started bool
}

// sorted is an entry being sorted, and its input.
type sorted struct {
	e     formats.Entry
	input int
}

// Sort returns the entries of r in the order o (SortNone keeps r's), each
// with its input. It reads all of r on the first call to Next, holding
// about 32 MiB of entries in memory at most; the rest wait in a spool
// file in tempDir ("" is the system's temporary directory).
func Sort(r formats.Reader, o Order, tempDir string) *Sorter {
	return &Sorter{src: stream(r), order: o, tempDir: tempDir}
}

// Close removes the spool.
func (s *Sorter) Close() error {
	if s.sp != nil {
		return s.sp.Close()
	}
	return nil
}

// Next returns the next entry.
func (s *Sorter) Next() (formats.Entry, error) {
	it, err := s.NextItem()
	return it.Entry, err
}

// NextItem returns the next entry in order with its input.
func (s *Sorter) NextItem() (Item, error) {
	if s.order == SortNone {
		return s.src.NextItem()
	}
	if !s.started {
		s.started = true
		if err := s.sortRuns(); err != nil {
			return Item{}, err
		}
	}
	if s.runs.scanners == nil {
		if len(s.mem) == 0 {
			return Item{}, io.EOF
		}
		e := s.mem[0]
		s.mem = s.mem[1:]
		return Item{Entry: e.e, Input: e.input}, nil
	}
	if s.runs.Len() == 0 {
		return Item{}, io.EOF
	}
	top := s.runs.heads[0]
	next, err := s.runs.scanners[top.run].Next()
	switch {
	case err == io.EOF:
		heap.Pop(&s.runs)
	case err != nil:
		return Item{}, err
	default:
		s.runs.heads[0].rec = next
		heap.Fix(&s.runs, 0)
	}
	return Item{Entry: top.rec.Entry, Input: top.rec.Input}, nil
}

// sortRuns reads the source in runs, sorting each; runs go to the spool
// unless there is only one.
func (s *Sorter) sortRuns() error {
	var run []sorted
	var bounds []int64
	size := 0
	flush := func() error {
		slices.SortStableFunc(run, func(a, b sorted) int { return s.order.compare(&a.e, &b.e) })
		if s.sp == nil {
			sp, err := spool.New(s.tempDir)
			if err != nil {
				return err
			}
			s.sp = sp
		}
		bounds = append(bounds, s.sp.Size())
		for i := range run {
			if _, err := s.sp.Append(&spool.Record{Input: run[i].input, Entry: run[i].e}); err != nil {
				return err
			}
		}
		run, size = run[:0], 0
		return nil
	}
	for {
		it, err := s.src.NextItem()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		run = append(run, sorted{it.Entry, it.Input})
		if size += len(it.Entry.Loc) + 160; size >= sortRunBytes {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if s.sp == nil {
		slices.SortStableFunc(run, func(a, b sorted) int { return s.order.compare(&a.e, &b.e) })
		s.mem = run
		return nil
	}
	if len(run) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	bounds = append(bounds, s.sp.Size())
	s.runs = runHeap{order: s.order}
	for i := 0; i+1 < len(bounds); i++ {
		sc, err := s.sp.ScanRange(bounds[i], bounds[i+1], 64<<10)
		if err != nil {
			return err
		}
		s.runs.scanners = append(s.runs.scanners, sc)
		rec, err := sc.Next()
		if err != nil {
			return err
		}
		s.runs.heads = append(s.runs.heads, head{run: i, rec: rec})
	}
	heap.Init(&s.runs)
	return nil
}

// runHeap is the heads of the runs being merged, least first; equal
// entries come from the earlier run first, which keeps the sort stable.
type runHeap struct {
	order    Order
	scanners []*spool.Scanner
	heads    []head
}

type head struct {
	run int
	rec spool.Record
}

func (h *runHeap) Len() int { return len(h.heads) }
func (h *runHeap) Less(i, j int) bool {
	if c := h.order.compare(&h.heads[i].rec.Entry, &h.heads[j].rec.Entry); c != 0 {
		return c < 0
	}
	return h.heads[i].run < h.heads[j].run
}
func (h *runHeap) Swap(i, j int) { h.heads[i], h.heads[j] = h.heads[j], h.heads[i] }
func (h *runHeap) Push(x any)    { h.heads = append(h.heads, x.(head)) }
func (h *runHeap) Pop() any {
	x := h.heads[len(h.heads)-1]
	h.heads = h.heads[:len(h.heads)-1]
	return x
}
