package diff

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// entries is a formats.Reader over a slice, ending with err (io.EOF when
// nil).
type entries struct {
	list []formats.Entry
	err  error
}

func (r *entries) Next() (formats.Entry, error) {
	if len(r.list) == 0 {
		if r.err != nil {
			return formats.Entry{}, r.err
		}
		return formats.Entry{}, io.EOF
	}
	e := r.list[0]
	r.list = r.list[1:]
	return e, nil
}

func lastmod(t *testing.T, s string) formats.LastMod {
	t.Helper()
	l, err := formats.ParseLastMod(s)
	require.NoError(t, err)
	return l
}

// lines runs Compare and returns its changes as "kind loc field:old>new..."
// lines.
func lines(t *testing.T, o, n []formats.Entry, opts Options) ([]string, Stats) {
	t.Helper()
	var got []string
	st, err := Compare(&entries{list: o}, &entries{list: n}, opts, func(c Change) error {
		s := c.Kind.String() + " " + c.Loc()
		for _, f := range c.Fields {
			s += fmt.Sprintf(" %s:%s>%s", f.Name, f.Old, f.New)
		}
		got = append(got, s)
		return nil
	})
	require.NoError(t, err)
	return got, st
}

func TestCompareKinds(t *testing.T) {
	prio, ok := formats.NewPriority(0.8)
	require.True(t, ok)
	old := []formats.Entry{
		{Loc: "https://example.com/same", LastMod: lastmod(t, "2024-01-01")},
		{Loc: "https://example.com/gone"},
		{Loc: "https://example.com/dated", LastMod: lastmod(t, "2024-01-01")},
		{Loc: "https://example.com/freq", ChangeFreq: formats.Daily},
		{Loc: "https://example.com/img", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/a.png"}}}},
		{Loc: "https://example.com/img2", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/a.png"}}}},
		{Loc: "HTTPS://EXAMPLE.COM/spelled"},
	}
	new := []formats.Entry{
		{Loc: "https://example.com/new", Priority: prio},
		{Loc: "https://example.com/same", LastMod: lastmod(t, "2024-01-01")},
		{Loc: "https://example.com/dated", LastMod: lastmod(t, "2024-03-05T10:00:00Z")},
		{Loc: "https://example.com/freq", ChangeFreq: formats.Weekly, Priority: prio},
		{Loc: "https://example.com/img", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/a.png"}, {Loc: "https://example.com/b.png"}}}},
		{Loc: "https://example.com/img2", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/c.png"}}}},
		{Loc: "https://example.com/spelled"},
	}
	got, st := lines(t, old, new, Options{})
	assert.Equal(t, []string{
		"changed https://example.com/dated lastmod:2024-01-01>2024-03-05T10:00:00Z",
		"changed https://example.com/freq changefreq:daily>weekly priority:>0.8",
		"removed https://example.com/gone",
		"changed https://example.com/img images:1>2",
		"changed https://example.com/img2 images:1>1 (changed)",
		"added https://example.com/new",
	}, got)
	assert.Equal(t, Stats{Same: 2, Added: 1, Removed: 1, Changed: 4}, st)
	assert.True(t, st.Differ())
}

func TestCompareSame(t *testing.T) {
	set := []formats.Entry{{Loc: "https://example.com/a"}, {Loc: "https://example.com/b"}}
	got, st := lines(t, set, slices.Clone(set), Options{})
	assert.Empty(t, got)
	assert.False(t, st.Differ())
	assert.Equal(t, 2, st.Same)
}

func TestCompareExtensionsAppearAndVanish(t *testing.T) {
	news := &formats.News{Title: "A"}
	old := []formats.Entry{
		{Loc: "https://example.com/n", Ext: &formats.Extensions{News: news}},
		{Loc: "https://example.com/m", Ext: &formats.Extensions{Mobile: true}},
		{Loc: "https://example.com/f", Ext: &formats.Extensions{Foreign: []string{"<x:a xmlns:x=\"urn:x\"/>"}}},
		{Loc: "https://example.com/e", Ext: &formats.Extensions{}},
	}
	new := []formats.Entry{
		{Loc: "https://example.com/n", Ext: &formats.Extensions{News: &formats.News{Title: "B"}}},
		{Loc: "https://example.com/m"},
		{Loc: "https://example.com/f"},
		{Loc: "https://example.com/e"}, // an empty Extensions is no extension
	}
	got, _ := lines(t, old, new, Options{})
	assert.Equal(t, []string{
		"changed https://example.com/f foreign:1>",
		"changed https://example.com/m mobile:1>",
		"changed https://example.com/n news:1>1 (changed)",
	}, got)
}

func TestCompareFirstEntryOfAPageCounts(t *testing.T) {
	old := []formats.Entry{
		{Loc: "https://example.com/a", ChangeFreq: formats.Daily},
		{Loc: "https://example.com/a", ChangeFreq: formats.Weekly},
	}
	new := []formats.Entry{{Loc: "https://example.com/a", ChangeFreq: formats.Daily}}
	got, st := lines(t, old, new, Options{})
	assert.Empty(t, got)
	assert.Equal(t, Stats{Same: 1}, st)
}

// bigSets makes an old and a new set of n pages each that differ in every
// way, and the changes Compare must report.
func bigSets(t *testing.T, n int) (old, new []formats.Entry, want []string) {
	d1, d2 := lastmod(t, "2024-01-01"), lastmod(t, "2024-02-01")
	for i := range n {
		loc := fmt.Sprintf("https://example.com/p/%05d", i)
		switch i % 4 {
		case 0: // same
			old = append(old, formats.Entry{Loc: loc, LastMod: d1})
			new = append(new, formats.Entry{Loc: loc, LastMod: d1})
		case 1: // changed
			old = append(old, formats.Entry{Loc: loc, LastMod: d1})
			new = append(new, formats.Entry{Loc: loc, LastMod: d2})
			want = append(want, "changed "+loc+" lastmod:2024-01-01>2024-02-01")
		case 2: // removed
			old = append(old, formats.Entry{Loc: loc})
			want = append(want, "removed "+loc)
		case 3: // added, and listed twice
			new = append(new, formats.Entry{Loc: loc}, formats.Entry{Loc: loc, LastMod: d2})
			want = append(want, "added "+loc)
		}
	}
	return old, new, want
}

func TestCompareSpillsWhenTheSetsAreLarge(t *testing.T) {
	old, new, want := bigSets(t, 2000)
	inMemory, st := lines(t, old, new, Options{})
	assert.Equal(t, want, inMemory, "in memory, the changes come in URL order")
	for _, max := range []int{500, 100, 1} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			got, spilled := lines(t, old, new, Options{MaxEntries: max, TempDir: t.TempDir()})
			assert.ElementsMatch(t, want, got)
			assert.Equal(t, st, spilled)
		})
	}
}

func TestCompareSplitsPartitionsAgain(t *testing.T) {
	defer func(m int) { minSplit = m }(minSplit)
	minSplit = 1 // every partition of two pages or more is split, level after level
	old, new, want := bigSets(t, 48)
	// One page listed many times: a partition of one hash, never split.
	for range 40 {
		old = append(old, formats.Entry{Loc: "https://example.com/again"})
	}
	new = append(new, formats.Entry{Loc: "https://example.com/again"})
	got, st := lines(t, old, new, Options{MaxEntries: 1, TempDir: t.TempDir()})
	assert.ElementsMatch(t, want, got)
	assert.Equal(t, 13, st.Same)
}

func TestCompareStopsEarly(t *testing.T) {
	old, new, _ := bigSets(t, 100)
	calls := 0
	st, err := Compare(&entries{list: old}, &entries{list: new}, Options{}, func(Change) error {
		calls++
		if calls == 3 {
			return ErrStop
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 3, calls)
	assert.Equal(t, 3, st.Added+st.Removed+st.Changed)
}

func TestCompareReturnsReadErrors(t *testing.T) {
	bad := errors.New("the network went away")
	for _, max := range []int{0, 1} {
		_, err := Compare(&entries{list: []formats.Entry{{Loc: "https://example.com/"}}},
			&entries{list: []formats.Entry{{Loc: "https://example.com/a"}, {Loc: "https://example.com/b"}}, err: bad},
			Options{MaxEntries: max, TempDir: t.TempDir()}, func(Change) error { return nil })
		assert.ErrorIs(t, err, bad)
	}
	emitErr := errors.New("disk full")
	_, err := Compare(&entries{}, &entries{list: []formats.Entry{{Loc: "https://example.com/"}}}, Options{},
		func(Change) error { return emitErr })
	assert.ErrorIs(t, err, emitErr)
}

func TestKindString(t *testing.T) {
	assert.Equal(t, "added removed changed Kind(9)",
		strings.Join([]string{Added.String(), Removed.String(), Changed.String(), Kind(9).String()}, " "))
}
