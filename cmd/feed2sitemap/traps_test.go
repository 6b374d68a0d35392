package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeInput writes a URL list of locs to dir/name and returns its path.
func writeInput(t *testing.T, dir, name string, locs ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(locs, "\n")+"\n"), 0o644))
	return path
}

func TestAccumulateAcrossGzip(t *testing.T) {
	for _, split := range []bool{false, true} {
		for _, first := range []string{"sitemap.xml", "sitemap.xml.gz"} {
			dir := t.TempDir()
			second := otherName(first)
			a := writeInput(t, dir, "a.txt", "https://a.example/1", "https://a.example/2")
			b := writeInput(t, dir, "b.txt", "https://a.example/3")
			var extra []string
			if split {
				extra = []string{"--max-urls", "1", "--base-url", "https://a.example/"}
			}
			_, errOut, status := runCLI(t, nil, append([]string{a, "-o", filepath.Join(dir, first)}, extra...)...)
			require.Equal(t, exitOK, status, errOut)
			_, errOut, status = runCLI(t, nil, append([]string{b, "-o", filepath.Join(dir, second), "--accumulate"}, extra...)...)
			require.Equal(t, exitOK, status, errOut)
			assert.Contains(t, errOut, "warning: "+filepath.Join(dir, first)+" is an earlier output written", "the stale set is named")
			out, errOut, status := runCLI(t, nil, filepath.Join(dir, second), "--to", "text", "--sort", "loc")
			require.Equal(t, exitOK, status, errOut)
			assert.Equal(t, "https://a.example/1\nhttps://a.example/2\nhttps://a.example/3\n", out,
				"split %v, %s then %s: the previous set is found in the other compression", split, first, second)
		}
	}
}

// otherName returns name with .gz added, or removed.
func otherName(name string) string {
	if s, ok := strings.CutSuffix(name, ".gz"); ok {
		return s
	}
	return name + ".gz"
}

func TestSplitHintSuggestsTheSiteRoot(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "urls.txt", "https://shop.example:8443/a", "https://shop.example:8443/b/c", "https://shop.example:8443/d")
	_, errOut, status := runCLI(t, nil, in, "-o", filepath.Join(dir, "sitemap.xml"), "--max-urls", "2")
	require.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "(--base-url https://shop.example:8443/, where the index and its parts will be served: the site's root")
	assert.Contains(t, errOut, "the protocol's scope rule")
	assert.NotContains(t, errOut, "lower nothing")
	assert.NotContains(t, errOut, "--base-url https://example.com/sitemaps/")

	// Following the hint keeps every URL.
	_, errOut, status = runCLI(t, nil, in, "-o", filepath.Join(dir, "sitemap.xml"), "--max-urls", "2", "--base-url", "https://shop.example:8443/")
	require.Equal(t, exitOK, status, errOut)
	assert.NotContains(t, errOut, "left out")
}

func TestOneFilePlainList(t *testing.T) {
	dir := t.TempDir()
	var in strings.Builder
	for i := range 50_003 {
		fmt.Fprintf(&in, "https://a.example/%d\n", i)
	}
	all := filepath.Join(dir, "all.txt")
	_, errOut, status := runCLI(t, strings.NewReader(in.String()), "--to", "text", "-o", all)
	require.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "--one-file writes one plain list with no limit", "the error names the plain list mode")

	_, errOut, status = runCLI(t, strings.NewReader(in.String()), "-o", all, "--one-file")
	require.Equal(t, exitOK, status, errOut)
	assert.Empty(t, errOut, "a list for tools: no warning about the protocol's limits")
	b, err := os.ReadFile(all)
	require.NoError(t, err)
	assert.Equal(t, in.String(), string(b), "one file, every URL")
	matches, err := filepath.Glob(filepath.Join(dir, "*"))
	require.NoError(t, err)
	assert.Equal(t, []string{all}, matches, "no parts, no index")

	for _, args := range [][]string{
		{"-o", filepath.Join(dir, "all.xml"), "--one-file"},
		{"--to", "text", "--one-file"},
		{"-o", all, "--one-file", "--max-urls", "10"},
	} {
		_, errOut, status := runCLI(t, strings.NewReader(in.String()), args...)
		assert.Equal(t, exitUsage, status, "%q: %s", args, errOut)
	}
}

func TestGlobsThroughTheCommand(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "urls.txt", "https://a.example/a.html", "https://a.example/b/c.php", "https://a.example/d.asp", "https://a.example/e/f.html")
	out, errOut, status := runCLI(t, nil, in, "--to", "text", "--include", "/**/*.{html,php}", "--exclude", "/[e]/*")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "https://a.example/a.html\nhttps://a.example/b/c.php\n", out)

	_, errOut, status = runCLI(t, nil, in, "--to", "text", "--exclude", "*.html")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `glob "*.html": a glob matches the whole path of a URL, which starts with /, so this one never matches: did you mean /**/*.html`)
}

func TestSubmitNormalForm(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "urls.txt", "https://example.com:443/about#team", "https://Example.com/a/./b?", "https://example.com/c", "https://www.example.com:443/d")
	out, errOut, status := runCLI(t, nil, "submit", "--dry-run", "--indexnow-key", testKey, in)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "feed2sitemap: dry run: would submit 4 URLs in 2 batches for 2 hosts to https://api.indexnow.org/indexnow\n", errOut)
	assert.Equal(t, `{"host":"example.com","key":"`+testKey+`","urlList":["https://example.com/about","https://example.com/a/b","https://example.com/c"]}`+"\n"+
		`{"host":"www.example.com","key":"`+testKey+`","urlList":["https://www.example.com/d"]}`+"\n", out)
}

func TestStylesheetFromAnotherOrigin(t *testing.T) {
	dir := t.TempDir()
	in := writeInput(t, dir, "urls.txt", "https://a.example/1")
	_, errOut, status := runCLI(t, nil, in, "-o", filepath.Join(dir, "sitemap.xml"), "--base-url", "https://a.example/", "--stylesheet", "https://cdn.example/sitemap.xsl")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "browsers load a sitemap's stylesheet only from the sitemap's own origin (https://a.example)")
	for _, ok := range []string{"/sitemap.xsl", "https://A.example/sitemap.xsl"} {
		_, errOut, status = runCLI(t, nil, in, "-o", filepath.Join(dir, "sitemap.xml"), "--base-url", "https://a.example/", "--stylesheet", ok)
		assert.Equal(t, exitOK, status, errOut)
	}
}
