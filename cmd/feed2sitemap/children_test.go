package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChildSelectionNeverFetchesSkippedChildren(t *testing.T) {
	// An index with four children: one left out by --exclude-sitemaps,
	// one by --since (its lastmod is older), one without lastmod (read).
	s := newSite(t)
	s.doc("/index.xml", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>`+s.URL+`/posts.txt</loc><lastmod>2025-06-01</lastmod></sitemap>
<sitemap><loc>`+s.URL+`/tags.txt</loc><lastmod>2025-06-01</lastmod></sitemap>
<sitemap><loc>`+s.URL+`/archive.txt</loc><lastmod>2020-01-01</lastmod></sitemap>
<sitemap><loc>`+s.URL+`/pages.txt</loc></sitemap>
</sitemapindex>`)
	for _, p := range []string{"posts", "tags", "archive", "pages"} {
		s.doc("/"+p+".txt", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>`+s.URL+"/"+p+`/1</loc><lastmod>2025-06-02</lastmod></url></urlset>`)
	}
	reportPath := filepath.Join(t.TempDir(), "report.json")
	out, errOut, status := runCLI(t, nil, s.URL+"/index.xml", "--to", "text", "--exclude-sitemaps", "/tags.*",
		"--since", "2025-01-01", "--report", reportPath, "-v")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, s.URL+"/posts/1\n"+s.URL+"/pages/1\n", out)
	assert.ElementsMatch(t, []string{"/index.xml", "/posts.txt", "/pages.txt"}, s.requests(), "the children left out are never asked for")
	assert.Contains(t, errOut, "/index.xml (xml): 4 child sitemaps, 2 not followed (exclude 1, since 1), ")
	assert.Contains(t, errOut, "and 2 child sitemaps, 2 child sitemaps not followed (exclude 1, since 1)")
	b, err := os.ReadFile(reportPath)
	require.NoError(t, err)
	var r report
	require.NoError(t, json.Unmarshal(b, &r))
	assert.Equal(t, map[string]int{"exclude": 1, "since": 1}, r.Inputs[0].SkippedChildren)

	s2 := newSite(t)
	s2.doc("/index.xml", sitemapIndex(s2.URL+"/a/1.txt", s2.URL+"/b/1.txt"))
	s2.doc("/a/1.txt", s2.URL+"/x\n")
	s2.doc("/b/1.txt", s2.URL+"/y\n")
	out, errOut, status = runCLI(t, nil, s2.URL+"/index.xml", "--to", "text", "--include-sitemaps", "/b/**")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, s2.URL+"/y\n", out)
	assert.Equal(t, []string{"/index.xml", "/b/1.txt"}, s2.requests())

	_, errOut, status = runCLI(t, nil, s2.URL+"/index.xml", "--exclude-sitemaps", "*.xml")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `--exclude-sitemaps: glob "*.xml"`)
	assert.Len(t, s2.requests(), 2, "a bad glob is refused before anything is fetched")
}
