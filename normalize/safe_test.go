package normalize_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/normalize"
)

func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com:443/about#team":   "https://example.com/about",
		"http://example.com:80/a":              "http://example.com/a",
		"http://example.com:0080/a":            "http://example.com/a",
		"https://example.com:/a":               "https://example.com/a",
		"https://example.com:80/a":             "https://example.com:80/a",
		"http://example.com:8080/a":            "http://example.com:8080/a",
		"https://example.com/a/./b/../c":       "https://example.com/a/c",
		"https://example.com/a/..":             "https://example.com/",
		"https://example.com/../../a":          "https://example.com/a",
		"https://example.com/a?":               "https://example.com/a",
		"https://example.com/a?#x":             "https://example.com/a",
		"https://example.com/a?b=1#x":          "https://example.com/a?b=1",
		"https://user:p@example.com:443/a/../": "https://user:p@example.com/",
		"https://[::1]:443/a":                  "https://[::1]/a",
		"HTTPS://Example.COM/A%7e/%2e%2e/b":    "HTTPS://Example.COM/A%7e/%2e%2e/b", // case and escapes: --normalize
		"https://example.com/a/?q=../x":        "https://example.com/a/?q=../x",
		"https://example.com/..a/b.":           "https://example.com/..a/b.",
		"https://example.com":                  "https://example.com",
		"ftp://example.com:21/a#b":             "ftp://example.com:21/a#b",
		"https://example.com/a#":               "https://example.com/a",
	} {
		assert.Equal(t, want, normalize.Safe(in), in)
		assert.Equal(t, normalize.Key(in), normalize.Key(normalize.Safe(in)), "the same page: %s", in)
	}
	plain := "https://example.com/a/b?c=1"
	assert.Zero(t, testing.AllocsPerRun(100, func() { normalize.Safe(plain) }))
}
