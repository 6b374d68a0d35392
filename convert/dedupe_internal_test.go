package convert

import (
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/normalize"
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

func (s *entries) Input() int { return 0 }

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
	m := newMerger(&in, normalize.Key, func(int, int, string) { merged++ }, t.TempDir())
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
