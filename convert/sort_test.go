package convert

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// A sort bigger than one run goes through the spool and merges the runs,
// stably.
func TestSortRuns(t *testing.T) {
	const n = 400000 // three runs of sortRunBytes
	in := make(entries, n)
	for i := range in {
		in[i] = formats.Entry{Loc: fmt.Sprintf("https://e.example/%d", (i*7919)%(n/2))}
		if i < n/2 {
			in[i].ChangeFreq = formats.Daily // marks the first of two equal locs
		}
	}
	s := Sort(&in, SortLoc, t.TempDir())
	defer s.Close()
	var prev formats.Entry
	count := 0
	for e, err := range formats.All(s) {
		require.NoError(t, err)
		if count > 0 {
			require.LessOrEqual(t, prev.Loc, e.Loc)
			if prev.Loc == e.Loc {
				require.Equal(t, formats.Daily, prev.ChangeFreq, "stable: the earlier of equal entries first")
				require.Empty(t, e.ChangeFreq)
			}
		}
		prev = e
		count++
	}
	assert.Equal(t, n, count)
	require.NotNil(t, s.runs, "went through the spool")
	assert.Greater(t, s.runs.parts, 1)
}

// BenchmarkSort sorts 1,000,000 entries of a site's URL shapes (sections,
// dates, words, numbers; a third with a lastmod) through runs in the
// spool, by each order; SortNone is the cost of reading them, to compare
// with.
func BenchmarkSort(b *testing.B) {
	const n = 1000000
	words := strings.Fields("sitemap feed cache index search archive notes guide garden coffee bicycle travel winter recipe bread kitchen")
	in := make(entries, n)
	for i := range in {
		w := func(k int) string { return words[(i*k+i/7)%len(words)] }
		switch i % 4 {
		case 0:
			in[i].Loc = fmt.Sprintf("https://www.example.com/blog/%d/%02d/%s-%s-%d/", 2010+i%17, 1+i%12, w(3), w(5), i)
		case 1:
			in[i].Loc = fmt.Sprintf("https://www.example.com/products/%s/%s-p%d", w(7), w(11), i)
		case 2:
			in[i].Loc = fmt.Sprintf("https://www.example.com/search?q=%s+%s&p=%d", w(13), w(2), i)
		default:
			in[i].Loc = fmt.Sprintf("https://www.example.com/user/%s%d", w(5), i)
		}
		if i%3 == 0 {
			in[i].LastMod = formats.NewLastMod(time.Date(2024, 1, 1+i%300, i%24, 0, 0, 0, time.UTC), formats.PrecisionSecond)
		}
	}
	dir := b.TempDir()
	for _, o := range []Order{SortNone, SortLoc, SortLastMod} {
		b.Run([]string{"none", "loc", "lastmod"}[o], func(b *testing.B) {
			for b.Loop() {
				src := in
				s := Sort(&src, o, dir)
				count := 0
				for _, err := range formats.All(s) {
					if err != nil {
						b.Fatal(err)
					}
					count++
				}
				s.Close()
				if count != n {
					b.Fatalf("%d entries, want %d", count, n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entry")
		})
	}
}

// A run sorts as a stable sort by Order.compare does, whatever the locs:
// prefixes of one another, lengths about the seven bytes of a key, bytes
// 0 and 255, many equal, few and many entries; and lastmods equal but for
// their zones or nanoseconds, or missing.
func TestRunSortsAsCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "\x00", "\xff", "/", "aaaaaaa", "https://e.example/"}
	loc := func() string {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	base := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	lastmod := func() formats.LastMod {
		if rng.IntN(5) == 0 {
			return formats.LastMod{}
		}
		at := base.Add(time.Duration(rng.IntN(3)) * time.Second).Add(time.Duration(rng.IntN(3)) * time.Nanosecond)
		return formats.NewLastMod(at.In(time.FixedZone("", 3600*rng.IntN(3))), formats.PrecisionSecond)
	}
	for _, n := range []int{0, 1, 2, 15, 16, 17, 100, 3000} {
		for _, o := range []Order{SortLoc, SortLastMod} {
			in := make([]Item, n)
			pool := []string{}
			for i := range in {
				if len(pool) > 0 && rng.IntN(3) == 0 {
					in[i].Entry.Loc = pool[rng.IntN(len(pool))] // an equal loc
				} else {
					in[i].Entry.Loc = "https://www.example.com/" + loc()
					pool = append(pool, in[i].Entry.Loc)
				}
				in[i].Entry.LastMod = lastmod()
				in[i].Input = i // tells equal entries apart
			}
			want := slices.Clone(in)
			slices.SortStableFunc(want, func(a, b Item) int { return o.compare(&a.Entry, &b.Entry) })
			r := &runBuf{budget: 1 << 30}
			for i := range in {
				require.True(t, r.add(&in[i], o))
			}
			r.sort(o)
			var d spool.Decoder
			for i := range want {
				var rec spool.Record
				_, err := d.Decode(r.record(i), &rec)
				require.NoError(t, err)
				require.Equal(t, want[i].Input, rec.Input, "n=%d order %d, entry %d: %q", n, o, i, want[i].Entry.Loc)
			}
		}
	}
}

// With runs of a few entries, hundreds of them are merged in passes, or
// tens at once; the order is a stable sort's all the same. The locs are
// those of a site, or of sections one after another, each run's locs
// having more bytes in common than all have (the last merge compares locs
// after those), some a prefix of others, short or with bytes 0 and 255
// after them. A spool that cannot be made is an error, from Next.
func TestSortTinyRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	lastmod := func() formats.LastMod {
		if rng.IntN(2) == 0 {
			return formats.NewLastMod(time.Date(2024, 1, 1+rng.IntN(3), 0, 0, 0, 0, time.UTC), formats.PrecisionDay)
		}
		return formats.LastMod{}
	}
	site := make(entries, 5000)
	for i := range site {
		site[i].Loc = fmt.Sprintf("https://www.example.com/%d/%d", rng.IntN(50), rng.IntN(50))
		site[i].LastMod = lastmod()
		site[i].Title = fmt.Sprint(i) // tells equal entries apart
	}
	alphabet := []string{"a", "b", "\x00", "\xff", "/", "aaaaaaa"}
	sections := make(entries, 1000) // in fewer runs than a merge takes at once
	for i := range sections {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		sections[i].Loc = fmt.Sprintf("https://www.example.com/%c/%s", 'a'+i/100, b.String())
		sections[i].LastMod = lastmod()
		sections[i].Title = fmt.Sprint(i)
	}
	for _, in := range []entries{site, sections} {
		sortTinyRuns(t, in)
	}
}

// sortTinyRuns checks the sort of in, both orders, in runs of a few
// entries.
func sortTinyRuns(t *testing.T, in entries) {
	for _, o := range []Order{SortLoc, SortLastMod} {
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b formats.Entry) int { return o.compare(&a, &b) })
		src := slices.Clone(in)
		s := SortWith(&src, o, SortOptions{TempDir: t.TempDir(), MaxMemory: 2 << 10})
		var got []string
		for e, err := range formats.All(s) {
			require.NoError(t, err)
			got = append(got, e.Title)
		}
		require.NotNil(t, s.runs)
		require.NoError(t, s.Close())
		require.Len(t, got, len(want))
		for i := range want {
			require.Equal(t, want[i].Title, got[i], "order %d, entry %d", o, i)
		}
	}
	src := slices.Clone(in)
	s := SortWith(&src, SortLoc, SortOptions{TempDir: t.TempDir() + "/missing", MaxMemory: 2 << 10})
	_, err := s.Next()
	require.Error(t, err)
	_, again := s.Next()
	require.Equal(t, err, again, "the same error again")
	require.NoError(t, s.Close())
}

// A sort by loc in runs of a few entries gives what a stable sort gives,
// whatever the locs: sharing long prefixes, prefixes of one another,
// equal, with bytes 0 and 255 (40 random lists; it failed a merge that
// compared its heads by offset-value codes padded with zeros).
func TestSortMergesAnyLocs(t *testing.T) {
	pieces := []string{"", "a", "b", "\x00", "\xff", "\x00\x00", "aaaaaaa", "ab", "/"}
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 17))
		in := make(entries, 200+rng.IntN(1500))
		for i := range in {
			var b strings.Builder
			b.WriteString("https://www.example.com/")
			for range rng.IntN(10) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			in[i].Loc = b.String()
			in[i].Title = fmt.Sprint(i)
		}
		want := slices.Clone(in)
		slices.SortStableFunc(want, func(a, b formats.Entry) int { return strings.Compare(a.Loc, b.Loc) })
		src := slices.Clone(in)
		s := SortWith(&src, SortLoc, SortOptions{TempDir: t.TempDir(), MaxMemory: 2 << 10})
		i := 0
		for e, err := range formats.All(s) {
			require.NoError(t, err)
			require.Less(t, i, len(want))
			require.Equal(t, want[i].Title, e.Title, "seed %d, entry %d: %q, want %q", seed, i, e.Loc, want[i].Loc)
			i++
		}
		require.NotNil(t, s.runs, "the entries went through runs")
		require.NoError(t, s.Close())
		require.Equal(t, len(want), i)
	}
}
