package feed_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/mmcdole/gofeed/atom"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestRSSTitleEscapedOnce: an RSS <title> is plain text, escaped once, so
// that gofeed (and every feed reader) shows the title written, and the
// project's reader reads it back the same; descriptions are HTML, escaped
// twice.
func TestRSSTitleEscapedOnce(t *testing.T) {
	titles := []string{"Caching & conditional requests", "<b>bold</b> & more", "AT&amp;T is text", "Tom &copy Jerry"}
	var entries []formats.Entry
	for i, title := range titles {
		entries = append(entries, formats.Entry{Loc: fmt.Sprintf("https://a.example/%d", i), Title: title, Summary: "x & <y>"})
	}
	doc := write(t, "rss", entries, formats.WriteOptions{Feed: formats.FeedInfo{Title: "Notes & <tips>", Link: "https://a.example/"}})
	assert.Contains(t, string(doc), "<title>Caching &amp; conditional requests</title>")
	assert.Contains(t, string(doc), "<title>Notes &amp; &lt;tips&gt;</title>")
	assert.Contains(t, string(doc), "<description>x &amp;amp; &amp;lt;y&amp;gt;</description>", "descriptions are HTML")
	f, err := gofeed.NewParser().Parse(bytes.NewReader(doc))
	require.NoError(t, err)
	assert.Equal(t, "Notes & <tips>", f.Title)
	for i, it := range f.Items {
		assert.Equal(t, titles[i], it.Title, "gofeed")
	}
	for i, e := range readBack(t, doc) {
		assert.Equal(t, titles[i], e.Title, "read back")
		assert.Equal(t, "x & <y>", e.Summary)
	}
}

// lastAlternate is the rule of readers that take the last link
// rel="alternate" of an HTML type or none (Python's feedparser).
func lastAlternate(links []*atom.Link) string {
	href := ""
	for _, l := range links {
		if (l.Rel == "" || l.Rel == "alternate") && (l.Type == "" || strings.Contains(l.Type, "html")) {
			href = l.Href
		}
	}
	return href
}

// TestAtomAlternatesFirstAndLastReading writes the entries of a feed with
// hreflang alternates as Atom and reads it back with gofeed's rule (the
// first rel="alternate" is the link) and feedparser's (the last): both give
// the page itself; the project's reader gets the same alternates back, and
// no two alternate links have the same type and hreflang (RFC 4287 4.1.1).
func TestAtomAlternatesFirstAndLastReading(t *testing.T) {
	entries := readInput(t, "testdata/feeds/atom_hreflang_alternates.atom")
	require.Len(t, entries, 3)
	doc := write(t, "atom", entries, formats.WriteOptions{})
	f, err := gofeed.NewParser().Parse(bytes.NewReader(doc))
	require.NoError(t, err)
	raw, err := (&atom.Parser{}).Parse(bytes.NewReader(doc))
	require.NoError(t, err)
	require.Len(t, f.Items, 3)
	for i, e := range entries {
		assert.Equal(t, e.Loc, f.Items[i].Link, "gofeed: first alternate")
		assert.Equal(t, e.Loc, lastAlternate(raw.Entries[i].Links), "feedparser: last alternate")
		seen := map[string]bool{}
		for _, l := range raw.Entries[i].Links {
			key := l.Type + " " + l.Hreflang
			assert.False(t, seen[key], "entry %d: two alternates with type and hreflang %q", i, key)
			seen[key] = true
		}
	}
	back := readFeed(t, doc, false) // the unknown language is reported again
	require.Len(t, back, 3)
	for i := range entries {
		// A set: the page's own language version now comes last.
		assert.ElementsMatch(t, entries[i].Ext.Alternates, back[i].Ext.Alternates, "entry %d", i)
	}
	// The page whose language is unknown is written last as "und" and
	// read back as not listed, as it was read.
	assert.Contains(t, string(doc), `<link rel="alternate" href="https://guides.example/sintra/" hreflang="und"/>`)
}

// TestAtomUndatedEntries: Atom requires <updated>: an entry without a
// lastmod takes its news publication date when it has one; else the
// feed's updated, and the writer says so once.
func TestAtomUndatedEntries(t *testing.T) {
	pub := formats.NewLastMod(time.Date(2024, 6, 2, 8, 0, 0, 0, time.UTC), formats.PrecisionSecond)
	entries := []formats.Entry{
		{Loc: "https://a.example/dated", LastMod: formats.NewLastMod(time.Date(2024, 6, 3, 9, 0, 0, 0, time.UTC), formats.PrecisionSecond)},
		{Loc: "https://a.example/news", Ext: &formats.Extensions{News: &formats.News{PublicationName: "A", PublicationLanguage: "en", PublicationDate: pub, Title: "N"}}},
		{Loc: "https://a.example/undated-1"},
		{Loc: "https://a.example/undated-2"},
	}
	var warnings []string
	doc := write(t, "atom", entries, formats.WriteOptions{Warn: func(msg string) { warnings = append(warnings, msg) }})
	updated := regexp.MustCompile(`<updated>([^<]*)</updated>`).FindAllStringSubmatch(string(doc), -1)
	require.Len(t, updated, 5)
	assert.Equal(t, "2024-06-03T09:00:00Z", updated[0][1], "the feed's: the first entry's")
	assert.Equal(t, "2024-06-02T08:00:00Z", updated[2][1], "the news date the entry has")
	assert.Equal(t, "2024-06-03T09:00:00Z", updated[3][1])
	assert.Equal(t, []string{"2 Atom entries with no date (the first https://a.example/undated-1): Atom requires <updated>, " +
		"so theirs is the feed's, 2024-06-03T09:00:00Z, a date they never had"}, warnings)

	warnings = nil
	write(t, "atom", entries[:2], formats.WriteOptions{Warn: func(msg string) { warnings = append(warnings, msg) }})
	assert.Empty(t, warnings)
}
