package convert

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

func TestFilterRules(t *testing.T) {
	day := func(s string) formats.LastMod {
		l, err := formats.ParseLastMod(s)
		require.NoError(t, err)
		return l
	}
	scope, _ := url.Parse("https://example.com/blog/sitemap.xml")
	cutoff := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		filter  Filter
		loc     string
		lastmod string
		want    string
	}{
		{Filter{}, "https://anything.example/x", "", ""},
		{Filter{Hosts: []string{"example.com"}}, "https://example.com/a", "", ""},
		{Filter{Hosts: []string{"example.com"}}, "https://www.example.com/a", "", RuleHost},
		{Filter{Hosts: []string{"Example.COM"}}, "https://example.com:8443/a", "", ""},
		{Filter{Hosts: []string{"*.example.com"}}, "https://www.example.com/a", "", ""},
		{Filter{Hosts: []string{"*.example.com"}}, "https://a.b.example.com/a", "", ""},
		{Filter{Hosts: []string{"*.example.com"}}, "https://example.com/a", "", RuleHost},
		{Filter{Hosts: []string{"*.example.com"}}, "https://badexample.com/a", "", RuleHost},
		{Filter{Hosts: []string{"example.com", "*.example.com"}}, "https://example.com/", "", ""},
		{Filter{Hosts: []string{"bücher.example"}}, "https://xn--bcher-kva.example/", "", ""},
		{Filter{Scope: scope}, "https://example.com/blog/post", "", ""},
		{Filter{Scope: scope}, "https://example.com/blog/", "", ""},
		{Filter{Scope: scope}, "https://example.com/blog", "", RuleScope},
		{Filter{Scope: scope}, "https://example.com/about", "", RuleScope},
		{Filter{Scope: scope}, "http://example.com/blog/post", "", RuleScope},
		{Filter{Scope: scope}, "https://www.example.com/blog/post", "", RuleScope},
		{Filter{Include: []string{"/blog/*"}}, "https://example.com/blog/a", "", ""},
		{Filter{Include: []string{"/blog/*"}}, "https://example.com/blog/a/b", "", RuleInclude},
		{Filter{Include: []string{"/blog/**"}}, "https://example.com/blog/a/b?x=1", "", ""},
		{Filter{Include: []string{"/a?c"}}, "https://example.com/abc", "", ""},
		{Filter{Include: []string{"/"}}, "https://example.com", "", ""},
		{Filter{Include: []string{"/blog/**", "/news/**"}}, "https://example.com/news/1", "", ""},
		{Filter{Exclude: []string{"/tag/**"}}, "https://example.com/tag/go", "", RuleExclude},
		{Filter{Exclude: []string{"*.pdf", "/**.pdf"}}, "https://example.com/docs/a.pdf", "", RuleExclude},
		{Filter{Exclude: []string{"/a+b(c)"}}, "https://example.com/a+b(c)", "", RuleExclude},
		{Filter{Include: []string{"/**"}, Exclude: []string{"/private/**"}}, "https://example.com/private/x", "", RuleExclude},
		{Filter{Since: cutoff}, "https://example.com/", "2024-06-01", ""},
		{Filter{Since: cutoff}, "https://example.com/", "2024-05-31T23:59:59Z", RuleSince},
		{Filter{Since: cutoff}, "https://example.com/", "", RuleSince},
		{Filter{NotBefore: cutoff}, "https://example.com/", "2024-05-31", RuleMaxAge},
		{Filter{NotBefore: cutoff}, "https://example.com/", "", ""},
		{Filter{NotBefore: cutoff}, "https://example.com/", "2024-07-01", ""},
		{Filter{Hosts: []string{"other.example"}, Exclude: []string{"/**"}}, "https://example.com/", "", RuleHost},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v %s %s", tt.filter, tt.loc, tt.lastmod), func(t *testing.T) {
			f, err := tt.filter.compile()
			require.NoError(t, err)
			e := formats.Entry{Loc: tt.loc}
			if tt.lastmod != "" {
				e.LastMod = day(tt.lastmod)
			}
			assert.Equal(t, tt.want, f.check(&e))
		})
	}
	for _, bad := range []Filter{{Hosts: []string{"example.com/path"}}, {Hosts: []string{""}}, {Include: []string{""}}} {
		_, err := bad.compile()
		assert.Error(t, err, "%+v", bad)
	}
}

func TestSort(t *testing.T) {
	lm := func(s string) formats.LastMod {
		if s == "" {
			return formats.LastMod{}
		}
		l, err := formats.ParseLastMod(s)
		require.NoError(t, err)
		return l
	}
	in := []formats.Entry{
		{Loc: "https://e.example/c", LastMod: lm("2024-01-02")},
		{Loc: "https://e.example/a"},
		{Loc: "https://e.example/b", LastMod: lm("2024-01-03")},
		{Loc: "https://e.example/d", LastMod: lm("2024-01-02")},
	}
	for _, tt := range []struct {
		order Sort
		want  []string
	}{
		{SortLoc, []string{"a", "b", "c", "d"}},
		{SortLastMod, []string{"b", "c", "d", "a"}},
	} {
		r := entries(append([]formats.Entry(nil), in...))
		s := newSorter(&r, tt.order, t.TempDir())
		var got []string
		for e, err := range formats.All(s) {
			require.NoError(t, err)
			got = append(got, e.Loc[len("https://e.example/"):])
		}
		require.NoError(t, s.Close())
		assert.Equal(t, tt.want, got)
	}
}

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
	s := newSorter(&in, SortLoc, t.TempDir())
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
	assert.NotNil(t, s.sp, "went through the spool")
	assert.Greater(t, len(s.runs.scanners), 1)
}
