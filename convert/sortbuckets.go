package convert

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/offheap"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// A sort by loc of more than one run does not merge sorted runs: it
// distributes the entries into buckets, ranges of locs, and sorts each
// bucket alone, in order. The first run is sorted and its locs split the
// locs into ranges of about as many entries each; every run (the first
// too) goes to the spool grouped by bucket, a piece of each bucket after
// another. Once everything is read, each bucket is read back whole, its
// pieces one after another, and sorted in memory while the one before is
// given (bucketPipe). A bucket takes every entry of a loc, in the order
// they were read, and the sort of a bucket is stable: the whole is a
// stable sort.
//
// Where the first run does not show what comes after (an input already
// sorted, grouped by section, or locs of another host later), a bucket
// grows past what a run holds. The distribution then ends (switched): the
// runs from then on are sorted and written whole, while the next is read,
// and merged at the end with the buckets, one more input of the merge,
// read first, as they hold what was read first. A bucket that holds more
// than a run's memory at the end is sorted in runs of its own and merged.

// sortBuckets is how many ranges of locs a sort by loc distributes its
// entries into: at the default memory (buckets sorted in runs of 16 MiB,
// 12 MiB of records), some 3 GiB of records, 25 million URLs, before the
// buckets fill a run each and the sort switches to merging runs.
const sortBuckets = 256

// bucketing is what a runWriter distributing runs by loc keeps: the locs
// that end each bucket but the last, and where the pieces of each bucket
// are in the spool.
type bucketing struct {
	splits [][]byte // ascending, distinct: bucket i holds the locs in (splits[i-1], splits[i]]
	prefix []byte   // the bytes every split starts with
	keys   []uint64 // of each split, the eight bytes after prefix, padded with zeros
	pieces [][]bucketPiece
	bufs   []bucketBuf // of each bucket, the records not yet in a piece
	chunk  int         // how many bytes a bucket's buffer holds
	free   func()      // gives back the memory of the buffers (offheap.Make)
	// The bytes of each bucket so far; past hot, the first run did not
	// show what came after it, and the runs from then on are sorted and
	// merged with the buckets (switched).
	sizes    []int64
	hot      int64
	switched bool
}

// bucketBuf is the records of a bucket not yet written, n of them.
type bucketBuf struct {
	recs []byte
	n    int
}

// bucketPiece is where a piece of a bucket is in the spool: its records,
// n of them, from start to end.
type bucketPiece struct {
	start, end int64
	n          int
}

// split sets the splits from the run r, sorted by loc: the locs at every
// sortBuckets-th of its entries. The buffers of the buckets take half as
// much memory as the run.
func (p *bucketing) split(r *runBuf) {
	n := len(r.items)
	k := min(sortBuckets, n)
	for j := 1; j < k; j++ {
		loc := r.loc(j * n / k)
		if len(p.splits) > 0 && bytes.Equal(p.splits[len(p.splits)-1], loc) {
			continue
		}
		p.splits = append(p.splits, bytes.Clone(loc))
	}
	p.index()
	p.pieces = make([][]bucketPiece, len(p.splits)+1)
	p.sizes = make([]int64, len(p.pieces))
	p.bufs = make([]bucketBuf, len(p.pieces))
	p.chunk = max(r.budget/2/len(p.bufs), 1)
	slab, free := offheap.Make[byte](p.chunk * len(p.bufs))
	for b := range p.bufs {
		p.bufs[b].recs = slab[b*p.chunk : b*p.chunk : (b+1)*p.chunk]
	}
	p.free = free
}

// index sets what finds the bucket of a loc from the splits.
func (p *bucketing) index() {
	p.prefix = nil
	if len(p.splits) > 0 {
		first, last := p.splits[0], p.splits[len(p.splits)-1]
		p.prefix = first[:commonPrefix(first, last)]
	}
	p.keys = make([]uint64, len(p.splits))
	for i, s := range p.splits {
		p.keys[i] = bucketKey(s, len(p.prefix))
	}
}

// close gives back the memory of the buffers, once flushed.
func (p *bucketing) close() {
	if p.free != nil {
		p.free()
	}
	p.bufs, p.free = nil, nil
}

// bucketKey returns the eight bytes of loc from at on, padded with zeros,
// as a number: of two locs with the same bytes before at, the one with
// the lesser key is the lesser; equal keys say nothing.
func bucketKey(loc []byte, at int) uint64 {
	if rest := loc[at:]; len(rest) >= 8 {
		return binary.BigEndian.Uint64(rest)
	} else {
		var b [8]byte
		copy(b[:], rest)
		return binary.BigEndian.Uint64(b[:])
	}
}

// bucket returns the bucket of loc: how many splits are less than it.
func (p *bucketing) bucket(loc []byte) int {
	at := len(p.prefix)
	if len(loc) < at || !bytes.Equal(loc[:at], p.prefix) {
		if bytes.Compare(loc, p.prefix) < 0 {
			return 0 // less than every split
		}
		return len(p.splits)
	}
	key := bucketKey(loc, at)
	i, j := 0, len(p.keys) // the splits whose keys equal key: [i, j)
	for i < j {
		h := int(uint(i+j) >> 1)
		if p.keys[h] < key {
			i = h + 1
		} else {
			j = h
		}
	}
	for j = i; j < len(p.keys) && p.keys[j] == key; {
		j++
	}
	// Among those, by their bytes, each comparison from the bytes loc
	// shares with both bounds of the range left (a split between them
	// shares them too).
	lo, hi := at, at
	for i < j {
		h := int(uint(i+j) >> 1)
		c, n := compareFrom(p.splits[h], loc, min(lo, hi))
		if c < 0 {
			i, lo = h+1, n
		} else {
			j, hi = h, n
		}
	}
	return i
}

// compareFrom compares a and b, which are equal before from, and returns
// also how many bytes they have in common.
func compareFrom(a, b []byte, from int) (int, int) {
	n := from + commonPrefix(a[from:], b[from:])
	if n < len(a) && n < len(b) {
		return cmp.Compare(a[n], b[n]), n
	}
	return cmp.Compare(len(a), len(b)), n
}

// distribute adds the records of the run r to their buckets, in the
// order of r's items. A bucket's records wait in a buffer of its own,
// written to sp as a piece when full. Once a bucket holds more than hot
// bytes, the buffers are written out and it switches.
func (p *bucketing) distribute(r *runBuf, sp *spool.File) error {
	over := false
	for i := range r.items {
		it := &r.items[i]
		rec := r.record(i)
		b := p.bucket(r.arena[it.loc : it.loc+it.n])
		p.sizes[b] += int64(len(rec))
		over = over || p.sizes[b] > p.hot
		buf := &p.bufs[b]
		if len(buf.recs)+len(rec) > p.chunk {
			if err := p.flush(sp, b); err != nil {
				return err
			}
			if len(rec) > p.chunk {
				// Larger than the buffer: a piece of its own.
				own := buf.recs
				*buf = bucketBuf{recs: rec, n: 1}
				err := p.flush(sp, b)
				*buf = bucketBuf{recs: own}
				if err != nil {
					return err
				}
				continue
			}
		}
		buf.recs = append(buf.recs, rec...)
		buf.n++
	}
	if over {
		p.switched = true
		return p.flushAll(sp)
	}
	return nil
}

// flush writes the records bucket b holds to sp, as a piece.
func (p *bucketing) flush(sp *spool.File, b int) error {
	buf := &p.bufs[b]
	if buf.n == 0 {
		return nil
	}
	start, err := sp.AppendEncoded(buf.recs)
	if err != nil {
		return err
	}
	p.pieces[b] = append(p.pieces[b], bucketPiece{start: start, end: start + int64(len(buf.recs)), n: buf.n})
	buf.recs, buf.n = buf.recs[:0], 0
	return nil
}

// flushAll writes the records every bucket holds to sp.
func (p *bucketing) flushAll(sp *spool.File) error {
	for b := range p.bufs {
		if err := p.flush(sp, b); err != nil {
			return err
		}
	}
	return nil
}

// errBucketPiece is the error of a piece of a bucket that does not hold
// the records it should.
var errBucketPiece = errors.New("sort: a bucket's records in the spool do not decode")

// load adds the records of pieces, read from sp, to the run r, and reports
// whether they fitted: when not, r is as it was. An empty run takes one
// piece whatever its size (a run wrote it).
func (r *runBuf) load(sp *spool.File, pieces []bucketPiece) (bool, error) {
	var size int64
	n := 0
	for _, pc := range pieces {
		size, n = size+pc.end-pc.start, n+pc.n
	}
	arenaLimit, itemLimit := int64(r.budget-r.budget/arenaShare), r.budget/arenaShare/sortItemBytes
	if int64(len(r.arena))+size > math.MaxUint32 ||
		(len(r.items) > 0 || len(pieces) > 1) && (int64(len(r.arena))+size > arenaLimit || len(r.items)+n > itemLimit) {
		return false, nil
	}
	if int64(cap(r.arena)-len(r.arena)) < size && !r.grow(&r.arena, int(size), 1) ||
		cap(r.items)-len(r.items) < n && !r.grow(nil, n, sortItemBytes) {
		return false, nil
	}
	at := len(r.arena)
	for _, pc := range pieces {
		var err error
		if r.arena, err = sp.ReadEncoded(r.arena, pc.start, pc.end); err != nil {
			return false, err
		}
	}
	for at < len(r.arena) {
		rec := r.arena[at:]
		k := spool.EncodedLen(rec)
		locAt, locN := spool.EncodedLoc(rec)
		if k == 0 || locAt == 0 {
			return false, errBucketPiece
		}
		if len(r.items) == 0 {
			r.common = locN
		} else {
			first := r.arena[r.items[0].loc:]
			r.common = commonPrefix(first[:r.common], rec[locAt:locAt+locN])
		}
		r.items = append(r.items, sortItem{rec: uint32(at), loc: uint32(at + locAt), n: uint32(locN)})
		at += k
	}
	return true, nil
}

// loc returns the loc of the i-th item.
func (r *runBuf) loc(i int) []byte {
	it := &r.items[i]
	return r.arena[it.loc : it.loc+it.n]
}

// bucketPipe gives the entries of the buckets of a partition, in order:
// a goroutine of its own reads each bucket back and sorts it while the
// one before is given. It holds two runs.
type bucketPipe struct {
	sp      *spool.File
	pieces  [][]bucketPiece
	tempDir string
	sorted  chan sortedBucket
	free    chan *runBuf
	stop    chan struct{}
	done    sync.WaitGroup
	cur     sortedBucket
	// How many buckets did not fit in a run (sorted in runs of their
	// own), read once the pipe gave its last entry.
	oversized int
	at        int // the item of cur.run to give next
	dec       spool.Decoder
	err       error
}

// sortedBucket is a bucket sorted: in a run, or, when it did not fit in
// one, the merge of its runs in a spool of its own.
type sortedBucket struct {
	run    *runBuf
	merged *rawRuns
	sp     *spool.File
	err    error
}

// pipeBuckets starts reading the buckets of p from sp and sorting them,
// in runs of budget bytes. Close stops it; it must be called.
func pipeBuckets(sp *spool.File, p *bucketing, budget int, tempDir string) *bucketPipe {
	bp := &bucketPipe{sp: sp, pieces: p.pieces, tempDir: tempDir, sorted: make(chan sortedBucket), free: make(chan *runBuf, 2), stop: make(chan struct{})}
	bp.free <- &runBuf{budget: budget}
	bp.free <- &runBuf{budget: budget}
	bp.done.Add(1)
	go bp.run()
	return bp
}

func (bp *bucketPipe) run() {
	defer bp.done.Done()
	defer close(bp.sorted)
	for _, pieces := range bp.pieces {
		if len(pieces) == 0 {
			continue
		}
		var r *runBuf
		select {
		case r = <-bp.free:
		case <-bp.stop:
			return
		}
		b := bp.sort(r, pieces)
		select {
		case bp.sorted <- b:
			if b.err != nil {
				return
			}
		case <-bp.stop:
			bp.release(b)
			return
		}
	}
}

// sort reads a bucket, its pieces, into the empty run r and sorts it; or,
// when it does not fit, sorts it in runs of its own, kept in a spool of
// its own, gives r back, and returns their merge.
func (bp *bucketPipe) sort(r *runBuf, pieces []bucketPiece) sortedBucket {
	ok, err := r.load(bp.sp, pieces)
	if err != nil {
		return sortedBucket{run: r, err: err}
	}
	if ok {
		r.sort(SortLoc)
		return sortedBucket{run: r}
	}
	bp.oversized++
	sp, err := spool.New(bp.tempDir)
	if err != nil {
		return sortedBucket{run: r, err: err}
	}
	b := sortedBucket{run: r, sp: sp}
	var bounds []int64
	write := func() error {
		r.sort(SortLoc)
		bounds = append(bounds, sp.Size())
		err := r.writeTo(sp)
		r.reset()
		return err
	}
	for i := range pieces {
		ok, err := r.load(bp.sp, pieces[i:i+1])
		if err == nil && !ok {
			if err = write(); err == nil {
				ok, err = r.load(bp.sp, pieces[i:i+1])
			}
		}
		if err == nil && !ok {
			err = errBucketPiece // an empty run takes any piece
		}
		if err != nil {
			b.err = err
			return b
		}
	}
	if b.err = write(); b.err != nil {
		return b
	}
	bp.free <- r // room for it: two runs, and the other is not here
	b.run = nil
	if b.sp, bounds, b.err = mergePasses(sp, append(bounds, sp.Size()), SortLoc.compareRecords, bp.tempDir, sortFanIn, sortRunBuffer); b.err != nil {
		return b // mergePasses closed sp
	}
	b.merged, b.err = openRawRuns(nil, b.sp, bounds, SortLoc, sortRunBuffer)
	return b
}

// release gives back what the sorted bucket b holds.
func (bp *bucketPipe) release(b sortedBucket) {
	if b.run != nil {
		b.run.reset()
		bp.free <- b.run
	}
	if b.sp != nil {
		b.sp.Close()
	}
}

// NextRaw returns the next record as spool.Encode wrote it, valid until
// the next call; io.EOF after the last.
func (bp *bucketPipe) NextRaw() ([]byte, error) {
	for bp.err == nil {
		switch {
		case bp.cur.run != nil && bp.at < len(bp.cur.run.items):
			r := bp.cur.run
			if ahead := bp.at + 16; ahead < len(r.items) {
				// Read a byte of a record further on, so that the
				// memory is on its way while this one is decoded.
				r.touched ^= r.arena[r.items[ahead].rec]
			}
			bp.at++
			return r.record(bp.at - 1), nil
		case bp.cur.merged != nil:
			rec, err := bp.cur.merged.next()
			if err != io.EOF {
				if err != nil {
					bp.err = err
				}
				return rec, err
			}
		}
		bp.release(bp.cur)
		b, ok := <-bp.sorted
		if !ok {
			b.err = io.EOF
		}
		bp.cur, bp.at, bp.err = b, 0, b.err
	}
	return nil, bp.err
}

// nextInto decodes the next entry into *it.
func (bp *bucketPipe) nextInto(it *Item) error {
	rec, err := bp.NextRaw()
	if err != nil {
		return err
	}
	var r spool.Record
	if _, err := bp.dec.Decode(rec, &r); err != nil {
		bp.err = err
		return err
	}
	*it = Item{Entry: r.Entry, Input: r.Input}
	return nil
}

// next returns the next entry.
func (bp *bucketPipe) next() (formats.Entry, error) {
	var it Item
	err := bp.nextInto(&it)
	return it.Entry, err
}

// Close stops the goroutine and gives the runs' memory back; the spool
// stays open.
func (bp *bucketPipe) Close() {
	select {
	case <-bp.stop:
		return
	default:
		close(bp.stop)
	}
	bp.done.Wait()
	bp.release(bp.cur)
	bp.cur = sortedBucket{}
	for b := range bp.sorted {
		bp.release(b)
	}
	close(bp.free)
	for r := range bp.free {
		r.close()
	}
}
