package normalize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestScopeKey: the spellings of a path that servers resolve to another
// directory are resolved, and those of the same origin are one.
func TestScopeKey(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/blog/post":                     "https://example.com/blog/post",
		"https://example.com/blog/post?q=1#f":               "https://example.com/blog/post",
		"https://Example.COM.:443/blog/":                    "https://example.com/blog/",
		"http://example.com:80":                             "http://example.com/",
		"https://example.com:8443/a":                        "https://example.com:8443/a",
		"https://example.com/blog/../admin":                 "https://example.com/admin",
		"https://example.com/blog/%2E%2e/admin":             "https://example.com/admin",
		"https://example.com/blog/%252e%252e/admin":         "https://example.com/admin",
		"https://example.com/blog/%25252e%25252e/admin":     "https://example.com/admin",
		"https://example.com/blog/..;/admin":                "https://example.com/admin",
		"https://example.com/blog;v=1/post;jsessionid=2":    "https://example.com/blog/post",
		`https://example.com/blog/..\admin`:                 "https://example.com/admin",
		"https://example.com/blog/..%5cadmin":               "https://example.com/admin",
		"https://example.com/blog/..%2Fadmin":               "https://example.com/admin",
		"https://example.com/a%20b/100%25":                  "https://example.com/a%20b/100%25",
		"not a url":                                         "not a url",
		"https://[2001:db8::1]:443/blog/../x":               "https://[2001:db8::1]/x",
		"https://example.com./":                             "https://example.com/",
		"https://example.com/blog/..%252Fadmin":             "https://example.com/admin",
		"https://example.com/blog/%2e%2e%5c%2e%2e%5cadmin/": "https://example.com/admin/",
	} {
		assert.Equal(t, want, ScopeKey(in), in)
		assert.Equal(t, ScopeKey(in), ScopeKey(ScopeKey(in)), "idempotent: %s", in)
	}
}

// BenchmarkScopeKey measures the scope form of a plain loc (the common
// case, Key's fast path) and of one with dot segments and escapes.
func BenchmarkScopeKey(b *testing.B) {
	for _, loc := range []string{"https://example.com/blog/2024/05/a-post-title", "https://example.com/blog/%2e%2e/..;/a%5Cb/../c?q=1"} {
		b.Run(loc[len("https://example.com"):][:8], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ScopeKey(loc)
			}
		})
	}
}

// FuzzURLScope checks that the scope prefix URLScope finds in the scan of a
// loc in normal form is the ScopeKey of the loc computed the long way, for
// any options, and that it is found for the plain locs of sitemaps.
func FuzzURLScope(f *testing.F) {
	for _, c := range urlCases {
		f.Add(c.in, fuzzBits(c.opt))
	}
	for _, s := range []string{"https://example.com./a", "https://example.com/a;b/c", "https://example.com/a%2Fb?q=1",
		"https://example.com:8080/a/b?q=%2F", "http://a/b?c", "https://example.com/blog/2024?x=1&y"} {
		f.Add(s, uint16(0))
	}
	f.Fuzz(func(t *testing.T, in string, bits uint16) {
		o := fuzzOptions(bits)
		key, scope := o.URLScope(in)
		if key != o.URL(in) {
			t.Fatalf("URLScope(%q) with %+v gives the key %q, URL %q", in, *o, key, o.URL(in))
		}
		if scope == 0 {
			return
		}
		if key != in {
			t.Fatalf("URLScope(%q) with %+v: a scope (%d) for a loc not in normal form (%q)", in, *o, scope, key)
		}
		if want := scopeKeyOf(Key(in)); in[:scope] != want {
			t.Fatalf("URLScope(%q) with %+v: scope %q, ScopeKey the long way %q", in, *o, in[:scope], want)
		}
	})
}

// TestURLScopeFound: the scan finds the scope of plain locs, with and
// without a query and a port, and leaves the rest to ScopeKey.
func TestURLScopeFound(t *testing.T) {
	for in, want := range map[string]int{
		"https://example.com/blog/post":          len("https://example.com/blog/post"),
		"https://example.com/blog/post?q=1&r=2":  len("https://example.com/blog/post"),
		"https://example.com:8443/a/?q":          len("https://example.com:8443/a/"),
		"https://example.com./a":                 0, // the trailing dot goes
		"https://example.com/a%2Fb":              0, // an escape
		"https://example.com/a;jsessionid=1/b":   0, // a path parameter
		"https://Example.com/a":                  0, // not in normal form
		"https://example.com/blog/../admin?q=1":  0,
		"https://example.com/blog/post?q=%2F&r=": len("https://example.com/blog/post"),
	} {
		_, got := (*Options)(nil).URLScope(in)
		assert.Equal(t, want, got, in)
		if got > 0 {
			assert.Equal(t, ScopeKey(in), in[:got], in)
		}
	}
}
