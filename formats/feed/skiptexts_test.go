package feed_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestSkipTextsChangesOnlyTitlesAndSummaries reads every feed of
// testdata/feeds and of the corpus with and without ReadOptions.SkipTexts,
// and again with news asked for (as of an hour after the newest lastmod):
// the entries are the same but for their titles and summaries, which
// SkipTexts leaves empty (a video's title and description, and a news
// title, taken from the item's, are still there), and so are the warnings
// and the error.
func TestSkipTextsChangesOnlyTitlesAndSummaries(t *testing.T) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "feeds", "*"))
	require.NoError(t, err)
	readFixture := func(path string) func(formats.ReadOptions) result {
		return func(o formats.ReadOptions) result {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			return read(t, string(data), o)
		}
	}
	docs := map[string]func(formats.ReadOptions) result{}
	for _, f := range fixtures {
		docs[f] = readFixture(f)
	}
	for _, f := range corpusFeeds(t) {
		docs[f.Name] = func(o formats.ReadOptions) result {
			oo := openOptions(f.Name, nil)
			o.Base = oo.Base
			oo.ReadOptions = o
			return readCorpus(t, f.Name, oo)
		}
	}
	var texts, news, videos int
	for name, readDoc := range docs {
		plain := readDoc(formats.ReadOptions{Source: name})
		var newest time.Time
		for _, e := range plain.entries {
			if e.LastMod.Time().After(newest) {
				newest = e.LastMod.Time()
			}
		}
		for _, o := range []formats.ReadOptions{
			{Source: name},
			{Source: name, NewsName: "The Paper", Now: newest.Add(time.Hour)},
		} {
			want := readDoc(o)
			o.SkipTexts = true
			got := readDoc(o)
			require.Len(t, got.entries, len(want.entries), name)
			for i, e := range want.entries {
				if e.Title != "" || e.Summary != "" {
					texts++
				}
				if e.Ext != nil && e.Ext.News != nil && e.Ext.News.Title != "" {
					news++
				}
				if e.Ext != nil && len(e.Ext.Videos) > 0 {
					videos++
				}
				want.entries[i].Title, want.entries[i].Summary = "", ""
			}
			assert.Equal(t, want.entries, got.entries, name)
			assert.Equal(t, want.warnings, got.warnings, name)
			assert.Equal(t, want.err, got.err, name)
		}
	}
	assert.Greater(t, texts, 100, "entries with a title or a summary")
	assert.Greater(t, news, 10, "entries with a news title")
	assert.Greater(t, videos, 5, "entries with videos")
}
