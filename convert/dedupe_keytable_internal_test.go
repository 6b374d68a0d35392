package convert

import (
	"fmt"
	"hash/maphash"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// plainPages returns n entries of pages pages from three inputs, each page
// first seen in the input of its first entry.
func plainPages(n, pages int) multi {
	var src multi
	for i := range n {
		p := (i * 7919) % pages
		src.es = append(src.es, formats.Entry{Loc: fmt.Sprintf("https://www.example.com/archive/%d/page-%d", p%97, p)})
		src.inputs = append(src.inputs, i*3/n)
	}
	return src
}

// The table of a plain merger grows from its keys, read back from memory
// or from their file, and finds every page again: the same pages and
// merges as a spooling merger's table (full hashes), with hashes of all
// sorts: random, one tag for all, one first slot for all (the probes go
// through every page), one value for all (and every page is told apart by
// key).
func TestKeyTableRegrowsFromTheKeys(t *testing.T) {
	seed := maphash.MakeSeed()
	const low = 1<<keyOffBits - 1
	hashes := []struct {
		name string
		hash func(string) uint64
		src  multi
	}{
		{"random", nil, plainPages(60000, 20000)},
		{"one tag", func(k string) uint64 { return 0xabcdef<<keyOffBits | maphash.String(seed, k)&low }, plainPages(60000, 20000)},
		{"one first slot", func(k string) uint64 { return maphash.String(seed, k)&^low | 1 }, plainPages(3000, 1000)},
		{"one value", func(string) uint64 { return 7 }, plainPages(3000, 1000)},
	}
	// The keys go to their file from the start, so that the table grows
	// from keys read back from there.
	keysInFile := func(m *merger) {
		require.NoError(t, m.newPages())
		require.NoError(t, m.pages.ToFile())
	}
	for _, h := range hashes {
		want, wantMerges, _ := dedupeWith(t, h.src, DefaultMaxMemory, false, false, nil)
		for _, inFile := range []bool{false, true} {
			what := fmt.Sprintf("%s, keys in their file %v", h.name, inFile)
			prepare := []func(*merger){func(m *merger) { m.keyed = true }}
			if inFile {
				prepare = append(prepare, keysInFile)
			}
			got, merges, m := dedupeWith(t, h.src, DefaultMaxMemory, true, false, h.hash, prepare...)
			assert.Equal(t, want, got, what)
			assert.Equal(t, wantMerges, merges, what)
			pages := len(want)
			assert.Greater(t, m.ptable.peak*13/16, pages*8, "%s: grown to hold the pages", what)
			assert.LessOrEqual(t, m.ptable.peak/pages, 20, "%s: bytes a page", what)
		}
	}
}

// A slot holds the offset of a key up to 1 TiB; past it, the dedupe ends
// with an error rather than store a wrong offset.
func TestKeyTableRefusesOffsetsPastItsRange(t *testing.T) {
	var tb keyTable
	defer tb.free()
	tb.resize(minTableSlots)
	h := uint64(0x123456789abcdef)
	require.NoError(t, tb.put(tb.first(h), h, maxKeyOffset))
	off, sameTag := tb.at(tb.first(h), h)
	assert.Equal(t, int64(maxKeyOffset), off)
	assert.True(t, sameTag)
	_, sameTag = tb.at(tb.first(h), h^1<<63)
	assert.False(t, sameTag, "another tag")
	assert.ErrorIs(t, tb.put(tb.next(tb.first(h)), h, maxKeyOffset+1), errKeysTooLarge)
	assert.Equal(t, 1, tb.n)
}

// A key table reserved for n pages holds them without growing, in half the
// bytes of a table's; the largest hint takes 128 MiB and holds 10M pages.
func TestKeyTableReserve(t *testing.T) {
	var tb keyTable
	defer tb.free()
	tb.reserve(100000, 1<<30)
	assert.True(t, tb.holds(100000))
	assert.False(t, tb.holds(len(tb.slots)))
	var full table
	defer full.free()
	full.reserve(100000, 1<<30)
	assert.Equal(t, full.bytes(), 2*tb.bytes())

	// Dedupe gives a plain merger the key table when told how many pages
	// to expect, and a table otherwise (one that grows by moving its
	// slots, not by hashing every key again).
	for _, pages := range []int{0, 5000} {
		for _, plain := range []bool{false, true} {
			d := Dedupe(&multi{}, DedupeOptions{Plain: plain, Pages: pages}, nil)
			m := d.merger
			assert.Equal(t, plain && pages > 0, m.keyed, "plain %v, pages %d", plain, pages)
			assert.Equal(t, m.keyed, len(m.ptable.slots) > 0, "plain %v, pages %d: the key table reserved", plain, pages)
			assert.Equal(t, !m.keyed && pages > 0, len(m.table.slots) > 0, "plain %v, pages %d: the table reserved", plain, pages)
			require.NoError(t, d.Close())
		}
	}

	var capped keyTable
	defer capped.free()
	capped.reserve(maxPagesHint, 1<<30)
	assert.Equal(t, int64(128<<20), capped.bytes())
	assert.True(t, capped.holds(12_000_000), "10M pages fit without growing")
}
