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
	sp, bounds, err := mergePasses(sp, bounds, cmp, tempDir, fanIn, buf)
	if err != nil {
		return nil, err
	}
	h, err := openRuns(sp, bounds, cmp, buf)
	if err != nil {
		sp.Close()
		return nil, err
	}
	return &runs{sp: sp, heap: h}, nil
}

// mergePasses merges consecutive groups of fanIn runs of sp into longer
// runs, in a new spool in tempDir, until fanIn are left, and returns the
// spool and its bounds. It takes sp over, closing it on failure.
func mergePasses(sp *spool.File, bounds []int64, cmp func(a, b *spool.Record) int, tempDir string, fanIn, buf int) (*spool.File, []int64, error) {
	return mergePassesKeeping(sp, nil, bounds, cmp, tempDir, fanIn, buf)
}

// mergePassesKeeping is mergePasses, which never closes keep (when sp is
// keep, it returns keep or a new spool, and the caller closes keep).
func mergePassesKeeping(sp, keep *spool.File, bounds []int64, cmp func(a, b *spool.Record) int, tempDir string, fanIn, buf int) (*spool.File, []int64, error) {
	closeSp := func() {
		if sp != keep {
			sp.Close()
		}
	}
	for len(bounds)-1 > fanIn {
		next, err := spool.New(tempDir)
		if err != nil {
			closeSp()
			return nil, nil, err
		}
		merged := []int64{0}
		for i := 0; i+1 < len(bounds); i += fanIn {
			h, err := openRuns(sp, bounds[i:min(i+fanIn, len(bounds)-1)+1], cmp, buf)
			if err == nil {
				err = h.drain(func(r *spool.Record) error { _, err := next.Append(r); return err })
			}
			if err != nil {
				closeSp()
				next.Close()
				return nil, nil, err
			}
			merged = append(merged, next.Size())
		}
		closeSp()
		sp, bounds = next, merged
	}
	return sp, bounds, nil
}

// openRuns returns the merge of the runs of sp between bounds, each read
// through a buffer of buf bytes.
func openRuns(sp *spool.File, bounds []int64, cmp func(a, b *spool.Record) int, buf int) (runHeap, error) {
	h := runHeap{last: -1}
	scanners, err := scanRuns(sp, bounds, buf)
	if err != nil {
		return h, err
	}
	h.scanners = scanners
	h.heads = make([]spool.Record, len(scanners))
	h.init(len(scanners), func(a, b int) int { return cmp(&h.heads[a], &h.heads[b]) })
	for i, sc := range scanners {
		switch err := sc.NextInto(&h.heads[i]); {
		case err == io.EOF:
			h.done[i] = true
		case err != nil:
			return h, err
		}
	}
	h.start()
	return h, nil
}

// scanRuns returns a scanner of each run of sp between bounds that holds
// a record, reading through a buffer of buf bytes.
func scanRuns(sp *spool.File, bounds []int64, buf int) ([]*spool.Scanner, error) {
	var scanners []*spool.Scanner
	for i := 0; i+1 < len(bounds); i++ {
		if bounds[i] == bounds[i+1] {
			continue
		}
		sc, err := sp.ScanRange(bounds[i], bounds[i+1], buf)
		if err != nil {
			return nil, err
		}
		scanners = append(scanners, sc)
	}
	return scanners, nil
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

// tournament picks the least of the heads of sorted runs by a tree of
// matches between them, each node keeping the loser, so that the next head
// takes one match a level (log2 of the runs) where a heap takes two. Of
// equal heads the one of the earlier run wins.
type tournament struct {
	cmp  func(a, b int) int // compares the heads of runs a and b
	done []bool             // the runs read whole
	tree []int              // tree[0] the run of the least head; tree[1:] the loser of each match, leaves below
}

// init readies a tournament of k runs, their heads ordered by cmp; start
// it once the heads are read.
func (t *tournament) init(k int, cmp func(a, b int) int) {
	t.cmp, t.done, t.tree = cmp, make([]bool, k), make([]int, max(k, 1))
}

// start plays every match.
func (t *tournament) start() {
	if len(t.done) > 0 {
		t.tree[0] = t.play(1)
	}
}

// play plays the matches below node, the runs being the leaves from
// len(done) on, and returns the winner.
func (t *tournament) play(node int) int {
	k := len(t.done)
	if node >= k {
		return node - k
	}
	a, b := t.play(2*node), t.play(2*node+1)
	if t.beats(b, a) {
		a, b = b, a
	}
	t.tree[node] = b
	return a
}

// beats reports whether the head of run a goes before that of run b.
func (t *tournament) beats(a, b int) bool {
	switch {
	case t.done[a]:
		return false
	case t.done[b]:
		return true
	}
	if c := t.cmp(a, b); c != 0 {
		return c < 0
	}
	return a < b
}

// winner returns the run of the least head, or false when every run is
// read whole.
func (t *tournament) winner() (int, bool) {
	if len(t.done) == 0 || t.done[t.tree[0]] {
		return 0, false
	}
	return t.tree[0], true
}

// replay plays again the matches of run w, whose head changed (or which
// is read whole).
func (t *tournament) replay(w int) {
	for node := (w + len(t.done)) / 2; node > 0; node /= 2 {
		if t.beats(t.tree[node], w) {
			t.tree[node], w = w, t.tree[node]
		}
	}
	t.tree[0] = w
}

// runHeap merges runs of records by a tournament.
type runHeap struct {
	tournament
	scanners []*spool.Scanner
	heads    []spool.Record // the next record of each run
	last     int            // the run of the record returned last, to read again; -1 when none
	err      error
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
		h.replay(w)
	}
	w, ok := h.winner()
	if !ok {
		return nil, io.EOF
	}
	h.last = w
	return &h.heads[w], nil
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
