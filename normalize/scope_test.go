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
