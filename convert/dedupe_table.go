package convert

import (
	"encoding/binary"
	"os"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/internal/offheap"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
)

// slotMem is the memory of a table of pages: a power of two of slots of
// type S, outside the garbage-collected heap where the system allows
// (offheap), kept at most 13/16 full, and the count of those in use. The
// tables (table, keyTable) probe it linearly from a hash's first slot.
type slotMem[S any] struct {
	slots []S
	drop  func() // gives the slots' memory back (offheap.Make)
	n     int
	peak  int    // the most bytes the slots took, for benchmarks
	sink  uint64 // what touch read, kept so that the reads are not dropped
}

// slotBytes returns the size of a slot.
func (t *slotMem[S]) slotBytes() int64 {
	var s S
	return int64(unsafe.Sizeof(s))
}

// holds reports whether n more can be added without the table growing.
func (t *slotMem[S]) holds(n int) bool { return (t.n+n)*16 <= len(t.slots)*13 }

// bytes returns the bytes the table's slots take.
func (t *slotMem[S]) bytes() int64 { return int64(len(t.slots)) * t.slotBytes() }

// alloc gives the table size empty slots, beside held bytes of slots still
// held (for peak); their pages come at once, on a goroutine of their own,
// when ahead: a table reserved before it is used (offheap.MakeTable).
func (t *slotMem[S]) alloc(size int, ahead bool, held int64) {
	if ahead {
		t.slots, t.drop = offheap.MakeTable[S](size)
	} else {
		t.slots, t.drop = offheap.Make[S](size)
	}
	t.peak = max(t.peak, int(t.bytes()+held))
}

// reserve sizes an empty table for n keys at once, so that it does not
// grow through every doubling to hold them (each doubling puts every key
// in again, and a table holds its old slots and the new at once).
func (t *slotMem[S]) reserve(n int, maxBytes int64) {
	if len(t.slots) > 0 || n <= 0 {
		return
	}
	size := minTableSlots
	for size*13 < (n+1)*16 && int64(2*size)*t.slotBytes() <= maxBytes {
		size *= 2
	}
	t.alloc(size, true, 0)
}

// minTableSlots is the size a table of pages starts at.
const minTableSlots = 1024

// touch reads the first slot of each hash, so that the memory is in cache
// when the lookups come; the reads are independent, so they overlap.
func (t *slotMem[S]) touch(hashes []uint64) {
	if len(t.slots) == 0 {
		return
	}
	mask := uint64(len(t.slots) - 1)
	var sum uint64
	for _, h := range hashes {
		sum += uint64(*(*byte)(unsafe.Pointer(&t.slots[h&mask])))
	}
	t.sink = sum
}

// free releases the table's memory.
func (t *slotMem[S]) free() {
	if t.drop != nil {
		t.drop()
	}
	t.slots, t.n, t.drop = nil, 0, nil
}

// table maps 64-bit hashes (never 0) to offsets, by open addressing with
// linear probing, in 16 bytes a slot.
type table struct{ slotMem[slot] }

type slot struct {
	h   uint64
	off int64
}

// findOrInsert returns the offset stored for h, to read or change, and
// whether h was there; when it was not, h is added with offset 0.
func (t *table) findOrInsert(h uint64) (*int64, bool) {
	if !t.holds(1) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch s.h {
		case h:
			return &s.off, true
		case 0:
			s.h = h
			t.n++
			return &s.off, false
		}
	}
}

// bytesToAdd returns the bytes the table takes while one more hash is
// added: the old slots and the new as well when that makes it grow.
func (t *table) bytesToAdd() int64 {
	n := t.bytes()
	if !t.holds(1) {
		n += 2 * max(n, minTableSlots*t.slotBytes())
	}
	return n
}

// maxPagesHint caps pagesHint: a table reserved for it takes 256 MiB (a
// keyTable, 128), and holds up to 13M pages without growing. A table that grows holds its old
// slots and the new at once, and every page of the new is a fresh page
// fault: at 10M URLs, reserving 256 MiB at once instead of growing from
// 128 MiB took 5% less CPU (4.96 against 5.25 s, medians of 5 alternating
// runs; 1M URLs reserve 32 MiB either way).
const maxPagesHint = 8 << 20

// Bytes a page, by which pagesHint guesses: a URL of a text list and its
// newline; a <url> element with its loc (87 bytes in the benchmark's
// sitemaps; one with a lastmod and more, as many sitemaps have, about 150:
// a table reserved for 1.5 times the pages it gets takes at most the
// memory that growing to them takes).
const (
	textPageBytes = 64
	xmlPageBytes  = 96
)

// PagesHint guesses how many pages the inputs hold, from the sizes of
// those that are local files (a gzipped one by its size uncompressed), at
// about 96 bytes a <url> of a sitemap: a guess, to size a table of pages
// at once rather than grow it, capped at 8M. Run sizes its dedupe by it;
// validate.Options.Expect takes it.
func PagesHint(inputs []Input) int { return pagesHint(inputs, xmlPageBytes) }

// pagesHint guesses how many pages the inputs hold from the sizes of
// those that are local files, perPage bytes a page; a gzipped file counts
// by the size its trailer gives (of its last member: a guess too). It is a
// guess, to size the table, capped at maxPagesHint.
func pagesHint(inputs []Input, perPage int64) int {
	var n int64
	for _, in := range inputs {
		if in.Path != "" {
			n += localSize(in.Path) / perPage
		}
	}
	return int(min(n, maxPagesHint))
}

// localSize returns the size of the regular file at path, uncompressed
// when it is gzipped, or 0.
func localSize(path string) int64 {
	// Only a regular file is opened: opening a named pipe waits for its
	// writer, and closing it again may cut the writer off.
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	size := fi.Size()
	if size < 18 {
		return size
	}
	f, err := os.Open(path)
	if err != nil {
		return size
	}
	defer f.Close()
	var head [2]byte
	var trailer [4]byte
	if _, err := f.ReadAt(head[:], 0); err != nil || !source.IsGzip(head[:]) {
		return size
	}
	if _, err := f.ReadAt(trailer[:], size-4); err != nil {
		return size
	}
	// ISIZE is the size modulo 4 GiB: a file that grew past that reads
	// smaller than it is, and its compressed size is the better guess.
	return max(size, int64(binary.LittleEndian.Uint32(trailer[:])))
}

func (t *table) grow() {
	old, drop := t.slots, t.drop
	t.alloc(max(minTableSlots, 2*len(old)), false, int64(len(old))*t.slotBytes())
	mask := uint64(len(t.slots) - 1)
	for _, s := range old {
		if s.h == 0 {
			continue
		}
		i := s.h & mask
		for t.slots[i].h != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
	if drop != nil {
		drop()
	}
}
