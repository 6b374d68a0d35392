package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// testSite is the small built site of the tests: nested index.html pages,
// noindex in odd case and order, a canonical link to another page, a
// language group with a page that forgot its links back, meta and JSON-LD
// dates, images, files that are no pages and a symbolic link out of it.
const testSite = "../../testdata/site"

// TestSiteGolden reads the test site through the command: the sitemaps
// are pinned byte for byte (-update rewrites them), valid against the
// schemas, and the account says what was left out and why.
func TestSiteGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"site.xml", nil},
		{"site-images-clean-urls.xml", []string{"--images", "--clean-urls"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, status := runCLI(t, nil, append([]string{testSite, "--base-url", "https://example.com/"}, tc.args...)...)
			require.Equal(t, exitOK, status, errOut)
			golden.Check(t, filepath.Join("..", "..", "testdata", "golden", "site", tc.name), []byte(out))
			conformance.ValidateXML(t, []byte(out))
		})
	}
	_, errOut, status := runCLI(t, nil, testSite, "--base-url", "https://example.com/")
	require.Equal(t, exitOK, status, errOut)
	site := filepath.Join("..", "..", "testdata", "site")
	assert.Equal(t, "feed2sitemap: warning: "+filepath.Join(site, "outside.html")+": symbolic link not followed: it leads out of the directory\n"+
		"feed2sitemap: warning: "+filepath.Join(site, "old.htm")+": left out: its canonical URL https://example.com/new/ is no page read from this directory "+
		"(is the site's URL right, and does the site serve clean URLs?)\n"+
		"feed2sitemap: read 8 entries from 1 input (0 invalid, 2 warnings), left out 5 pages not to be indexed, wrote 8 to standard output\n", errOut)
}

func TestSiteNeedsBaseURL(t *testing.T) {
	_, errOut, status := runCLI(t, nil, testSite, "-q")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "testdata/site: formats: a directory of pages needs the URL it is served at (--base-url gives it: the site's URL, such as https://example.com/)")

	_, errOut, status = runCLI(t, nil, "../../testdata/example/feed.rss", "--images")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--clean-urls, --lastmod-from and --images apply to a directory input")

	_, errOut, status = runCLI(t, nil, testSite, "--base-url", "https://example.com/", "--lastmod-from", "yesterday")
	assert.Equal(t, exitUsage, status, errOut)
}

// copySite copies the test site's regular files into a new directory.
func copySite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, filepath.WalkDir(testSite, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		rel, _ := filepath.Rel(testSite, p)
		switch {
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
		}
		return nil
	}))
	return dir
}

// An output inside the directory is served at its place in it: at the
// top, the sitemap covers the site; in a subdirectory, only the pages
// under it (the protocol's scope rule), which the account says.
func TestSiteOutputInside(t *testing.T) {
	site := copySite(t)
	report := filepath.Join(t.TempDir(), "report.json")
	_, errOut, status := runCLI(t, nil, site, "--base-url", "https://example.com/", "-o", filepath.Join(site, "sitemap.xml"), "--report", report, "-q")
	require.Equal(t, exitOK, status, errOut)
	got, err := os.ReadFile(filepath.Join(site, "sitemap.xml"))
	require.NoError(t, err)
	want, err := os.ReadFile("../../testdata/golden/site/site.xml")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	var rep struct {
		Inputs []struct {
			Format  string `json:"format"`
			LeftOut int    `json:"left_out"`
		} `json:"inputs"`
		Totals struct {
			LeftOut int `json:"left_out"`
		} `json:"totals"`
	}
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.Equal(t, "html", rep.Inputs[0].Format)
	assert.Equal(t, 5, rep.Inputs[0].LeftOut)
	assert.Equal(t, 5, rep.Totals.LeftOut)

	// In public/blog/: the blog's pages only.
	_, errOut, status = runCLI(t, nil, site, "--base-url", "https://example.com/", "-o", filepath.Join(site, "blog", "sitemap.xml"))
	require.Equal(t, exitOK, status, errOut)
	got, err = os.ReadFile(filepath.Join(site, "blog", "sitemap.xml"))
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(got), "<loc>https://example.com/blog/"), string(got))
	assert.Equal(t, 3, strings.Count(string(got), "<loc>"), string(got))
	assert.Contains(t, errOut, "left out 5 URLs outside https://example.com/blog/, where --base-url says the sitemap is")

	// The sitemap written at the top the first time is no page: the site
	// reads the same again.
	out, errOut, status := runCLI(t, nil, site, "--base-url", "https://example.com/", "-q")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, string(want), out)
}

func TestSiteAccount(t *testing.T) {
	_, errOut, status := runCLI(t, nil, testSite, "--base-url", "https://example.com/", "-v", "-o", filepath.Join(t.TempDir(), "s.xml"))
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, "testdata/site (html): 8 read, 0 invalid, 5 left out, 0 duplicates, 8 written, 2 warnings")

	// Strict: a warning of the reading fails the run, nothing written.
	out := filepath.Join(t.TempDir(), "s.xml")
	_, errOut, status = runCLI(t, nil, testSite, "--base-url", "https://example.com/", "--strict", "-o", out)
	assert.Equal(t, exitFail, status, errOut)
	assert.Contains(t, errOut, "outside.html: symbolic link not followed")
	assert.NoFileExists(t, out)
}
