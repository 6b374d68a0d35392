package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
)

const (
	imagesSitemap = "../../testdata/corpus/crawlercommons__sitemap-images.xml"
	pageMaps      = "../../testdata/corpus/crawlercommons__pagemaps-sitemap.xml"
)

// TestFeedOutput writes a feed to a file and to standard output: newest
// first, --limit, the feed flags, titles kept, read back by gofeed.
func TestFeedOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "blog.rss")
	require.NoError(t, os.WriteFile(in, []byte(feed("old 2024-01-01", "newest 2024-03-01", "middle 2024-02-01")), 0o644))

	out := filepath.Join(dir, "feed.atom")
	_, errOut, status := runCLI(t, nil, in, "-o", out, "--title", "Example Blog", "--base-url", "https://blog.example/", "--limit", "2")
	require.Equal(t, exitOK, status, errOut)
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	f, err := gofeed.NewParser().ParseString(string(b))
	require.NoError(t, err)
	assert.Equal(t, "atom", f.FeedType)
	assert.Equal(t, "Example Blog", f.Title)
	require.Len(t, f.Items, 2, "--limit 2")
	assert.Equal(t, "https://blog.example/newest", f.Items[0].Link, "newest first")
	assert.Equal(t, "newest", f.Items[0].Title, "the title travels")
	assert.Equal(t, "https://blog.example/middle", f.Items[1].Link)
	assert.Contains(t, string(b), "<id>https://blog.example/feed.atom</id>", "the id is where the feed is served")

	// The scope rule is a sitemap's: a feed served elsewhere lists them all.
	_, errOut, status = runCLIAtTerminal(t, nil, in, "-o", filepath.Join(dir, "elsewhere.rss"), "--base-url", "https://feeds.example/")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, "wrote 3 to")

	stdout, errOut, status := runCLI(t, nil, in, "--to", "rss")
	require.Equal(t, exitOK, status, errOut)
	f, err = gofeed.NewParser().ParseString(stdout)
	require.NoError(t, err)
	require.Len(t, f.Items, 3)
	assert.Equal(t, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), f.Items[0].PublishedParsed.UTC())

	_, errOut, status = runCLI(t, nil, in, "--to", "rss", "--sort", "loc")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "feeds list their items newest first")
	_, _, status = runCLI(t, nil, in, "--to", "xml", "--title", "x")
	assert.Equal(t, exitUsage, status, "the feed flags need a feed")
	_, _, status = runCLI(t, nil, in, "--to", "rss", "--stylesheet", "/s.xsl")
	assert.Equal(t, exitUsage, status, "a stylesheet needs XML")
}

// TestExtensionsThroughTheCommand checks what becomes of extension data:
// kept by XML, declared on the root (duplicates kept or not), and left
// out of text with one warning that counts it.
func TestExtensionsThroughTheCommand(t *testing.T) {
	for _, flags := range [][]string{nil, {"--keep-duplicates"}} {
		out, errOut, status := runCLI(t, nil, append([]string{imagesSitemap, "-q"}, flags...)...)
		require.Equal(t, exitOK, status, errOut)
		assert.Contains(t, out, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">`, "declared on the root, %v", flags)
		assert.Equal(t, 2, strings.Count(out, "<image:image>"))
		conformance.ValidateXML(t, []byte(out))
	}

	_, errOut, status := runCLI(t, nil, imagesSitemap, pageMaps, "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, "feed2sitemap: warning: left out what text cannot hold: the images of 1 entry, the foreign elements (PageMap…) of 2 entries\n")

	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	_, _, status = runCLI(t, nil, imagesSitemap, "--to", "text", "-q", "--report", report)
	require.Equal(t, exitOK, status)
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"extensions_dropped": {`)
}

// TestStylesheetFlag names the stylesheet in the sitemap and in the index
// of a split set.
func TestStylesheetFlag(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(in, []byte(urlList(30)), 0o644))
	out := filepath.Join(dir, "sitemap.xml")
	_, errOut, status := runCLI(t, nil, in, "-o", out, "--stylesheet", "/sitemap.xsl?v=1&x=2", "--max-urls", "20", "--base-url", "https://a.example/")
	require.Equal(t, exitOK, status, errOut)
	files, err := filepath.Glob(filepath.Join(dir, "sitemap*.xml"))
	require.NoError(t, err)
	require.Len(t, files, 3, "an index and two parts")
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Contains(t, string(b), "\n"+`<?xml-stylesheet type="text/xsl" href="/sitemap.xsl?v=1&amp;x=2"?>`+"\n", f)
		conformance.ValidateXML(t, b)
	}
}

// TestStrictUsesTheRules fails a strict conversion of an input that
// breaks a rule of validate the reader lets through, naming the rule.
func TestStrictUsesTheRules(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "sitemap.xml")
	require.NoError(t, os.WriteFile(in, []byte(`<urlset><url><loc>https://a.example/1</loc></url></urlset>`), 0o644))
	out := filepath.Join(dir, "out.xml")
	_, errOut, status := runCLI(t, nil, in, "-o", out)
	require.Equal(t, exitOK, status, "lenient: read by local name: %s", errOut)

	require.NoError(t, os.Remove(out))
	_, errOut, status = runCLI(t, nil, in, "-o", out, "--strict")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, in+":1:1: error: <urlset> is in no namespace")
	assert.Contains(t, errOut, "[namespace]")
	assert.Contains(t, errOut, "feed2sitemap: error: --strict: the inputs break 1 rule of feed2sitemap validate")
	assert.NoFileExists(t, out, "nothing written")
	stdout, _, status := runCLI(t, nil, in, "--strict", "--no-follow")
	assert.Equal(t, exitFail, status)
	assert.Empty(t, stdout, "nothing written to standard output either")

	// An input whose findings are only warnings fails too: --strict
	// treats every warning as an error (here a deprecated image:caption).
	_, errOut, status = runCLI(t, nil, imagesSitemap, "-o", out, "--strict")
	assert.Equal(t, exitFail, status, errOut)
	assert.Contains(t, errOut, "(warnings included), the first: ")
	assert.Contains(t, errOut, "[deprecated-tag]")
	assert.NoFileExists(t, out, "nothing written")
}
