package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHTMLViewSplitSet writes a list of URLs as HTML pages split at
// --max-urls: part pages named like a sitemap's parts, and sitemap.html an
// index page whose links are the parts' URLs; each part page lists its
// share of the URLs, in order, linked exactly and shown decoded.
func TestHTMLViewSplitSet(t *testing.T) {
	var list strings.Builder
	for i := range 5 {
		fmt.Fprintf(&list, "https://example.com/caf%%C3%%A9/%d\n", i)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "big.txt")
	require.NoError(t, os.WriteFile(in, []byte(list.String()), 0o644))
	out := filepath.Join(dir, "out")
	require.NoError(t, os.Mkdir(out, 0o755))
	_, errOut, status := runCLI(t, nil, in, "-o", filepath.Join(out, "sitemap.html"), "--base-url", "https://x/", "--max-urls", "2")
	require.Equal(t, exitOK, status, errOut)

	index, err := os.ReadFile(filepath.Join(out, "sitemap.html"))
	require.NoError(t, err)
	links := regexp.MustCompile(`<a href="https://x/(sitemap-[1-9]-[0-9a-f]{8}\.html)">`).FindAllStringSubmatch(string(index), -1)
	require.Len(t, links, 3, string(index))
	assert.Contains(t, string(index), "<h1>Sitemap index</h1>")
	names, err := filepath.Glob(filepath.Join(out, "*"))
	require.NoError(t, err)
	assert.Len(t, names, 4, "three part pages and the index page: %v", names)

	n := 0
	for i, l := range links {
		page, err := os.ReadFile(filepath.Join(out, l[1]))
		require.NoError(t, err, "the index links %s", l[1])
		assert.Contains(t, string(page), "<h1>Sitemap</h1>")
		assert.True(t, strings.HasPrefix(l[1], fmt.Sprintf("sitemap-%d-", i+1)), l[1])
		rows := strings.Count(string(page), `<tr><th scope="row">`)
		for j := range rows {
			assert.Contains(t, string(page), fmt.Sprintf(`<a href="https://example.com/caf%%C3%%A9/%d">https://example.com/café/%d</a>`, n+j, n+j))
		}
		n += rows
	}
	assert.Equal(t, 5, n, "the parts list every URL once")

	one, errOut, status := runCLI(t, nil, in, "--to", "html")
	require.Equal(t, exitOK, status, errOut)
	assert.True(t, strings.HasPrefix(one, "<!DOCTYPE html>\n"), one)
	assert.Equal(t, 5, strings.Count(one, `<tr><th scope="row">`))
}
