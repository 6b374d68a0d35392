package convert

import (
	"container/heap"
	"io"

	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// maxFanIn is how many runs are merged at once: each holds a read buffer
// of runBuffer bytes while it is merged, so merging takes at most 4 MiB
// whatever the number of runs. More runs are merged in passes.
const (
	maxFanIn  = 64
	runBuffer = 64 << 10
)

// A sort merges twice as many runs at once, with half the buffer each (the
// same 4 MiB): 128 runs of 32 MiB are about 18 million URLs merged in one
// pass, where a second pass writes and reads every entry once more.
const (
	sortFanIn     = 128
	sortRunBuffer = 32 << 10
)

// runs merges sorted runs of records, one after another in a spool file,
// into one sorted stream: the least record first by cmp, and of equal
// records the one of the earlier run first, so that a stable sort of each
// run gives a stable sort of the whole. It owns the spool and removes it
// when closed.
type runs struct {
	sp   *spool.File
	heap runHeap
}

// mergeRuns returns the merge of the runs of sp, run i being the records
// from bounds[i] to bounds[i+1]. Past maxFanIn runs, consecutive groups of
// maxFanIn are first merged into longer runs, in a new spool in tempDir,
// until maxFanIn are left. It takes sp over, closing it on failure.
func mergeRuns(sp *spool.File, bounds []int64, cmp func(a, b *spool.Record) int, tempDir string) (*runs, error) {
	return mergeRunsBy(sp, bounds, cmp, tempDir, maxFanIn, runBuffer)
}

// mergeRunsBy is mergeRuns merging fanIn runs at once, each read through
// a buffer of buf bytes.
func mergeRunsBy(sp *spool.File, bounds []int64, cmp func(a, b *spool.Record) int, tempDir string, fanIn, buf int) (*runs, error) {
	for len(bounds)-1 > fanIn {
		next, err := spool.New(tempDir)
		if err != nil {
			sp.Close()
			return nil, err
		}
		merged := []int64{0}
		for i := 0; i+1 < len(bounds); i += fanIn {
			h, err := openRuns(sp, bounds[i:min(i+fanIn, len(bounds)-1)+1], cmp, buf)
			if err == nil {
				err = h.drain(func(r *spool.Record) error { _, err := next.Append(r); return err })
			}
			if err != nil {
				sp.Close()
				next.Close()
				return nil, err
			}
			merged = append(merged, next.Size())
		}
		sp.Close()
		sp, bounds = next, merged
	}
	h, err := openRuns(sp, bounds, cmp, buf)
	if err != nil {
		sp.Close()
		return nil, err
	}
	return &runs{sp: sp, heap: h}, nil
}

// openRuns returns a heap of the heads of the runs of sp between bounds,
// each read through a buffer of buf bytes.
func openRuns(sp *spool.File, bounds []int64, cmp func(a, b *spool.Record) int, buf int) (runHeap, error) {
	h := runHeap{cmp: cmp}
	for i := 0; i+1 < len(bounds); i++ {
		if bounds[i] == bounds[i+1] {
			continue
		}
		sc, err := sp.ScanRange(bounds[i], bounds[i+1], buf)
		if err != nil {
			return h, err
		}
		rec, err := sc.Next()
		if err != nil {
			return h, err
		}
		h.heads = append(h.heads, head{run: len(h.scanners), rec: rec})
		h.scanners = append(h.scanners, sc)
	}
	heap.Init(&h)
	return h, nil
}

// next returns the least record left, or io.EOF.
func (r *runs) next() (spool.Record, error) { return r.heap.next() }

// Close removes the spool.
func (r *runs) Close() error { return r.sp.Close() }

// next returns the least record left, or io.EOF.
func (h *runHeap) next() (spool.Record, error) {
	if h.Len() == 0 {
		return spool.Record{}, io.EOF
	}
	top := h.heads[0]
	next, err := h.scanners[top.run].Next()
	switch {
	case err == io.EOF:
		heap.Pop(h)
	case err != nil:
		return spool.Record{}, err
	default:
		h.heads[0].rec = next
		heap.Fix(h, 0)
	}
	return top.rec, nil
}

// drain calls fn with every record left, in order.
func (h *runHeap) drain(fn func(*spool.Record) error) error {
	for {
		r, err := h.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
}

// runHeap is the heads of the runs being merged, least first; equal
// records come from the earlier run first.
type runHeap struct {
	cmp      func(a, b *spool.Record) int
	scanners []*spool.Scanner
	heads    []head
}

type head struct {
	run int
	rec spool.Record
}

func (h *runHeap) Len() int { return len(h.heads) }
func (h *runHeap) Less(i, j int) bool {
	if c := h.cmp(&h.heads[i].rec, &h.heads[j].rec); c != 0 {
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
