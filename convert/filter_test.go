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
		filter  FilterOptions
		loc     string
		lastmod string
		want    string
	}{
		{FilterOptions{}, "https://anything.example/x", "", ""},
		{FilterOptions{Hosts: []string{"example.com"}}, "https://example.com/a", "", ""},
		{FilterOptions{Hosts: []string{"example.com"}}, "https://www.example.com/a", "", RuleHost},
		{FilterOptions{Hosts: []string{"Example.COM"}}, "https://example.com:8443/a", "", ""},
		{FilterOptions{Hosts: []string{"*.example.com"}}, "https://www.example.com/a", "", ""},
		{FilterOptions{Hosts: []string{"*.example.com"}}, "https://a.b.example.com/a", "", ""},
		{FilterOptions{Hosts: []string{"*.example.com"}}, "https://example.com/a", "", RuleHost},
		{FilterOptions{Hosts: []string{"*.example.com"}}, "https://badexample.com/a", "", RuleHost},
		{FilterOptions{Hosts: []string{"example.com", "*.example.com"}}, "https://example.com/", "", ""},
		{FilterOptions{Hosts: []string{"bücher.example"}}, "https://xn--bcher-kva.example/", "", ""},
		{FilterOptions{Scope: scope}, "https://example.com/blog/post", "", ""},
		{FilterOptions{Scope: scope}, "https://example.com/blog/", "", ""},
		{FilterOptions{Scope: scope}, "https://example.com/blog", "", RuleScope},
		{FilterOptions{Scope: scope}, "https://example.com/about", "", RuleScope},
		{FilterOptions{Scope: scope}, "http://example.com/blog/post", "", RuleScope},
		{FilterOptions{Scope: scope}, "https://www.example.com/blog/post", "", RuleScope},
		{FilterOptions{Include: []string{"/blog/*"}}, "https://example.com/blog/a", "", ""},
		{FilterOptions{Include: []string{"/blog/*"}}, "https://example.com/blog/a/b", "", RuleInclude},
		{FilterOptions{Include: []string{"/blog/**"}}, "https://example.com/blog/a/b?x=1", "", ""},
		{FilterOptions{Include: []string{"/a?c"}}, "https://example.com/abc", "", ""},
		{FilterOptions{Include: []string{"/"}}, "https://example.com", "", ""},
		{FilterOptions{Include: []string{"/blog/**", "/news/**"}}, "https://example.com/news/1", "", ""},
		{FilterOptions{Exclude: []string{"/tag/**"}}, "https://example.com/tag/go", "", RuleExclude},
		{FilterOptions{Exclude: []string{"/**.pdf"}}, "https://example.com/docs/a.pdf", "", RuleExclude},
		{FilterOptions{Exclude: []string{"/a+b(c)"}}, "https://example.com/a+b(c)", "", RuleExclude},
		{FilterOptions{Include: []string{"/**"}, Exclude: []string{"/private/**"}}, "https://example.com/private/x", "", RuleExclude},
		{FilterOptions{Since: cutoff}, "https://example.com/", "2024-06-01", ""},
		{FilterOptions{Since: cutoff}, "https://example.com/", "2024-05-31T23:59:59Z", RuleSince},
		{FilterOptions{Since: cutoff}, "https://example.com/", "", RuleSince},
		{FilterOptions{NotBefore: cutoff}, "https://example.com/", "2024-05-31", RuleMaxAge},
		{FilterOptions{NotBefore: cutoff}, "https://example.com/", "", ""},
		{FilterOptions{NotBefore: cutoff}, "https://example.com/", "2024-07-01", ""},
		{FilterOptions{Hosts: []string{"other.example"}, Exclude: []string{"/**"}}, "https://example.com/", "", RuleHost},
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
	for _, bad := range []FilterOptions{{Hosts: []string{"example.com/path"}}, {Hosts: []string{""}}, {Include: []string{""}}} {
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
		order Order
		want  []string
	}{
		{SortLoc, []string{"a", "b", "c", "d"}},
		{SortLastMod, []string{"b", "c", "d", "a"}},
	} {
		r := entries(append([]formats.Entry(nil), in...))
		s := Sort(&r, tt.order, t.TempDir())
		var got []string
		for e, err := range formats.All(s) {
			require.NoError(t, err)
			got = append(got, e.Loc[len("https://e.example/"):])
		}
		require.NoError(t, s.Close())
		assert.Equal(t, tt.want, got)
	}
}

// TestFilterScopeEscapes: no spelling of a URL outside the sitemap's
// directory passes the scope rule, nor one of an excluded path the
// --exclude globs, nor one outside an --include glob; and the same origin
// spelled otherwise (default port, host case, trailing dot) stays in
// scope. Every loc is in the form ParseLoc gives, as readers give them.
func TestFilterScopeEscapes(t *testing.T) {
	scope, _ := url.Parse("https://example.com/blog/sitemap.xml")
	check := func(f FilterOptions, raw string) string {
		t.Helper()
		c, err := f.compile()
		require.NoError(t, err)
		loc, err := formats.ParseLoc(raw, nil)
		require.NoError(t, err, raw)
		return c.check(&formats.Entry{Loc: loc})
	}
	for _, raw := range []string{
		"https://example.com/blog/../admin",
		"https://example.com/blog/./../admin/x",
		"https://example.com/blog/%2e%2e/admin",
		"https://example.com/blog/%2E%2e/admin",
		"https://example.com/blog/.%2E/admin",
		"https://example.com/blog/%252e%252e/admin",
		"https://example.com/blog/..;/admin",
		"https://example.com/blog/..;jsessionid=1/admin",
		`https://example.com/blog/..\admin`,
		"https://example.com/blog/..%5Cadmin",
		"https://example.com/blog/..%2Fadmin",
		"https://example.com/blog/..%2fadmin",
		"https://example.com/blog/a/../../admin",
		"https://example.com/blog/..",
		"https://example.com:8443/blog/post",
		"https://example.com.evil.example/blog/post",
		"http://example.com/blog/post",
	} {
		assert.Equal(t, RuleScope, check(FilterOptions{Scope: scope}, raw), raw)
	}
	for _, raw := range []string{
		"https://example.com:443/blog/post",
		"https://EXAMPLE.com/blog/post",
		"https://example.com./blog/post",
		"https://example.com.:443/blog/post",
		"https://example.com/blog/%70ost",
		"https://example.com/blog/a/../post",
		"https://example.com/blog/post?x=../../admin",
		"https://example.com/blog/post#../../admin",
	} {
		assert.Equal(t, "", check(FilterOptions{Scope: scope}, raw), raw)
	}
	scope443, _ := url.Parse("https://Example.COM.:443/blog/")
	assert.Equal(t, "", check(FilterOptions{Scope: scope443}, "https://example.com/blog/post"))
	scope80, _ := url.Parse("http://example.com:80/blog/")
	assert.Equal(t, "", check(FilterOptions{Scope: scope80}, "http://example.com/blog/post"))
	assert.Equal(t, RuleScope, check(FilterOptions{Scope: scope80}, "http://example.com:8080/blog/post"))

	exclude := FilterOptions{Exclude: []string{"/admin/**"}}
	include := FilterOptions{Include: []string{"/blog/**"}}
	for _, raw := range []string{
		"https://example.com/blog/../admin/x",
		"https://example.com/blog/%2e%2e/admin/x",
		"https://example.com/%61dmin/x",
		"https://example.com/blog/..;/admin/x",
		"https://example.com/blog/..%5Cadmin/x",
	} {
		assert.Equal(t, RuleExclude, check(exclude, raw), raw)
		assert.Equal(t, RuleInclude, check(include, raw), raw)
	}
	assert.Equal(t, "", check(exclude, "https://example.com/blog/admin/x"))
	assert.Equal(t, "", check(include, "https://example.com/blog/a/../b"))

	hosts := FilterOptions{Hosts: []string{"example.com", "*.example.org"}}
	for raw, want := range map[string]string{
		"https://example.com./a":          "",
		"https://EXAMPLE.COM:443/a":       "",
		"https://www.example.org./a":      "",
		"https://example.com.evil.net/a":  RuleHost,
		"https://evilexample.com/a":       RuleHost,
		"https://example.org.evil.net/a":  RuleHost,
		"https://www.example.org.evil/a":  RuleHost,
		"https://ex%61mple.com/a":         "",
		"https://example.com%2eevil.net/": RuleHost,
	} {
		loc, err := formats.ParseLoc(raw, nil)
		if err != nil {
			continue // refused on reading: never reaches the filter
		}
		c, err := hosts.compile()
		require.NoError(t, err)
		assert.Equal(t, want, c.check(&formats.Entry{Loc: loc}), raw)
	}
}
