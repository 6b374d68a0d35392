package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJSONLThroughTheCommand converts XML sitemaps to JSON Lines (--to
// jsonl on standard output, -o FILE.jsonl), reads the lines back (from a
// file and from standard input), and gets the XML the command writes
// from the sitemap directly, byte for byte.
func TestJSONLThroughTheCommand(t *testing.T) {
	for _, in := range []string{
		"../../testdata/corpus/sitemapjs__alltags.xml",
		"../../testdata/corpus/crawlercommons__sitemap-videos-tvshow.xml",
		"../../testdata/corpus/crawlercommons__sitemap-news.xml",
		"../../testdata/corpus/sitemapjs__alltags-index.xml",
		"../../formats/xml/testdata/resourcesync_resource_list.xml",
	} {
		t.Run(filepath.Base(in), func(t *testing.T) {
			dir := t.TempDir()
			direct := filepath.Join(dir, "direct.xml")
			_, errOut, status := runCLI(t, nil, in, "-o", direct, "--no-follow")
			require.Equal(t, exitOK, status, errOut)

			lines, errOut, status := runCLI(t, nil, in, "--to", "jsonl", "--no-follow")
			require.Equal(t, exitOK, status, errOut)
			assert.True(t, strings.HasPrefix(lines, "{"), lines)
			jsonl := filepath.Join(dir, "entries.jsonl")
			_, errOut, status = runCLI(t, nil, in, "-o", jsonl, "--no-follow")
			require.Equal(t, exitOK, status, errOut)
			written, err := os.ReadFile(jsonl)
			require.NoError(t, err)
			assert.Equal(t, lines, string(written), "-o FILE.jsonl picks the format by its name")

			back := filepath.Join(dir, "back.xml")
			_, errOut, status = runCLI(t, nil, jsonl, "-o", back, "--no-follow")
			require.Equal(t, exitOK, status, errOut)
			want, err := os.ReadFile(direct)
			require.NoError(t, err)
			got, err := os.ReadFile(back)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))

			fromStdin, errOut, status := runCLI(t, strings.NewReader(lines), "-", "--no-follow")
			require.Equal(t, exitOK, status, errOut)
			assert.Equal(t, string(want), fromStdin)
		})
	}
}

// TestCSVThroughTheCommand reads crawler and Search Console exports,
// recognized by their content.
func TestCSVThroughTheCommand(t *testing.T) {
	out, errOut, status := runCLI(t, nil, "../../formats/csv/testdata/screamingfrog_internal_all.csv", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, []string{"https://www.example.com/", "https://www.example.com/shoes/",
		"https://www.example.com/boots/?colour=red&size=42", "https://www.example.com/caf%C3%A9/men%C3%BC",
		"https://www.example.com/sale/"}, strings.Fields(out))

	out, errOut, status = runCLI(t, nil, "../../formats/csv/testdata/european_semicolon.csv", "--to", "jsonl")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, `{"loc":"https://www.example.de/stiefel","lastmod":"2024-05-07","title":"Stiefel"}`)
	assert.Contains(t, errOut, `european_semicolon.csv:2:31: column "Date" ignored`)

	_, errOut, status = runCLI(t, nil, "../../formats/csv/testdata/bad_rows.csv", "--to", "text", "--strict")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "bad_rows.csv:3:1: row skipped")
}
