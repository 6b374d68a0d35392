package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// touch creates empty files in dir and returns their paths.
func touch(t *testing.T, dir string, names ...string) []string {
	t.Helper()
	var paths []string
	for _, n := range names {
		p := filepath.Join(dir, n)
		require.NoError(t, os.WriteFile(p, nil, 0o644))
		paths = append(paths, p)
	}
	return paths
}

func TestRobotsLines(t *testing.T) {
	dir := t.TempDir()
	files := touch(t, dir, "sitemap.xml.gz", "news.xml")
	for _, tc := range []struct {
		base string
		want string
	}{
		{"https://example.com", "Sitemap: https://example.com/sitemap.xml.gz\nSitemap: https://example.com/news.xml\n"},
		{"https://example.com/maps", "Sitemap: https://example.com/maps/sitemap.xml.gz\nSitemap: https://example.com/maps/news.xml\n"},
		{"https://example.com/maps/sitemap.xml.gz", "Sitemap: https://example.com/maps/sitemap.xml.gz\nSitemap: https://example.com/maps/news.xml\n"},
		{"HTTPS://Bücher.example/maps/", "Sitemap: https://xn--bcher-kva.example/maps/sitemap.xml.gz\nSitemap: https://xn--bcher-kva.example/maps/news.xml\n"},
	} {
		out, errOut, status := runCLI(t, nil, "robots", "--base-url", tc.base, files[0], files[1], files[0])
		require.Equal(t, exitOK, status, errOut)
		assert.Equal(t, tc.want, out, tc.base)
	}

	// -o writes a fresh file.
	robots := filepath.Join(dir, "robots.txt")
	require.NoError(t, os.WriteFile(robots, []byte("User-agent: *\n"), 0o600))
	_, errOut, status := runCLI(t, nil, "robots", "--base-url", "https://example.com/", "-o", robots, files[1])
	require.Equal(t, exitOK, status, errOut)
	got, err := os.ReadFile(robots)
	require.NoError(t, err)
	assert.Equal(t, "Sitemap: https://example.com/news.xml\n", string(got))
}

func TestRobotsErrors(t *testing.T) {
	dir := t.TempDir()
	files := touch(t, dir, "sitemap.xml")
	for _, tc := range []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"robots", files[0]}, exitUsage, "missing flags: --base-url"},
		{[]string{"robots", "--base-url", "https://example.com/"}, exitUsage, "expected \"<sitemap> ...\""},
		{[]string{"robots", "--base-url", "ftp://example.com/", files[0]}, exitUsage, "--base-url: base URL: not an http or https URL"},
		{[]string{"robots", "--base-url", "https://example.com/?a=1", files[0]}, exitUsage, "has a query, fragment or user name"},
		{[]string{"robots", "--base-url", "https://example.com/", filepath.Join(dir, "sitemap.xml.gz")}, exitFail, "no such file or directory (name the files convert wrote)"},
		{[]string{"robots", "--base-url", "https://example.com/", dir}, exitFail, "is not a file"},
		{[]string{"robots", "--base-url", "https://example.com/", "-o", "a", "--update", "b", files[0]}, exitUsage, "can't be used together"},
		{[]string{"robots", "--base-url", "https://example.com/", "--update", dir, files[0]}, exitUsage, "--update: " + dir + " is a directory, not a regular file"},
	} {
		_, errOut, status := runCLI(t, nil, tc.args...)
		assert.Equal(t, tc.status, status, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.msg, tc.args)
	}
}

// TestRobotsUpdateEndToEnd writes a split, gzipped sitemap set with
// convert, then declares its index in a real robots.txt: the old line of
// the set is replaced in place, nothing else changes, and a second run
// changes nothing.
func TestRobotsUpdateEndToEnd(t *testing.T) {
	dir := t.TempDir()
	urls := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(urls, []byte(urlList(5)), 0o644))
	out := filepath.Join(dir, "public", "sitemap.xml")
	require.NoError(t, os.Mkdir(filepath.Dir(out), 0o755))
	_, errOut, status := runCLI(t, nil, urls, "-o", out, "--gzip", "--max-urls", "2", "--base-url", "https://a.example/")
	require.Equal(t, exitOK, status, errOut)
	index := out + ".gz"
	require.FileExists(t, index)

	src, err := os.ReadFile("../../testdata/corpus/crawlercommons__robots-with-utf8-bom.txt")
	require.NoError(t, err)
	// The site used to declare its sitemap without gzip, in odd case, CRLF.
	before := strings.ReplaceAll(string(src), "\n", "\r\n") + "sitemap:https://a.example/sitemap.xml\r\n# end"
	robots := filepath.Join(dir, "public", "robots.txt")
	require.NoError(t, os.WriteFile(robots, []byte(before), 0o640))

	_, errOut, status = runCLI(t, nil, "robots", "--base-url", "https://a.example/", "--update", robots, index)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "feed2sitemap: "+robots+" updated: declares 1 sitemap\n", errOut)
	got, err := os.ReadFile(robots)
	require.NoError(t, err)
	want := strings.Replace(before, "sitemap:https://a.example/sitemap.xml\r\n", "Sitemap: https://a.example/sitemap.xml.gz\r\n", 1)
	assert.Equal(t, want, string(got))
	fi, err := os.Stat(robots)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm())

	// Again: nothing changes, not even the modification time.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(robots, old, old))
	_, errOut, status = runCLI(t, nil, "robots", "--base-url", "https://a.example/", "--update", robots, index)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "feed2sitemap: "+robots+" already declares 1 sitemap\n", errOut)
	again, err := os.ReadFile(robots)
	require.NoError(t, err)
	assert.Equal(t, string(got), string(again))
	fi, err = os.Stat(robots)
	require.NoError(t, err)
	assert.Equal(t, old, fi.ModTime())
	entries, err := os.ReadDir(filepath.Dir(robots))
	require.NoError(t, err)
	for _, e := range entries {
		assert.False(t, strings.Contains(e.Name(), ".tmp"), "temporary file left: %s", e.Name())
	}
}
