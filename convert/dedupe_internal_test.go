package convert

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

type entries []formats.Entry

func (s *entries) Next() (formats.Entry, error) {
	if len(*s) == 0 {
		return formats.Entry{}, io.EOF
	}
	e := (*s)[0]
	*s = (*s)[1:]
	return e, nil
}

// With every key hashing alike, pages are still told apart by key, and
// merged correctly.
func TestDedupeHashCollisions(t *testing.T) {
	day := func(d int) formats.LastMod {
		l, err := formats.ParseLastMod(fmt.Sprintf("2024-01-%02d", d))
		require.NoError(t, err)
		return l
	}
	in := entries{
		{Loc: "https://a.example/1", LastMod: day(1)},
		{Loc: "https://a.example/2", LastMod: day(1)},
		{Loc: "https://a.example/3"},
		{Loc: "https://a.example/2", LastMod: day(5)},
		{Loc: "https://a.example/1", LastMod: day(3)},
		{Loc: "https://a.example/3", LastMod: day(2)},
		{Loc: "https://a.example/2", LastMod: day(4)},
	}
	merged := 0
	m := newMerger(stream(&in), nil, Observe{Drop: func(Drop) { merged++ }}, t.TempDir())
	defer m.Close()
	m.hash = func(string) uint64 { return 0 } // 0 is stored as 1: one value for all

	var got []string
	for e, err := range formats.All(m) {
		require.NoError(t, err)
		got = append(got, e.Loc+" "+e.LastMod.String())
	}
	assert.Equal(t, []string{"https://a.example/1 2024-01-03", "https://a.example/2 2024-01-05", "https://a.example/3 2024-01-02"}, got)
	assert.Equal(t, 4, merged)
	assert.Nil(t, m.fallback, "freed once read")
}

func TestTableGrows(t *testing.T) {
	var tb table
	defer tb.free()
	for i := uint64(1); i <= 100000; i++ {
		p, found := tb.findOrInsert(i*0x9e3779b97f4a7c15 | 1)
		require.False(t, found)
		*p = int64(i)
	}
	for i := uint64(1); i <= 100000; i++ {
		p, found := tb.findOrInsert(i*0x9e3779b97f4a7c15 | 1)
		require.True(t, found)
		require.Equal(t, int64(i), *p)
	}
	assert.Equal(t, 100000, tb.n)
	assert.LessOrEqual(t, len(tb.slots)*16/100000, 40, "bytes per entry")
}

// multi is a list of entries from several inputs.
type multi struct {
	es     []formats.Entry
	inputs []int
	i      int
}

func (s *multi) Next() (formats.Entry, error) {
	if s.i == len(s.es) {
		return formats.Entry{}, io.EOF
	}
	s.i++
	return s.es[s.i-1], nil
}

func (s *multi) NextItem() (Item, error) {
	e, err := s.Next()
	if err != nil {
		return Item{}, err
	}
	return Item{Entry: e, Input: s.inputs[s.i-1]}, nil
}

// A plain merger (text inputs: nothing a later entry could replace) gives
// the same pages in the same order, and counts the same merges with the
// same inputs, as the merger that spools every entry, directly and through
// a pipe, with hashes of all sorts and with every key colliding.
func TestDedupePlainSameAsSpooled(t *testing.T) {
	var src multi
	for i := range 5000 {
		// Spellings that normalize alike, repeats near and far.
		n := (i * 7919) % 1700
		loc := fmt.Sprintf("https://www.example.com/page/%d", n)
		if i%3 == 0 {
			loc = fmt.Sprintf("HTTPS://WWW.EXAMPLE.COM:443/page/%d", n)
		}
		src.es = append(src.es, formats.Entry{Loc: loc})
		src.inputs = append(src.inputs, i/1000)
	}
	run := func(plain, piped bool, hash func(string) uint64) ([]string, []string) {
		in := src
		var merges []string
		var s Stream = &in
		if piped {
			p := Prefetch(&in)
			defer p.Close()
			s = p
		}
		m := newMerger(s, nil, Observe{Drop: func(d Drop) {
			merges = append(merges, fmt.Sprint(d.From, d.Into, d.Loc))
		}}, t.TempDir())
		defer m.Close()
		m.plain = plain
		if hash != nil {
			m.hash = hash
		}
		var got []string
		for e, err := range formats.All(m) {
			require.NoError(t, err)
			got = append(got, e.Loc)
		}
		return got, merges
	}
	for _, hash := range []func(string) uint64{nil, func(k string) uint64 { return uint64(len(k) % 3) }} {
		want, wantMerges := run(false, false, hash)
		require.Len(t, want, 1700)
		for _, piped := range []bool{false, true} {
			got, merges := run(true, piped, hash)
			assert.Equal(t, want, got, "piped %v", piped)
			assert.Equal(t, wantMerges, merges, "piped %v", piped)
		}
	}
}

// failingPlain is multi with an error, not io.EOF, after its entries.
type failingPlain struct{ multi }

var errFailing = errors.New("the input broke")

func (s *failingPlain) NextItem() (Item, error) {
	it, err := s.multi.NextItem()
	if err == io.EOF {
		err = errFailing
	}
	return it, err
}

// A plain merger that reads its source itself (no Prefetcher before it)
// reads it a batch at a time, and gives the pages read before an error,
// then the error.
func TestDedupePlainGivesWhatCameBeforeAnError(t *testing.T) {
	for _, n := range []int{0, 1, batchSize - 1, batchSize, batchSize + 1, 3*batchSize + 7} {
		var src failingPlain
		for i := range n {
			src.es = append(src.es, formats.Entry{Loc: fmt.Sprintf("https://www.example.com/%d", i%(n/2+1))})
			src.inputs = append(src.inputs, 0)
		}
		m := newMerger(&src, nil, nil, t.TempDir())
		m.plain = true
		var got []string
		var err error
		for {
			var e formats.Entry
			if e, err = m.Next(); err != nil {
				break
			}
			got = append(got, e.Loc)
		}
		m.Close()
		assert.ErrorIs(t, err, errFailing, "%d entries", n)
		assert.Len(t, got, min(n, n/2+1), "%d entries", n)
	}
}

// A table reserved for n keys holds them without growing, within the same
// bytes a key as a grown one; the hint from the inputs' sizes is one page
// a 64 bytes of local files, capped.
func TestTableReserve(t *testing.T) {
	var tb table
	defer tb.free()
	tb.reserve(100000, 1<<30)
	size := len(tb.slots)
	for i := uint64(1); i <= 100000; i++ {
		_, found := tb.findOrInsert(i*0x9e3779b97f4a7c15 | 1)
		require.False(t, found)
	}
	assert.Equal(t, size, len(tb.slots), "no growth")
	assert.LessOrEqual(t, len(tb.slots)*16/100000, 40, "bytes per entry")

	dir := t.TempDir()
	path := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(path, make([]byte, 64*1000), 0o644))
	assert.Equal(t, 1000, pagesHint([]Input{{Name: path, Path: path}, {Name: "-"}}, textPageBytes))

	// A gzipped input counts by its size uncompressed.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bytes.Repeat([]byte("<url><loc>https://www.example.com/a</loc></url>\n"), 96*2000/48))
	require.NoError(t, zw.Close())
	gzPath := filepath.Join(dir, "sitemap.xml.gz")
	require.NoError(t, os.WriteFile(gzPath, gz.Bytes(), 0o644))
	require.Less(t, gz.Len(), 96*2000/10)
	assert.Equal(t, 2000, pagesHint([]Input{{Name: gzPath, Path: gzPath}}, xmlPageBytes))
	assert.Equal(t, 0, pagesHint([]Input{{Name: dir, Path: dir}}, xmlPageBytes), "a directory")

	// The hint of a big input is capped, and the table reserved for it
	// takes 256 MiB (of which only what is touched is memory).
	big := filepath.Join(dir, "big.txt")
	require.NoError(t, os.WriteFile(big, nil, 0o644))
	require.NoError(t, os.Truncate(big, 1<<30))
	hint := pagesHint([]Input{{Name: big, Path: big}}, textPageBytes)
	assert.Equal(t, maxPagesHint, hint)
	var capped table
	defer capped.free()
	capped.reserve(hint, 1<<30)
	assert.Equal(t, 256<<20, len(capped.slots)*16)
	assert.Greater(t, len(capped.slots)*13/16, 12_000_000, "10M pages fit without growing")
}

// A plain dedupe gives back its table and its keys once its input ended,
// before Close, and Close gives them back when it stops early; a spooling
// one's table goes at Close too when the reading stops early.
func TestDedupeReleasesItsMemory(t *testing.T) {
	var src multi
	for i := range 3000 {
		src.es = append(src.es, formats.Entry{Loc: fmt.Sprintf("https://www.example.com/page/%d", i%2000)})
		src.inputs = append(src.inputs, 0)
	}
	for _, plain := range []bool{true, false} {
		for _, stopAt := range []int{0, 10} {
			in := src
			m := newMerger(&in, nil, nil, t.TempDir())
			m.plain = plain
			n := 0
			for _, err := range formats.All(m) {
				require.NoError(t, err)
				if n++; n == stopAt {
					break
				}
			}
			if stopAt == 0 {
				assert.Equal(t, 2000, n)
				if plain {
					assert.True(t, m.ptable.slots == nil, "the table, at the end of the input")
					assert.True(t, m.pages == nil, "the keys, at the end of the input")
				}
			}
			require.NoError(t, m.Close())
			assert.True(t, m.table.slots == nil && m.ptable.slots == nil, "plain %v, stopped at %d: the table, at Close", plain, stopAt)
			assert.True(t, m.pages == nil, "plain %v, stopped at %d: the keys, at Close", plain, stopAt)
		}
	}
}
