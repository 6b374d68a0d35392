package robotsfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/robotsfile"
)

// TestCheckTellsRobotsFromOtherFiles accepts every robots.txt of the test
// data and the corpus, and refuses every other file of the corpus
// (sitemaps, feeds, URL lists, gzip) and crafted ones: markup, binary
// content, lines that are not fields.
func TestCheckTellsRobotsFromOtherFiles(t *testing.T) {
	ins, err := filepath.Glob("testdata/in/*")
	require.NoError(t, err)
	corpus, err := filepath.Glob("../testdata/corpus/*")
	require.NoError(t, err)
	require.NotEmpty(t, corpus)
	for _, path := range append(ins, corpus...) {
		base := filepath.Base(path)
		if base == "LICENSES" || base == "MANIFEST.tsv" || base == "README.md" {
			continue
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		err = robotsfile.Check(b)
		if strings.Contains(base, "robots") || strings.HasPrefix(path, "testdata/in/") || len(b) == 0 {
			assert.NoError(t, err, path)
		} else {
			assert.ErrorIs(t, err, robotsfile.ErrNotRobots, path)
		}
	}

	for src, want := range map[string]string{
		"":                                  "",
		"\n \n":                             "",
		"# only a comment\n":                "",
		"User-agent: *\nDisallow:\n":        "",
		"user-agent:*\ndisallow:/private\n": "",
		"Noindex: /x\nWhatever: y\n":        "",
		"\ufeffUser-agent: *\r\nAllow: /\r\n<br>\r\nstray text\r\n": "",
		"Sitemap: https://a.example/sitemap.xml\n":                  "",
		"  <?xml version=\"1.0\"?><urlset/>":                        "it starts with markup",
		"\ufeff\n<!DOCTYPE html><html></html>":                      "it starts with markup",
		"User-agent: *\n<html>\n":                                   "line 2 is markup",
		"User-agent: *\nDisallow: /\x00\n":                          "binary content (byte 0x00 at offset 25)",
		"\x1f\x8b\x08\x00":                                          "binary content (byte 0x1f at offset 0)",
		"https://a.example/1\nhttps://a.example/2\n":                "no line is a robots.txt field (User-agent:, Disallow:, Sitemap:, ...); line 1 is not one",
		"# comment\n{\"items\": []}\n":                              "line 2 is not one",
	} {
		err := robotsfile.Check([]byte(src))
		if want == "" {
			assert.NoError(t, err, "%q", src)
			continue
		}
		require.ErrorIs(t, err, robotsfile.ErrNotRobots, "%q", src)
		assert.Contains(t, err.Error(), want, "%q", src)
	}
}

// TestUpdateFileRefusesOtherFiles leaves a sitemap, a URL list and a
// binary file as they were, byte for byte, and creates a missing file.
func TestUpdateFileRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	sitemaps := []string{"https://a.example/sitemap.xml"}
	for name, content := range map[string]string{
		"sitemap.xml": "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"></urlset>\n",
		"urls.txt":    "https://a.example/1\n",
		"logo.png":    "\x89PNG\r\n\x1a\n\x00\x00",
	} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		changed, err := robotsfile.UpdateFile(path, sitemaps)
		require.ErrorIs(t, err, robotsfile.ErrNotRobots, name)
		assert.Contains(t, err.Error(), path+": not a robots.txt file: ")
		assert.False(t, changed)
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, content, string(got), "%s is untouched", name)
	}
	path := filepath.Join(dir, "robots.txt")
	changed, err := robotsfile.UpdateFile(path, sitemaps)
	require.NoError(t, err)
	assert.True(t, changed)
}
