package convert

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// The bucket of a loc is how many splits are less than it, whatever the
// locs: sharing long prefixes with the splits, prefixes of them, equal to
// them, shorter than their common prefix, with bytes 0 and 255, of
// another host.
func TestBucketOfALoc(t *testing.T) {
	pieces := []string{"", "a", "b", "\x00", "\xff", "aaaaaaaa", "aaaaaaab", "/", "products/kitchen/"}
	rng := rand.New(rand.NewPCG(3, 5))
	loc := func() []byte {
		var b strings.Builder
		b.WriteString([]string{"https://www.example.com/", "https://www.example.com/", "https://www.example.co", "https://other.example/", ""}[rng.IntN(5)])
		for range rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return []byte(b.String())
	}
	for round := range 200 {
		var p bucketing
		for range rng.IntN(40) {
			p.splits = append(p.splits, loc())
		}
		if round%3 == 0 { // splits that all share more than the host
			for i := range p.splits {
				p.splits[i] = append([]byte("https://www.example.com/products/kitchen/"), p.splits[i]...)
			}
		}
		slices.SortFunc(p.splits, bytes.Compare)
		p.splits = slices.CompactFunc(p.splits, bytes.Equal)
		p.index()
		probes := append(slices.Clone(p.splits), [][]byte{[]byte(""), []byte("https://www.example.com/products/kitchen/")}...)
		for range 100 {
			probes = append(probes, loc())
		}
		for _, s := range p.splits { // around each split
			probes = append(probes, s[:len(s)/2], append(slices.Clone(s), 0), append(slices.Clone(s), 'a'))
		}
		for _, l := range probes {
			want := 0
			for _, s := range p.splits {
				if bytes.Compare(s, l) < 0 {
					want++
				}
			}
			require.Equal(t, want, p.bucket(l), "round %d, %q among %q", round, l, p.splits)
		}
	}
}

// A sort by loc of more than one run gives what a stable sort gives, and
// leaves no file, for inputs in any order: at random (the buckets fit in
// a run each), already sorted or reversed (the first run says nothing of
// the rest: a bucket grows past a run, and the runs after it are sorted
// and merged with the buckets), all one loc, a few locs, another host
// after the first run, and records larger than a bucket's buffer. In
// memory from 2 KiB (buckets never fit in a run, and are sorted in runs of
// their own) to 256 KiB (they do). And the same sort finding the
// duplicates: the first entry of each loc.
func TestSortBucketsAnyOrder(t *testing.T) {
	const n = 6000
	rng := rand.New(rand.NewPCG(11, 13))
	url := func(i int) string {
		return fmt.Sprintf("https://www.example.com/%s/%d/%s", []string{"blog", "products/kitchen", "docs"}[i%3], (i*7919)%2000, strings.Repeat("x", i%17))
	}
	build := func(loc func(i int) string) entries {
		in := make(entries, n)
		for i := range in {
			in[i] = formats.Entry{Loc: loc(i), Title: fmt.Sprint(i)}
		}
		return in
	}
	sorted := build(url)
	slices.SortStableFunc(sorted, func(a, b formats.Entry) int { return strings.Compare(a.Loc, b.Loc) })
	for i := range sorted {
		sorted[i].Title = fmt.Sprint(i)
	}
	reversed := slices.Clone(sorted)
	slices.Reverse(reversed)
	for i := range reversed {
		reversed[i].Title = fmt.Sprint(i)
	}
	large := build(url)
	for i := 0; i < n; i += 97 {
		large[i].Loc += "/" + strings.Repeat("y", 40000) // past a bucket's buffer at 256 KiB
	}
	inputs := map[string]entries{
		"random":     build(url),
		"sorted":     sorted,
		"reversed":   reversed,
		"one loc":    build(func(int) string { return "https://www.example.com/" }),
		"a few locs": build(func(i int) string { return url(rng.IntN(5)) }),
		"other host": build(func(i int) string {
			if i > n/3 {
				return strings.Replace(url(i), "www.example.com", []string{"a.example", "zz.example", "www.example.co"}[i%3], 1)
			}
			return url(i)
		}),
		"large records": large,
	}
	for name, in := range inputs {
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b formats.Entry) int { return strings.Compare(a.Loc, b.Loc) })
		for _, mem := range []int64{2 << 10, 32 << 10, 256 << 10} {
			what := fmt.Sprintf("%s, memory %d", name, mem)
			dir := t.TempDir()
			src := slices.Clone(in)
			s := SortWith(&src, SortLoc, SortOptions{TempDir: dir, MaxMemory: mem})
			i := 0
			for e, err := range formats.All(s) {
				require.NoError(t, err, what)
				require.Less(t, i, len(want), what)
				require.Equal(t, want[i].Title, e.Title, "%s: entry %d", what, i)
				i++
			}
			require.Equal(t, len(want), i, what)
			require.NotNil(t, s.runs, "%s: through the spool", what)
			// The buckets alone, or, once one grew past a run, merged
			// with the runs read after.
			bp, alone := s.merged.(*bucketPipe)
			if !alone {
				bp = s.runs.buckets
			}
			require.NotNil(t, bp, "%s: sorted in buckets", what)
			switch {
			case name == "sorted" || name == "reversed" || name == "one loc" || name == "other host":
				assert.False(t, alone, "%s: the first run said little of the rest: switched to runs", what)
			case name == "random" && mem == 256<<10:
				assert.True(t, alone, "%s: the buckets alone", what)
				assert.Zero(t, bp.oversized, "%s: every bucket in a run", what)
				assert.Greater(t, s.runs.parts, 100, what)
			case name == "large records" && mem == 256<<10:
				assert.True(t, alone, "%s: the buckets alone", what)
			}
			if mem == 2<<10 && name != "large records" { // each run one record there
				assert.Positive(t, bp.oversized, "%s: buckets sorted in runs of their own", what)
			}
			require.NoError(t, s.Close())

			// The sort that finds the duplicates too (every loc its own
			// normal form): the first entry of each loc.
			src = slices.Clone(in)
			u := sortUnique(&src, SortOptions{TempDir: dir, MaxMemory: mem}, DedupeOptions{TempDir: dir, Plain: true}, nil)
			i = 0
			for e, err := range formats.All(u) {
				require.NoError(t, err, what)
				for i < len(want) && i > 0 && want[i].Loc == want[i-1].Loc {
					i++ // a later entry of the loc before
				}
				require.Less(t, i, len(want), what)
				require.Equal(t, want[i].Title, e.Title, "%s, duplicates dropped: entry %d", what, i)
				i++
			}
			for i < len(want) && i > 0 && want[i].Loc == want[i-1].Loc {
				i++
			}
			require.Equal(t, len(want), i, what)
			require.Nil(t, u.uniq.dedupe, "%s: no Dedupe", what)
			require.NoError(t, u.Close())

			left, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, left, "%s: files left", what)
		}
	}
}

// A sort by loc closed before its end, or while its buckets are sorted,
// stops, gives its memory back and leaves no file.
func TestSortBucketsClosedEarly(t *testing.T) {
	in := make(entries, 5000)
	for i := range in {
		in[i].Loc = fmt.Sprintf("https://www.example.com/%d", (i*7919)%5000)
	}
	for _, read := range []int{0, 1, 300, 4999} {
		for _, mem := range []int64{2 << 10, 64 << 10} {
			dir := t.TempDir()
			src := slices.Clone(in)
			s := SortWith(&src, SortLoc, SortOptions{TempDir: dir, MaxMemory: mem})
			for range read {
				_, err := s.Next()
				require.NoError(t, err)
			}
			require.NoError(t, s.Close())
			left, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Empty(t, left, "read %d, memory %d: files left", read, mem)
		}
	}
}
