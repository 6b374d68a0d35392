package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBaseURLScopeEscapes: --base-url's scope rule keeps what is under the
// sitemap's directory however its origin is spelled, and leaves out what
// only looks as if it were.
func TestBaseURLScopeEscapes(t *testing.T) {
	in := strings.Join([]string{
		"https://example.com/blog/post",
		"https://example.com:443/blog/other",
		"https://EXAMPLE.com./blog/third",
		"https://example.com/blog/../admin",
		"https://example.com/blog/%2e%2e/admin2",
		"https://example.com/blog/%2E%2e/admin3",
		"https://example.com/blog/..;/admin4",
		"https://example.com/blog/..%5Cadmin5",
		"https://example.com/blog/%252e%252e/admin6",
	}, "\n") + "\n"
	out := filepath.Join(t.TempDir(), "sitemap.xml")
	_, errOut, status := runCLI(t, strings.NewReader(in), "-", "-o", out, "--base-url", "https://example.com/blog/")
	require.Equal(t, exitOK, status, errOut)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	for _, kept := range []string{"/blog/post<", "/blog/other<", "/blog/third<"} {
		assert.Contains(t, string(got), kept)
	}
	assert.NotContains(t, string(got), "admin")
	assert.Contains(t, errOut, "left out 6 ")
}
