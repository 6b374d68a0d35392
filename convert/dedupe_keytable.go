package convert

import (
	"errors"
	"unsafe"
)

// keyTable is the table of a plain merger's pages, whose keys are kept
// (spool.Keys): it maps the 64-bit hash of a page's key to the offset of
// the key, by open addressing with linear probing, in 8 bytes a slot, half
// of a table's. A slot holds the top 24 bits of the hash (its tag) and the
// key's offset plus one (40 bits: keys up to 1 TiB); the keys tell apart
// two pages whose hashes meet in a probe with one tag, so that no page is
// set aside by key as in a table (merger.fallback). The hashes themselves
// are not kept: to grow, the table is filled again from the keys
// (merger.regrow).
//
// Half the slots' memory is half the cache misses and page faults of the
// lookups: 10M URLs of one site to a split index took 7-10% less time and
// 580 MiB instead of 708 at their peak (medians of 3 alternating runs, in
// two sets); 1M URLs, 8% less time and 6% less CPU (medians of 13). It is
// the table of a plain merger told how many pages to expect (the size of
// its local inputs, DedupeOptions.Pages), which seldom grows: growing
// rehashes every key, and from standard input, 1M URLs took 20% more time
// than with a table, which grows by moving its slots.
type keyTable struct{ slotMem[uint64] }

// keyOffBits is the width of a key's offset (plus one) in a slot; the tag
// has the bits above.
const keyOffBits = 40

// maxKeyOffset is the largest offset of a key a slot holds.
const maxKeyOffset = 1<<keyOffBits - 2

// errKeysTooLarge ends a dedupe whose keys take more than a slot can point
// into: a terabyte of keys, some twenty billion URLs.
var errKeysTooLarge = errors.New("dedupe: the keys of the pages take more than 1 TiB")

// bytesToAdd returns the bytes the table takes while one more page is
// added: those of the new slots when that makes it grow (the old ones are
// given back first, as the table is filled again from the keys).
func (t *keyTable) bytesToAdd() int64 {
	if t.holds(1) {
		return t.bytes()
	}
	return 2 * max(t.bytes(), minTableSlots*t.slotBytes())
}

// resize gives the slots back and makes them anew, size of them, empty: to
// be filled again with every page (merger.regrow). Their pages come at
// once, as the refill touches all of them.
func (t *keyTable) resize(size int) {
	t.free()
	t.alloc(size, true, 0)
}

// first returns the slot a probe for the hash h starts at; next, the slot
// after i.
func (t *keyTable) first(h uint64) int { return int(h & uint64(len(t.slots)-1)) }

func (t *keyTable) next(i int) int { return (i + 1) & (len(t.slots) - 1) }

// at returns the offset of the key of the page in slot i, or -1 when the
// slot is empty, and whether the page's tag is that of the hash h.
func (t *keyTable) at(i int, h uint64) (off int64, sameTag bool) {
	v := t.slots[i]
	return int64(v&(1<<keyOffBits-1)) - 1, v>>keyOffBits == h>>keyOffBits
}

// put puts the page of hash h, whose key is at off, in slot i, empty.
func (t *keyTable) put(i int, h uint64, off int64) error {
	if off < 0 || off > maxKeyOffset {
		return errKeysTooLarge
	}
	t.slots[i] = h>>keyOffBits<<keyOffBits | uint64(off+1)
	t.n++
	return nil
}

// findKeyed is findPlain with the key table.
func (m *merger) findKeyed(input int, k string, h uint64) (isNew bool, firstInput int, err error) {
	t := &m.ptable
	if !t.holds(1) {
		if err := m.regrow(); err != nil {
			return false, 0, err
		}
	}
	for i := t.first(h); ; i = t.next(i) {
		off, sameTag := t.at(i, h)
		if off < 0 {
			if off, err = m.pages.Append(k, input); err != nil {
				return true, 0, err
			}
			return true, 0, t.put(i, h, off)
		}
		if !sameTag {
			continue
		}
		first, firstInput, err := m.pages.At(off)
		if err != nil {
			return false, 0, err
		}
		if string(first) == k {
			return false, firstInput, nil
		}
	}
}

// regrow makes the table of a plain merger's pages twice as large (at
// first, of minTableSlots) and puts every page in it again, from its key:
// the slots do not hold the hashes. The keys are read in the order they
// were added, from memory or from their file.
func (m *merger) regrow() error {
	t := &m.ptable
	t.resize(max(minTableSlots, 2*len(t.slots)))
	if m.pages == nil {
		return nil
	}
	// A batch at a time: the first slots of a batch's hashes are read
	// together (touch), so that their cache misses overlap.
	hashes, offs := make([]uint64, 0, batchSize), make([]int64, 0, batchSize) // not m.hashes: a batch being read holds those
	putAll := func() error {
		t.touch(hashes)
		for j, h := range hashes {
			i := t.first(h)
			for t.slots[i] != 0 {
				i = t.next(i)
			}
			if err := t.put(i, h, offs[j]); err != nil {
				return err
			}
		}
		hashes, offs = hashes[:0], offs[:0]
		return nil
	}
	err := m.pages.Each(func(off int64, key []byte, _ int) error {
		hashes = append(hashes, m.hashOf(unsafe.String(unsafe.SliceData(key), len(key)))) // not kept
		offs = append(offs, off)
		if len(hashes) < batchSize {
			return nil
		}
		return putAll()
	})
	if err == nil {
		err = putAll()
	}
	return err
}
