package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeNewsSitemap writes a news sitemap of n articles published in the
// last n minutes, numbered from first, and returns its path.
func writeNewsSitemap(t *testing.T, name string, first, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">` + "\n")
	now := time.Now().UTC()
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, `<url><loc>https://news.example.com/story-%d</loc><news:news><news:publication><news:name>Example Daily</news:name>`+
			`<news:language>en</news:language></news:publication><news:publication_date>%s</news:publication_date>`+
			`<news:title>Story %d</news:title></news:news></url>`+"\n", i, now.Add(-time.Duration(i+1)*time.Minute).Format(time.RFC3339), i)
	}
	b.WriteString("</urlset>\n")
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// TestStrictChecksTheOutput merges two valid news sitemaps of 600 articles
// each to standard output, which cannot be split: 1,200 news entries in one
// file is a warning, which --strict makes an error, with nothing written.
func TestStrictChecksTheOutput(t *testing.T) {
	a := writeNewsSitemap(t, "news_600_articles_a.xml", 0, 600)
	b := writeNewsSitemap(t, "news_600_articles_b.xml", 600, 600)

	stdout, errOut, status := runCLI(t, nil, a, b)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, 1200, strings.Count(stdout, "<news:news>"))
	assert.Contains(t, errOut, "warning: 1200 entries with news data in one sitemap, over the 1000 a news sitemap may hold")

	stdout, errOut, status = runCLI(t, nil, a, b, "--strict")
	assert.Equal(t, exitFail, status, errOut)
	assert.Empty(t, stdout, "nothing written")
	assert.Contains(t, errOut, "error: --strict: the output has 1 warning, the first: 1200 entries with news data in one sitemap")

	// Each input alone is clean, and passes.
	stdout, errOut, status = runCLI(t, nil, a, "--strict")
	assert.Equal(t, exitOK, status, errOut)
	assert.Equal(t, 600, strings.Count(stdout, "<news:news>"))
}

// TestStrictFailsOnValidationWarnings gives --strict inputs whose only
// findings are warnings of feed2sitemap validate: a URL listed twice, a
// lastmod in the future. Each fails the run; without --strict it passes.
func TestStrictFailsOnValidationWarnings(t *testing.T) {
	for name, urls := range map[string]string{
		"duplicate_url.xml":  `<url><loc>https://a.example/1</loc></url><url><loc>https://a.example/1</loc></url>`,
		"future_lastmod.xml": `<url><loc>https://a.example/1</loc><lastmod>2999-01-01</lastmod></url>`,
	} {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), name)
			require.NoError(t, os.WriteFile(in, []byte(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+urls+`</urlset>`), 0o644))
			_, errOut, status := runCLI(t, nil, in, "--no-follow")
			assert.Equal(t, exitOK, status, errOut)
			stdout, errOut, status := runCLI(t, nil, in, "--no-follow", "--strict")
			assert.Equal(t, exitFail, status, errOut)
			assert.Empty(t, stdout)
			assert.Contains(t, errOut, "--strict: the inputs break 1 rule of feed2sitemap validate (warnings included)")
		})
	}
}
