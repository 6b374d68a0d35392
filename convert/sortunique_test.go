package convert

import (
	"fmt"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// A sort that finds the duplicates gives what a Dedupe then a sort by loc
// give: the same entries with the same inputs, and the same duplicates
// told (in another order). So when every loc is its normal form, and when
// one is not (first, after runs went to the spool, last, or many, with the
// normal spelling of a page before and after another), with one run in
// memory or many in a spool, merged at once or in passes, and with a
// Dedupe that spills, into which what was read before does not fit. Only
// the first keeps no table of pages.
func TestSortUniqueAsDedupeThenSort(t *testing.T) {
	const n = 3000
	page := func(i int) string { return fmt.Sprintf("https://www.example.com/page/%d", (i*7919)%1100) }
	other := func(i int) string { return fmt.Sprintf("HTTPS://WWW.EXAMPLE.COM:443/page/%d", (i*7919)%1100) }
	set := func(odd func(i int) bool) *multi {
		var m multi
		for i := range n {
			loc := page(i)
			if odd(i) {
				loc = other(i)
			}
			m.es = append(m.es, formats.Entry{Loc: loc})
			m.inputs = append(m.inputs, i/700)
		}
		return &m
	}
	sets := map[string]*multi{
		"normal":    set(func(int) bool { return false }),
		"odd first": set(func(i int) bool { return i == 0 }),
		"odd after": set(func(i int) bool { return i == 2000 }),
		"odd last":  set(func(i int) bool { return i == n-1 }),
		"odd many":  set(func(i int) bool { return i%3 == 1 }),
	}
	type result struct{ entries, drops []string }
	var hash func(string) uint64 // of the sort's Dedupe, when not nil
	run := func(src *multi, unique bool, so SortOptions, do DedupeOptions) (result, *Sorter) {
		in := *src
		var res result
		obs := Observe{Drop: func(d Drop) {
			res.drops = append(res.drops, fmt.Sprint(d.From, " ", d.Into, " ", d.Loc, " ", d.Rule))
		}}
		var s *Sorter
		if unique {
			s = sortUnique(&in, so, do, obs)
			s.uniq.hash = hash
		} else {
			d := Dedupe(&in, do, obs)
			defer d.Close()
			s = SortWith(d, SortLoc, so)
		}
		for {
			it, err := s.NextItem()
			if err != nil {
				require.ErrorIs(t, err, io.EOF)
				break
			}
			res.entries = append(res.entries, fmt.Sprint(it.Input, " ", it.Entry.Loc))
		}
		slices.Sort(res.drops)
		return res, s
	}
	for name, src := range sets {
		for _, sortMem := range []int64{0, 4 << 10, 256} {
			for _, dedupeMem := range []int64{0, 4 << 10, 12 << 10} {
				dir := t.TempDir()
				so := SortOptions{TempDir: dir, MaxMemory: sortMem}
				do := DedupeOptions{TempDir: dir, Plain: true, MaxMemory: dedupeMem}
				want, ws := run(src, false, so, do)
				require.NoError(t, ws.Close())
				got, s := run(src, true, so, do)
				what := fmt.Sprintf("%s, sort memory %d, dedupe memory %d", name, sortMem, dedupeMem)
				assert.Equal(t, want, got, what)
				assert.Len(t, got.entries, 1100, what)
				assert.Equal(t, name != "normal", s.uniq.dedupe != nil, "%s: a Dedupe once a loc was not its normal form", what)
				// What was read before it is taken into the Dedupe where it
				// fits, and read back through it where not.
				if dedupeMem == 0 || name == "normal" {
					assert.Nil(t, s.uniq.before, "%s: read back", what)
				} else if name == "odd after" || name == "odd last" {
					assert.NotNil(t, s.uniq.before, "%s: taken in", what)
				}
				require.NoError(t, s.Close())
				left, err := os.ReadDir(dir)
				require.NoError(t, err)
				assert.Empty(t, left, "%s: files left", what)
			}
		}
	}
	// Pages whose hashes collide are told apart by their keys, also those
	// taken in from the sort's runs.
	hash = func(k string) uint64 { return uint64(len(k) % 3) }
	for _, name := range []string{"odd after", "odd last", "odd many"} {
		so := SortOptions{TempDir: t.TempDir(), MaxMemory: 4 << 10}
		do := DedupeOptions{TempDir: so.TempDir, Plain: true}
		want, ws := run(sets[name], false, so, do)
		require.NoError(t, ws.Close())
		got, s := run(sets[name], true, so, do)
		assert.Equal(t, want, got, "%s, every hash colliding", name)
		require.NoError(t, s.Close())
	}
}

// An input that breaks ends the sort with its error, before a loc that is
// not its normal form was read and after, with the runs in memory or
// spooled, and leaves no file.
func TestSortUniqueFailingInput(t *testing.T) {
	for _, odd := range []int{-1, 0, 500} {
		for _, sortMem := range []int64{0, 4 << 10} {
			var src failingPlain
			for i := range 1000 {
				loc := fmt.Sprintf("https://www.example.com/%d", i%600)
				if i == odd {
					loc = "https://www.example.com/%7e"
				}
				src.es = append(src.es, formats.Entry{Loc: loc})
				src.inputs = append(src.inputs, 0)
			}
			dir := t.TempDir()
			s := sortUnique(&src, SortOptions{TempDir: dir, MaxMemory: sortMem}, DedupeOptions{TempDir: dir, Plain: true}, nil)
			_, err := s.NextItem()
			assert.ErrorIs(t, err, errFailing, "odd at %d, sort memory %d", odd, sortMem)
			require.NoError(t, s.Close())
			left, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, left, "odd at %d, sort memory %d: files left", odd, sortMem)
		}
	}
}
