package convert

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/offheap"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// runBuf is a run of entries being sorted. The entries are kept encoded as
// the spool writes them, one after another in an arena, and what is
// sorted is a small item per entry: 24 bytes, which the sort moves, with
// seven bytes of the loc in it, which it compares. A sorted run goes to
// the spool copied as it is, record after record.
type runBuf struct {
	arena   []byte
	items   []sortItem
	free    [2]func() // give the memory of the arena and the items back (offheap.Make)
	scratch []byte
	budget  int
	common  int           // how many bytes every loc of the run starts with
	touched byte          // what writeTo read ahead, kept so that it is read
	levels  []*radixLevel // the counts of the sort, a level of its recursion each
}

// radixLevel is what a level of the sort's recursion counts with: how
// many items have each byte, and where each byte's bucket goes on and
// ends. Only count must be all zero when the level starts.
type radixLevel struct{ count, next, end [256]uint32 }

// sortItem is an entry of a run being sorted.
type sortItem struct {
	key uint64 // seven bytes of the loc from the depth being sorted on and how many are left; or the lastmod, newest first
	aux uint32 // the lastmod's nanoseconds, newest first, which order equal keys
	rec uint32 // where the entry's record starts in the arena, which orders equal entries
	loc uint32 // where its loc starts in the arena
	n   uint32 // the length of its loc
}

// sortItemBytes is the size of a sortItem.
const sortItemBytes = 24

// The arena takes up to three quarters of a run's memory and the items
// the rest: an entry of a URL list is about 20 bytes of record beside its
// loc, whose 40 to 100 bytes make the arena's share three to four times
// the items'.
const arenaShare = 4

// add adds the entry of it to the run. It returns false, adding nothing,
// when the run is full; an empty run takes any entry.
func (r *runBuf) add(it *Item, o Order) bool {
	rec := spool.Encode(r.scratch[:0], &spool.Record{Input: it.Input, Entry: it.Entry})
	r.scratch = rec
	if len(r.arena)+len(rec) > cap(r.arena) && !r.grow(&r.arena, len(rec), 1) ||
		len(r.items) == cap(r.items) && !r.grow(nil, 1, sortItemBytes) ||
		uint64(len(r.arena)+len(rec)) > math.MaxUint32 && len(r.items) > 0 {
		return false
	}
	at, n := spool.EncodedLoc(rec)
	item := sortItem{rec: uint32(len(r.arena)), loc: uint32(len(r.arena) + at), n: uint32(n)}
	if o == SortLastMod {
		item.key, item.aux = lastModKey(it.Entry.LastMod)
	}
	if len(r.items) == 0 {
		r.common = n
	} else {
		first := r.arena[r.items[0].loc:]
		r.common = commonPrefix(first[:r.common], rec[at:at+n])
	}
	r.arena = append(r.arena, rec...)
	r.items = append(r.items, item)
	return true
}

// grow makes room for need more elements of size bytes in the arena (b)
// or the items (b nil), doubling, within the share of the budget each
// has. It returns false when there is no room and the run is not empty.
func (r *runBuf) grow(b *[]byte, need, size int) bool {
	length, capacity, limit := len(r.items), cap(r.items), r.budget/arenaShare/size
	if b != nil {
		length, capacity, limit = len(*b), cap(*b), r.budget-r.budget/arenaShare
	}
	if capacity == 0 && length+need <= limit && r.reserve(b, limit) {
		return true
	}
	c := min(max(2*capacity, 1024), limit)
	if c < length+need {
		if len(r.items) > 0 {
			return false
		}
		c = length + need
	}
	// Out of the heap where it is large, where the collector would let
	// the heap grow by as much again; not append's growth, which could
	// take more than the share.
	if b != nil {
		grown, free := offheap.Make[byte](c)
		*b = append(grown[:0], *b...)
		r.release(0, free)
	} else {
		grown, free := offheap.Make[sortItem](c)
		r.items = append(grown[:0], r.items...)
		r.release(1, free)
	}
	return true
}

// reserve maps the whole share of the arena (b) or the items (b nil), n
// bytes or items, out of the heap: only the pages written take memory, and
// it never grows. False when the system maps no memory.
func (r *runBuf) reserve(b *[]byte, n int) bool {
	if b != nil {
		m, free, ok := offheap.Map[byte](n)
		if ok {
			*b = m[:0]
			r.release(0, free)
		}
		return ok
	}
	m, free, ok := offheap.Map[sortItem](n)
	if ok {
		r.items = m[:0]
		r.release(1, free)
	}
	return ok
}

// release gives back the memory of the arena (i 0) or the items (1), to
// be replaced by what free gives back; it must not be used after.
func (r *runBuf) release(i int, free func()) {
	if r.free[i] != nil {
		r.free[i]()
	}
	r.free[i] = free
}

// close gives back the run's memory; it must not be used after.
func (r *runBuf) close() {
	r.release(0, nil)
	r.release(1, nil)
	r.arena, r.items = nil, nil
}

// commonPrefix returns the length of the longest prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// reset empties the run, keeping its memory.
func (r *runBuf) reset() {
	r.arena, r.items = r.arena[:0], r.items[:0]
}

// writeTo appends the records of the run to sp in the order of the items,
// a chunk at a time.
func (r *runBuf) writeTo(sp *spool.File) error {
	const chunk, ahead = 64 << 10, 16
	buf := r.scratch[:0]
	var touched byte
	for i := range r.items {
		if i+ahead < len(r.items) {
			// Read a byte of a record further on, so that the memory
			// is on its way while this one is copied.
			touched ^= r.arena[r.items[i+ahead].rec]
		}
		rec := r.record(i)
		if len(buf)+len(rec) > chunk && len(buf) > 0 {
			if _, err := sp.AppendEncoded(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
		buf = append(buf, rec...)
	}
	r.scratch = buf[:0]
	r.touched = touched
	_, err := sp.AppendEncoded(buf)
	return err
}

// record returns the encoded record of the i-th item.
func (r *runBuf) record(i int) []byte {
	b := r.arena[r.items[i].rec:]
	return b[:spool.EncodedLen(b)]
}

// lastModKey returns the key of a lastmod that orders the newest first and
// no lastmod last: its seconds and its nanoseconds, inverted.
func lastModKey(l formats.LastMod) (uint64, uint32) {
	if l.IsZero() {
		return math.MaxUint64, math.MaxUint32
	}
	t := l.Time()
	return ^(uint64(t.Unix()) ^ 1<<63), ^uint32(t.Nanosecond())
}

// What the keys of items being sorted hold.
const (
	bySeconds = iota // the lastmod's seconds (SortLastMod); aux holds its nanoseconds
	byNanos          // the lastmod's nanoseconds
	byLoc            // seven bytes of the loc from a depth, then how many bytes are left (8 for more)
)

// keyBytes is how many bytes of a loc a key holds: seven, and the last
// byte of the key says how many were left (8 for more than seven), so
// that of two locs with the same seven bytes the shorter, a prefix of the
// other, goes first.
const keyBytes = 7

// smallSort is the length under which items are sorted by comparing them
// one with another.
const smallSort = 16

// sort sorts the run by o, equal entries in the order they were added.
func (r *runBuf) sort(o Order) {
	if o == SortLastMod {
		r.sortFrom(r.items, bySeconds, 0, 56, 0) // the keys were set by add
		return
	}
	r.fill(r.items, r.common)
	r.sortFrom(r.items, byLoc, r.common, 56, 0)
}

// sortFrom sorts items by their keys, from the byte at shift down, then by
// what comes after the keys (the keys hold what by says, at depth), then
// by place: an MSD radix sort over the bytes of the keys (American flag
// sort, in place), which compares only where a group of items is small.
// The keys of the items are equal above shift. level is the depth of the
// recursion, whose counts it uses (runBuf.levels).
func (r *runBuf) sortFrom(items []sortItem, by, depth int, shift uint, level int) {
	for len(items) > 1 {
		if len(items) <= smallSort {
			r.sortSmall(items, by, depth)
			return
		}
		// The counts of this level are all zero: each level clears the
		// few it set before it is left, so that they are not cleared
		// whole (256 of them, for a group of a few dozen items).
		if level == len(r.levels) {
			r.levels = append(r.levels, new(radixLevel))
		}
		lv := r.levels[level]
		count := &lv.count
		lo, hi := byte(255), byte(0) // the bytes found: the buckets to visit
		for i := range items {
			d := byte(items[i].key >> shift)
			count[d]++
			lo, hi = min(lo, d), max(hi, d)
		}
		if lo == hi {
			count[lo] = 0
			// Skip the bytes every key has here, to the next that
			// differs, or to what comes after the keys.
			var diff uint64
			for i := range items {
				diff |= items[i].key ^ items[0].key
			}
			if diff &= 1<<shift - 1; diff != 0 {
				shift = uint(63-bits.LeadingZeros64(diff)) &^ 7
				continue
			}
			var ok bool
			if by, depth, ok = r.after(items, by, depth); !ok {
				return
			}
			shift = 56
			continue
		}
		{
			// Each item to its byte's bucket, in cycles.
			next, end := &lv.next, &lv.end // set from lo to hi
			largest, sum := int(lo), uint32(0)
			for b := int(lo); b <= int(hi); b++ {
				n := count[b]
				next[b], sum = sum, sum+n
				end[b] = sum
				if n > count[largest] {
					largest = b
				}
			}
			for b := int(lo); b <= int(hi); b++ {
				for next[b] < end[b] {
					v := items[next[b]]
					for d := byte(v.key >> shift); int(d) != b; d = byte(v.key >> shift) {
						v, items[next[d]] = items[next[d]], v
						next[d]++
					}
					items[next[b]] = v
					next[b]++
				}
			}
			// The smaller buckets by recursion, at most log2(n) deep;
			// the largest in this loop.
			for b := int(lo); b <= int(hi); b++ {
				if n := count[b]; n > 1 && b != largest {
					g := items[end[b]-n : end[b]]
					if shift > 0 {
						r.sortFrom(g, by, depth, shift-8, level+1)
					} else if by, depth, ok := r.after(g, by, depth); ok {
						r.sortFrom(g, by, depth, 56, level+1)
					}
				}
			}
			items = items[end[largest]-count[largest] : end[largest]]
			clear(count[lo : int(hi)+1])
		}
		if shift > 0 {
			shift -= 8
			continue
		}
		var ok bool
		if by, depth, ok = r.after(items, by, depth); !ok {
			return
		}
		shift = 56
	}
}

// after sets the keys of items whose keys are equal to what comes next,
// and returns what they hold; false when nothing does: the items are equal
// but for their places, and are sorted by them.
func (r *runBuf) after(items []sortItem, by, depth int) (int, int, bool) {
	switch {
	case by == bySeconds:
		for i := range items {
			items[i].key = uint64(items[i].aux) << 32
		}
		return byNanos, 0, true
	case by == byNanos:
		r.fill(items, r.common)
		return byLoc, r.common, true
	case items[0].key&0xff > keyBytes:
		r.fill(items, depth+keyBytes)
		return byLoc, depth + keyBytes, true
	}
	slices.SortFunc(items, func(a, b sortItem) int { return cmp.Compare(a.rec, b.rec) })
	return 0, 0, false
}

// fill sets the keys of items to seven bytes of their locs from depth and
// how many are left.
func (r *runBuf) fill(items []sortItem, depth int) {
	for i := range items {
		it := &items[i]
		left := r.arena[int(it.loc)+depth : it.loc+it.n]
		if len(left) >= 8 {
			it.key = binary.BigEndian.Uint64(left)&^0xff | keyBytes + 1
		} else {
			var b [8]byte
			copy(b[:], left)
			it.key = binary.BigEndian.Uint64(b[:])&^0xff | uint64(min(len(left), keyBytes+1))
		}
	}
}

// sortSmall sorts a few items by comparing them.
func (r *runBuf) sortSmall(items []sortItem, by, depth int) {
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && r.less(&items[j], &items[j-1], by, depth); j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

// less reports whether a goes before b, their keys holding what by says.
func (r *runBuf) less(a, b *sortItem, by, depth int) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if by == bySeconds && a.aux != b.aux {
		return a.aux < b.aux
	}
	if by != byLoc {
		depth = 0
	} else if a.key&0xff > keyBytes {
		depth += keyBytes
	} else {
		return a.rec < b.rec // equal locs
	}
	if c := bytes.Compare(r.arena[int(a.loc)+depth:a.loc+a.n], r.arena[int(b.loc)+depth:b.loc+b.n]); c != 0 {
		return c < 0
	}
	return a.rec < b.rec
}
