package output_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// TestNewsSplitAtMaxNews writes a 1,200-item news feed (en-US) as a news
// sitemap: at most 1,000 news:news per file, so two parts and an index
// though 1,200 URLs fit one file; the language is written as "en", with
// a warning; and the articles, over two days old now, are warned about
// once per document written.
func TestNewsSplitAtMaxNews(t *testing.T) {
	f, err := os.Open("testdata/news_feed_1200_items.rss")
	require.NoError(t, err)
	defer f.Close()
	var readWarnings []string
	r := feed.NewReader(f, formats.ReadOptions{Source: "news.rss", NewsName: "Example Daily", Now: time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC),
		Warn: func(pe *formats.ParseError) { readWarnings = append(readWarnings, pe.Error()) }})
	var es []formats.Entry
	for e, err := range formats.All(r) {
		require.NoError(t, err)
		require.NotNil(t, e.Ext, e.Loc)
		require.NotNil(t, e.Ext.News, e.Loc)
		es = append(es, e)
	}
	require.Len(t, es, 1200)
	require.Len(t, readWarnings, 1, "the language change is said once")
	assert.Contains(t, readWarnings[0], `news language "en-US" written as "en"`)

	dir := t.TempDir()
	var writeWarnings []string
	s, err := write(t, output.Options{Path: filepath.Join(dir, "news.xml"), Format: xml.Format, BaseURL: base(t, "https://news.example.com/"),
		Write: formats.WriteOptions{Uses: formats.ExtNews, Warn: func(msg string) { writeWarnings = append(writeWarnings, msg) }}}, es)
	require.NoError(t, err)
	files := s.Files()
	require.Len(t, files, 3, "two parts and an index")
	assert.Equal(t, formats.MaxNews, files[0].Entries)
	assert.Equal(t, 200, files[1].Entries)
	for _, f := range files[:2] {
		data, err := os.ReadFile(f.Path)
		require.NoError(t, err)
		assert.Equal(t, f.Entries, strings.Count(string(data), "<news:news>"))
		assert.Equal(t, f.Entries, strings.Count(string(data), "<news:language>en</news:language>"))
	}
	assert.Equal(t, locs(es), locs(readSet(t, dir, s.Path())))
	require.Len(t, writeWarnings, 2, "one per part")
	assert.Contains(t, writeWarnings[0], "1000 entries with news data published more than two days ago")
	assert.Contains(t, writeWarnings[1], "200 entries with news data published more than two days ago")

	// Entries without news data are not limited by it.
	plain := make([]formats.Entry, len(es))
	for i, e := range es {
		plain[i] = formats.Entry{Loc: e.Loc}
	}
	s, err = write(t, output.Options{Path: filepath.Join(t.TempDir(), "sitemap.xml"), Format: xml.Format}, plain)
	require.NoError(t, err)
	assert.Len(t, s.Files(), 1)
}
