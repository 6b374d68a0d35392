package convert

import (
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
// same 4 MiB): 128 runs of 16 MiB are about 20 million URLs merged in one
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

// openRuns returns the merge of the runs of sp between bounds, each read
// through a buffer of buf bytes.
func openRuns(sp *spool.File, bounds []int64, cmp func(a, b *spool.Record) int, buf int) (runHeap, error) {
	h := runHeap{cmp: cmp, last: -1}
	for i := 0; i+1 < len(bounds); i++ {
		if bounds[i] == bounds[i+1] {
			continue
		}
		sc, err := sp.ScanRange(bounds[i], bounds[i+1], buf)
		if err != nil {
			return h, err
		}
		h.scanners = append(h.scanners, sc)
	}
	h.heads = make([]spool.Record, len(h.scanners))
	h.done = make([]bool, len(h.scanners))
	for i, sc := range h.scanners {
		switch err := sc.NextInto(&h.heads[i]); {
		case err == io.EOF:
			h.done[i] = true
		case err != nil:
			return h, err
		}
	}
	if len(h.heads) > 0 {
		h.tree = make([]int, len(h.heads))
		h.tree[0] = h.play(1)
	}
	return h, nil
}

// next returns the least record left, or io.EOF.
func (r *runs) next() (spool.Record, error) {
	rec, err := r.heap.next()
	if err != nil {
		return spool.Record{}, err
	}
	return *rec, nil
}

// Close removes the spool.
func (r *runs) Close() error { return r.sp.Close() }

// runHeap merges runs by a tournament: a tree of matches between the heads
// of the runs, each node keeping the loser, so that the next record takes
// one match a level (log2 of the runs) where a heap takes two. Of equal
// records the one of the earlier run wins.
type runHeap struct {
	cmp      func(a, b *spool.Record) int
	scanners []*spool.Scanner
	heads    []spool.Record // the next record of each run
	done     []bool         // the runs read whole
	tree     []int          // tree[0] the run of the least head; tree[1:] the loser of each match, leaves below
	last     int            // the run of the record returned last, to read again; -1 when none
	err      error
}

// play plays the matches below node, the runs being the leaves from
// len(heads) on, and returns the winner.
func (h *runHeap) play(node int) int {
	k := len(h.heads)
	if node >= k {
		return node - k
	}
	a, b := h.play(2*node), h.play(2*node+1)
	if h.less(b, a) {
		a, b = b, a
	}
	h.tree[node] = b
	return a
}

// less reports whether the head of run a goes before that of run b.
func (h *runHeap) less(a, b int) bool {
	switch {
	case h.done[a]:
		return false
	case h.done[b]:
		return true
	}
	if c := h.cmp(&h.heads[a], &h.heads[b]); c != 0 {
		return c < 0
	}
	return a < b
}

// next returns the least record left, valid until the next call, or
// io.EOF.
func (h *runHeap) next() (*spool.Record, error) {
	if h.err != nil {
		return nil, h.err
	}
	if w := h.last; w >= 0 {
		h.last = -1
		switch err := h.scanners[w].NextInto(&h.heads[w]); {
		case err == io.EOF:
			h.done[w] = true
		case err != nil:
			h.err = err
			return nil, err
		}
		for node := (w + len(h.heads)) / 2; node > 0; node /= 2 {
			if h.less(h.tree[node], w) {
				h.tree[node], w = w, h.tree[node]
			}
		}
		h.tree[0] = w
	}
	if len(h.heads) == 0 || h.done[h.tree[0]] {
		return nil, io.EOF
	}
	h.last = h.tree[0]
	return &h.heads[h.last], nil
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
		if err := fn(r); err != nil {
			return err
		}
	}
}
