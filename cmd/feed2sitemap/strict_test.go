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

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/validate"
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

// TestStrictSaysAReaderWarningOnce gives --strict inputs on which the
// reader warns of what validate finds too, at the same place: an item with
// no link, a date with no time zone (in a feed, in a sitemap, in a sitemap
// an index lists). Each is printed once, as validate's finding, which names
// the rule.
func TestStrictSaysAReaderWarningOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	undated := write("undated.xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n"+
		`<url><loc>https://a.example/1</loc><lastmod>2020-01-01T10:00</lastmod></url></urlset>`)
	index := write("index.xml", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+
		`<sitemap><loc>https://a.example/undated.xml</loc></sitemap></sitemapindex>`)
	atom := write("feed.atom", `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>urn:x</id>`+"\n"+
		`<entry><title>a</title><id>urn:1</id><link href="https://a.example/1"/><updated>2020-01-01T00:00:00</updated></entry>`+"\n"+
		`</feed>`)
	// A JSON Feed's item warnings have no line: they are matched by their
	// words.
	jsonFeed := `{"version": "https://jsonfeed.org/version/1.1", "title": "t",` + "\n" +
		`"items": [{"id": "1", "content_text": "x"}, {"id": "2", "url": "https://a.example/2"}]}`
	blog, err := os.ReadFile(example)
	require.NoError(t, err)
	site := newSite(t)
	site.doc("/feed.json", jsonFeed)
	site.doc("/blog.rss", string(blog))
	for _, c := range []struct {
		in, place, rule string
		what            string // in the line too, when the place is not enough
	}{
		{example, "blog.rss:41:", "[feed-item]", ""},
		{atom, "feed.atom:2:", "[feed-item]", ""},
		{write("feed.json", jsonFeed), "feed.json: ", "[feed-item]", "has no link"},
		{undated, "undated.xml:2:36:", "[lastmod-format]", ""},
		{index, "undated.xml:2:36:", "[lastmod-format]", ""},
		{site.URL + "/blog.rss", "/blog.rss:41:", "[feed-item]", ""},
		{site.URL + "/feed.json", "feed.json: ", "[feed-item]", "has no link"},
	} {
		t.Run(strings.TrimPrefix(c.in, site.URL), func(t *testing.T) {
			said := func(errOut string) (lines []string) {
				for _, line := range strings.Split(errOut, "\n") {
					if strings.Contains(line, c.place) && strings.Contains(line, c.what) && !strings.HasPrefix(line, "feed2sitemap: error: --strict:") {
						lines = append(lines, line)
					}
				}
				return lines
			}
			_, errOut, _ := runCLI(t, nil, c.in, "-o", filepath.Join(t.TempDir(), "out.xml"))
			require.Len(t, said(errOut), 1, "the reader warns without --strict:\n%s", errOut)
			_, errOut, status := runCLI(t, nil, c.in, "--strict", "-o", filepath.Join(t.TempDir(), "out.xml"))
			assert.Equal(t, exitFail, status, errOut)
			lines := said(errOut)
			require.Len(t, lines, 1, "said once:\n%s", errOut)
			assert.Contains(t, lines[0], c.rule, "the finding's form, which names the rule")
		})
	}
}

// TestStrictKeepsBoundedFindings converts strictly a sitemap with a finding
// on every URL, more than strictKept: the count says every finding, those
// past the cap are not kept (a line says how many were not shown), and the
// readers' warnings past the cap are printed as they come instead of being
// held, so that memory does not grow with the findings.
func TestStrictKeepsBoundedFindings(t *testing.T) {
	n := strictKept + 2_000
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>https://a.example/%d</loc><lastmod>2020-01-01T10:00</lastmod></url>\n", i)
	}
	b.WriteString("</urlset>\n")
	path := filepath.Join(t.TempDir(), "undated.xml")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	_, errOut, status := runCLI(t, nil, path, "--strict", "-v", "-o", filepath.Join(t.TempDir(), "out.xml"))
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, fmt.Sprintf("--strict: the inputs break %d rules", n), "every finding counted")
	assert.Contains(t, errOut, fmt.Sprintf("%d more findings of the rules not shown (at most %d are kept)", n-strictKept, strictKept))
	shown := 0
	for _, line := range strings.Split(errOut, "\n") {
		if strings.HasSuffix(line, "[lastmod-format]") && !strings.HasPrefix(line, "feed2sitemap: error:") {
			shown++
		}
	}
	assert.Equal(t, strictKept, shown, "the findings kept are shown")

	// The check itself keeps at most strictKept findings and warnings.
	var s strictCheck
	printed := 0
	hold := s.hold(func(*formats.ParseError) { printed++ })
	rule := validate.Rules()[0]
	for i := range n {
		s.report(validate.Finding{Rule: rule, Source: "x", Line: i + 1, Message: "m"})
		hold(&formats.ParseError{Source: "x", Line: i + 1})
	}
	assert.Equal(t, strictKept, len(s.errors)+len(s.warnings))
	assert.Len(t, s.held, strictKept)
	assert.Equal(t, n-strictKept, printed, "the warnings past the cap are printed at once")
	assert.Equal(t, n, s.broken)
}
