package convert

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/partition"
)

// spillSource returns n entries of pages pages, from five inputs: spellings
// that normalize alike, repeats near and far, and (unless plain) lastmods
// older, newer and equal, images, titles and summaries to merge.
func spillSource(n, pages int, plain bool) multi {
	var src multi
	for i := range n {
		p := (i * 7919) % pages
		e := formats.Entry{Loc: fmt.Sprintf("https://www.example.com/page/%d", p)}
		if i%3 == 0 {
			e.Loc = fmt.Sprintf("HTTPS://WWW.EXAMPLE.COM:443/page/%d", p)
		}
		if !plain {
			if d := (i * 31) % 5; d > 0 {
				e.LastMod, _ = formats.ParseLastMod(fmt.Sprintf("2024-01-%02d", d))
			}
			if i%4 == 1 {
				e.Ext = &formats.Extensions{Images: []formats.Image{{Loc: fmt.Sprintf("https://www.example.com/img/%d.png", i%7)}}}
			}
			if i%6 == 2 {
				e.Title = fmt.Sprint("title ", i)
			}
			if i%10 == 5 {
				e.Summary = fmt.Sprint("summary ", i)
			}
		}
		src.es = append(src.es, e)
		src.inputs = append(src.inputs, i*5/n)
	}
	return src
}

// streamOf returns a copy of src to read, through a Prefetcher closed at
// the test's end when piped.
func streamOf(t *testing.T, src multi, piped bool) Stream {
	in := src
	if !piped {
		return &in
	}
	p := Prefetch(&in)
	t.Cleanup(func() { p.Close() })
	return p
}

// dedupeWith dedupes src (a copy) under budget and returns the pages, as
// text, and the merges the observer was told of, sorted; each of prepare
// is called with the merger before it reads.
func dedupeWith(t *testing.T, src multi, budget int64, plain, piped bool, hash func(string) uint64, prepare ...func(*merger)) ([]string, []string, *merger) {
	t.Helper()
	s := streamOf(t, src, piped)
	var merges []string
	m := newMerger(s, nil, Observe{Drop: func(d Drop) { merges = append(merges, fmt.Sprint(d.From, d.Into, d.Loc)) }}, t.TempDir())
	t.Cleanup(func() { m.Close() })
	m.plain, m.budget = plain, budget
	if hash != nil {
		m.hash = hash
	}
	for _, p := range prepare {
		p(m)
	}
	var got []string
	for {
		it, err := m.NextItem()
		if err != nil {
			require.ErrorIs(t, err, io.EOF)
			break
		}
		got = append(got, fmt.Sprintf("%s %s %d %q %q %s", it.Entry.Loc, it.Entry.LastMod, it.Input, it.Entry.Title, it.Entry.Summary, images(it.Entry.Ext)))
	}
	slices.Sort(merges)
	return got, merges, m
}

func images(x *formats.Extensions) string {
	if x == nil {
		return "-"
	}
	var s string
	for _, im := range x.Images {
		s += im.Loc + ","
	}
	return s
}

// Past its memory cap the merger spills to partitions and gives the same
// pages, winners, inputs and order as in memory, and is told of the same
// merges: spilling at once or part-way, with partitions split again, with
// more runs than are merged at once, and with every key of one hash.
func TestDedupeSpillSameAsInMemory(t *testing.T) {
	for _, plain := range []bool{false, true} {
		src := spillSource(6000, 2000, plain)
		for _, hash := range []func(string) uint64{nil, func(k string) uint64 { return uint64(len(k) % 3) }} {
			want, wantMerges, _ := dedupeWith(t, src, DefaultMaxMemory, false, false, hash)
			require.Len(t, want, 2000)
			for _, full := range []int64{1, 40 << 10, 80 << 10} {
				budget := full
				if plain && full > 1 {
					budget /= 3 // its table takes half the bytes a page, its keys less than the records
				}
				for _, piped := range []bool{false, true} {
					name := fmt.Sprintf("plain %v, hash %v, budget %d, piped %v", plain, hash != nil, budget, piped)
					got, merges, m := dedupeWith(t, src, budget, plain, piped, hash)
					assert.Equal(t, want, got, name)
					assert.Equal(t, wantMerges, merges, name)
					if hash == nil || full == 1 {
						require.NotNil(t, m.spill, name)
					}
					if hash == nil && full < 80<<10 {
						assert.Greater(t, len(m.spill.bounds)-1, maxFanIn, "%s: partitions split again, runs merged in passes", name)
					}
				}
			}
		}
	}
}

// failing is a source that fails after its entries.
type failing struct {
	multi
	err error
}

func (f *failing) NextItem() (Item, error) {
	it, err := f.multi.NextItem()
	if err == io.EOF {
		return Item{}, f.err
	}
	return it, err
}

func (f *failing) Next() (formats.Entry, error) {
	it, err := f.NextItem()
	return it.Entry, err
}

// A run that fails after it spilled returns the error, and Close leaves
// no file behind, in the directory or open.
func TestDedupeSpillCleansUpOnFailure(t *testing.T) {
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Skip("no /proc/self/fd")
		}
		return len(ents)
	}
	for _, plain := range []bool{false, true} {
		dir := t.TempDir()
		before := fds()
		boom := errors.New("input broke")
		src := &failing{multi: spillSource(3000, 1000, plain), err: boom}
		p := Prefetch(src)
		m := newMerger(p, nil, nil, dir)
		m.plain, m.budget = plain, 1
		var err error
		for err == nil {
			_, err = m.NextItem()
		}
		assert.ErrorIs(t, err, boom)
		require.NotNil(t, m.spill, "spilled before the failure")
		assert.Greater(t, fds(), before+partition.Fanout-1, "the partitions were open")
		require.NoError(t, m.Close())
		p.Close()
		assert.Equal(t, before, fds(), "plain %v: every file closed", plain)
		left, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Empty(t, left, "plain %v: nothing left in the directory", plain)
	}
}

// A plain merger keeps its table and the keys it holds in memory under its
// cap, but for the key of the page being taken in, at every budget: the
// pages of a batch are checked one by one unless all of them fit
// (batchFits), and never when the table would grow among them (at 238 KB,
// a table that grew unchecked took it past the cap).
func TestDedupePlainStaysUnderItsCap(t *testing.T) {
	var src multi
	for i := range 12000 {
		p := (i * 7919) % 9000
		src.es = append(src.es, formats.Entry{Loc: fmt.Sprintf("https://www.example.com/archive/%s/%d", strings.Repeat("long-path-", 6), p)})
		src.inputs = append(src.inputs, i%3)
	}
	for budget := int64(16 << 10); budget < 2<<20; budget = budget * 5 / 4 {
		for _, keyed := range []bool{false, true} {
			piped := keyed
			m := newMerger(streamOf(t, src, piped), nil, nil, t.TempDir())
			m.plain, m.keyed, m.budget = true, keyed, budget
			most, pages := int64(0), 0
			for {
				_, err := m.NextItem()
				if err != nil {
					require.ErrorIs(t, err, io.EOF)
					break
				}
				pages++
				if m.pages != nil {
					most = max(most, m.table.bytes()+m.ptable.bytes()+m.pages.MemBytes())
				}
			}
			require.NoError(t, m.Close())
			assert.Equal(t, 9000, pages, "budget %d, keyed %v", budget, keyed)
			assert.LessOrEqual(t, most, budget+128, "budget %d, keyed %v", budget, keyed)
		}
	}
}
