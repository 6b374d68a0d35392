package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

const sectionSite = "../../testdata/sections/site.xml"

// dirNames returns the names of the files in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	var ns []string
	for _, d := range des {
		ns = append(ns, d.Name())
	}
	slices.Sort(ns)
	return ns
}

// checkGoldenSet compares every file of dir with the golden files of
// goldenDir, which must be the same files: an index and its sections.
func checkGoldenSet(t *testing.T, dir, goldenDir string) {
	t.Helper()
	for _, name := range dirNames(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		conformance.ValidateXML(t, b)
		golden.Check(t, filepath.Join(goldenDir, name), b)
	}
	if want, err := os.ReadDir(goldenDir); err == nil && !t.Failed() {
		var names []string
		for _, d := range want {
			names = append(names, d.Name())
		}
		assert.Equal(t, names, dirNames(t, dir), "the golden files are the files written")
	}
}

// convert --split-by as a user types it: one sitemap per section, split
// at --max-urls, listed by the index in the order of the names.
func TestSplitByPath(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	_, errOut, status := runCLIAtTerminal(t, nil, sectionSite, "-o", out, "--base-url", "https://example.com/", "--split-by", "path", "--max-urls", "2")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, "left out 2 URLs outside https://example.com/", "the scope rule holds as without sections")
	assert.Contains(t, errOut, "wrote 11 to "+out+", an index of 7 parts\n")
	checkGoldenSet(t, dir, "../../testdata/golden/sections/path")
	names := dirNames(t, dir)
	for i, want := range []string{"blog-1", "blog-2", "caf", "docs", "root", "shop-1", "shop-2"} {
		assert.Regexp(t, regexp.MustCompile(`^sitemap-`+want+`-[0-9a-f]{8}\.xml$`), names[i])
	}

	// path:2, over the same output: the sections of the first run are
	// gone, the new ones in their place.
	_, errOut, status = runCLI(t, nil, sectionSite, "-o", out, "--base-url", "https://example.com/", "--split-by", "path:2")
	require.Equal(t, exitOK, status, errOut)
	got := strings.Join(dirNames(t, dir), " ")
	assert.Regexp(t, `^sitemap-blog-\w{8}\.xml sitemap-caf-\w{8}\.xml sitemap-docs-\w{8}\.xml sitemap-root-\w{8}\.xml `+
		`sitemap-shop-\w{8}\.xml sitemap-shop-bags-\w{8}\.xml sitemap-shop-shoes-\w{8}\.xml sitemap\.xml$`, got)
}

// --split-by host, with --allow-cross-host: a sitemap per host, gzipped;
// the account lists the files.
func TestSplitByHost(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	reportPath := filepath.Join(t.TempDir(), "report.json")
	_, errOut, status := runCLI(t, nil, sectionSite, "-o", out, "--base-url", "https://example.com/", "--split-by", "host",
		"--allow-cross-host", "--report", reportPath)
	require.Equal(t, exitOK, status, errOut)
	checkGoldenSet(t, dir, "../../testdata/golden/sections/host")
	var r report
	b, err := os.ReadFile(reportPath)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &r))
	require.Len(t, r.Files, 3)
	assert.Regexp(t, `sitemap-example\.com-\w{8}\.xml$`, r.Files[0].Path)
	assert.Equal(t, 11, r.Files[0].Entries)
	assert.Regexp(t, `sitemap-shop\.example\.org-\w{8}\.xml$`, r.Files[1].Path)
	assert.Equal(t, 2, r.Files[1].Entries)
	assert.Equal(t, out, r.Files[2].Path)

	gz := filepath.Join(t.TempDir(), "sitemap.xml")
	_, errOut, status = runCLI(t, nil, sectionSite, "-o", gz, "--base-url", "https://example.com/", "--split-by", "host", "--allow-cross-host", "--gzip")
	require.Equal(t, exitOK, status, errOut)
	assert.Regexp(t, `^sitemap-example\.com-\w{8}\.xml\.gz sitemap-shop\.example\.org-\w{8}\.xml\.gz sitemap\.xml\.gz$`,
		strings.Join(dirNames(t, filepath.Dir(gz)), " "))
}

// --accumulate reads the previous set by section through its index, and
// merges the inputs into it.
func TestSplitByAccumulate(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	args := []string{"-", "-o", out, "--base-url", "https://example.com/", "--split-by", "path", "--to", "xml"}
	_, errOut, status := runCLI(t, strings.NewReader("https://example.com/blog/a\nhttps://example.com/shop/b\n"), args...)
	require.Equal(t, exitOK, status, errOut)
	_, errOut, status = runCLI(t, strings.NewReader("https://example.com/blog/c\n"), append(args, "--accumulate")...)
	require.Equal(t, exitOK, status, errOut)
	text, errOut, status := runCLI(t, nil, out, "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "https://example.com/blog/a\nhttps://example.com/blog/c\nhttps://example.com/shop/b\n", text)
	assert.Len(t, dirNames(t, dir), 3, "blog, shop and the index")
}

// What --split-by cannot write is a usage error, before anything is read
// or written.
func TestSplitByUsageErrors(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "sitemap.xml")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--split-by", "path"}, "give the index's path (-o sitemap.xml) and --base-url"},
		{[]string{"-o", x, "--split-by", "path"}, "give --base-url (--base-url https://example.com/"},
		{[]string{"-o", x, "--split-by", "dir", "--base-url", "https://example.com/"}, "give path (the first directory"},
		{[]string{"-o", x, "--split-by", "path:0", "--base-url", "https://example.com/"}, "path:N takes N directories, 1 to 16"},
		{[]string{"-o", filepath.Join(dir, "urls.txt"), "--one-file", "--split-by", "host"}, "give one or the other"},
		{[]string{"-o", filepath.Join(dir, "feed.rss"), "--split-by", "path", "--base-url", "https://example.com/"}, "rss is written as one document"},
	} {
		_, errOut, status := runCLI(t, strings.NewReader("https://example.com/a/b\n"), append([]string{"-"}, tt.args...)...)
		assert.Equal(t, exitUsage, status, "%v: %s", tt.args, errOut)
		assert.Contains(t, errOut, tt.want, "%v", tt.args)
	}
	assert.Empty(t, dirNames(t, dir))
}
