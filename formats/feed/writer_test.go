package feed_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mmcdole/gofeed"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// writeTime is the writers' clock in these tests.
var writeTime = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func lastmod(t testing.TB, s string) formats.LastMod {
	t.Helper()
	lm, err := formats.ParseLastMod(s)
	require.NoError(t, err)
	return lm
}

// sampleEntries are entries that exercise every field the writers write.
func sampleEntries(t testing.TB) []formats.Entry {
	return []formats.Entry{
		{Loc: "https://blog.example.com/2024/06/caching/", LastMod: lastmod(t, "2024-06-04T08:00:00+02:00"),
			Title: "Caching & <conditional> requests", Summary: "ETags, Last-Modified & 304s. a < b > c",
			Ext: &formats.Extensions{
				Images: []formats.Image{{Loc: "https://blog.example.com/img/cache.png"}, {Loc: "https://cdn.example.com/i?id=7&s=2"}},
				Videos: []formats.Video{{ThumbnailLoc: "https://blog.example.com/t.jpg", Title: "The talk",
					Description: "Caching, \"explained\".", ContentLoc: "https://cdn.example.com/talk.mp4", Duration: 1830}},
			}},
		{Loc: "https://blog.example.com/fr/2024/06/cache/", LastMod: lastmod(t, "2024-06-03"),
			Title: "Le cache", Ext: &formats.Extensions{Alternates: []formats.Alternate{
				{Hreflang: "fr", Href: "https://blog.example.com/fr/2024/06/cache/"},
				{Hreflang: "en", Href: "https://blog.example.com/2024/06/caching/"},
			}}},
		{Loc: "https://blog.example.com/watch?v=x1", LastMod: lastmod(t, "2024-06-01T10:00:00Z"), Title: "A played video",
			Ext: &formats.Extensions{Videos: []formats.Video{{ThumbnailLoc: "https://blog.example.com/x1.jpg", Title: "X1",
				Description: "Played, not downloaded.", PlayerLoc: "https://blog.example.com/embed/x1"}}}},
		{Loc: "https://blog.example.com/%C3%BCber/uns?lang=de", LastMod: lastmod(t, "2023-12-31T23:59:59.5-05:00")},
		{Loc: "https://blog.example.com/"},
	}
}

// feedInfo is the --title, --link and --description of these tests.
var feedInfo = formats.FeedInfo{Title: "Example Blog", Link: "https://blog.example.com/",
	Description: "Notes on the web & HTTP", ID: "https://blog.example.com/"}

// write writes entries with the named writer.
func write(t testing.TB, name string, entries []formats.Entry, opts formats.WriteOptions) []byte {
	t.Helper()
	defer feed.SetNow(writeTime)()
	f, err := formats.Lookup(name)
	require.NoError(t, err)
	if opts.Uses == 0 {
		for _, e := range entries {
			opts.Uses |= e.Ext.Uses()
		}
	}
	var buf bytes.Buffer
	w := f.NewWriter(&buf, opts)
	for _, e := range entries {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// readBack reads a writer's output with the feed reader, strictly, through
// formats.Open as the CLI does.
func readBack(t testing.TB, doc []byte) []formats.Entry {
	t.Helper()
	return readFeed(t, doc, true)
}

// readInput reads an input feed leniently.
func readInput(t testing.TB, path string) []formats.Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return readFeed(t, data, false)
}

// readFeed reads a feed through formats.Open; strictly, it fails t at a
// warning too (a feed's warnings stay warnings in strict mode).
func readFeed(t testing.TB, doc []byte, strict bool) []formats.Entry {
	t.Helper()
	opts := formats.ReadOptions{Source: "output", Strict: strict}
	if strict {
		opts.Warn = func(pe *formats.ParseError) { t.Errorf("warning: %v\n%s", pe, doc) }
	}
	r, f, err := formats.Open(bytes.NewReader(doc), formats.OpenOptions{ReadOptions: opts})
	require.NoError(t, err)
	require.Equal(t, "feed", f.Name)
	var back []formats.Entry
	for e, err := range formats.All(r) {
		require.NoError(t, err, "%s", doc)
		back = append(back, e)
	}
	return back
}

// sameSecond reports whether two lastmods are the same instant, to the
// second, or both unknown.
func sameSecond(a, b formats.LastMod) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero() == b.IsZero()
	}
	return a.Time().Unix() == b.Time().Unix()
}

// checkRoundTrip checks that what the feed reader reads of doc is entries:
// the same locs in the same order, the same dates to the second (an entry
// without one gets the feed's date in Atom), the same titles (the URL's
// path when the entry had none), summaries, images and videos, and for
// Atom the same alternates.
func checkRoundTrip(t testing.TB, name string, entries []formats.Entry, doc []byte) {
	t.Helper()
	back := readBack(t, doc)
	require.Len(t, back, len(entries), "%s", doc)
	for i, want := range entries {
		got := back[i]
		assert.Equal(t, want.Loc, got.Loc)
		if name == "rss" || !want.LastMod.IsZero() {
			assert.True(t, sameSecond(want.LastMod, got.LastMod), "%s: lastmod %v, read back %v", want.Loc, want.LastMod, got.LastMod)
		}
		title := collapseText(want.Title)
		if title == "" {
			assert.NotEmpty(t, got.Title)
		} else {
			assert.Equal(t, title, got.Title)
		}
		assert.Equal(t, collapseText(want.Summary), got.Summary)
		var wx, gx formats.Extensions
		if want.Ext != nil {
			wx = *want.Ext
		}
		if got.Ext != nil {
			gx = *got.Ext
		}
		assert.Equal(t, locsOf(wx.Images), locsOf(gx.Images), "images of %s", want.Loc)
		assert.Equal(t, videoKeys(wx.Videos), videoKeys(gx.Videos), "videos of %s", want.Loc)
		if name == "atom" {
			assert.ElementsMatch(t, wx.Alternates, gx.Alternates, "alternates of %s", want.Loc)
		}
	}
}

// collapseText is what the reader makes of a title or summary.
func collapseText(s string) string { return strings.Join(strings.Fields(s), " ") }

func locsOf(images []formats.Image) []string {
	var locs []string
	for _, im := range images {
		locs = append(locs, im.Loc)
	}
	return locs
}

// videoKeys are the fields of videos the feed writers carry.
func videoKeys(vs []formats.Video) []formats.Video {
	var out []formats.Video
	for _, v := range vs {
		out = append(out, formats.Video{ThumbnailLoc: v.ThumbnailLoc, Title: v.Title, Description: v.Description,
			ContentLoc: v.ContentLoc, PlayerLoc: v.PlayerLoc, Duration: v.Duration})
	}
	return out
}

// gofeedCheck parses doc with gofeed's universal parser and checks the
// same URLs in the same order, and the same dates to the second.
func gofeedCheck(t testing.TB, name string, entries []formats.Entry, doc []byte) {
	t.Helper()
	f, err := gofeed.NewParser().Parse(bytes.NewReader(doc))
	require.NoError(t, err)
	assert.Equal(t, name, f.FeedType)
	require.Len(t, f.Items, len(entries))
	for i, e := range entries {
		it := f.Items[i]
		assert.Equal(t, e.Loc, it.Link)
		date := it.PublishedParsed
		if name == "atom" {
			date = it.UpdatedParsed
		}
		if e.LastMod.IsZero() {
			if name == "rss" {
				assert.Nil(t, date, "no pubDate for an entry without lastmod")
			}
			continue
		}
		require.NotNil(t, date, "%s", e.Loc)
		assert.Equal(t, e.LastMod.Time().Unix(), date.Unix(), "%s", e.Loc)
	}
}

// rssStructure and atomStructure are the elements the structural checks
// look at.
type rssStructure struct {
	XMLName xml.Name `xml:"rss"`
	Version string   `xml:"version,attr"`
	Channel []struct {
		Title       []string `xml:"title"`
		Link        []string `xml:"link"`
		Description []string `xml:"description"`
		Items       []struct {
			Title       string `xml:"title"`
			Description string `xml:"description"`
			Link        string `xml:"link"`
			GUID        struct {
				Value     string `xml:",chardata"`
				PermaLink string `xml:"isPermaLink,attr"`
			} `xml:"guid"`
			PubDate    []string `xml:"pubDate"`
			Enclosures []struct {
				URL    string `xml:"url,attr"`
				Length string `xml:"length,attr"`
				Type   string `xml:"type,attr"`
			} `xml:"enclosure"`
		} `xml:"item"`
	} `xml:"channel"`
}

type atomText []string

type atomStructure struct {
	XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	ID      atomText `xml:"http://www.w3.org/2005/Atom id"`
	Title   atomText `xml:"http://www.w3.org/2005/Atom title"`
	Updated atomText `xml:"http://www.w3.org/2005/Atom updated"`
	Authors []struct {
		Name string `xml:"http://www.w3.org/2005/Atom name"`
	} `xml:"http://www.w3.org/2005/Atom author"`
	Entries []struct {
		ID      atomText `xml:"http://www.w3.org/2005/Atom id"`
		Title   atomText `xml:"http://www.w3.org/2005/Atom title"`
		Updated atomText `xml:"http://www.w3.org/2005/Atom updated"`
		Links   []struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"http://www.w3.org/2005/Atom link"`
	} `xml:"http://www.w3.org/2005/Atom entry"`
}

// one checks that an element occurs exactly once and is not empty.
func one(t testing.TB, what string, vs []string) {
	t.Helper()
	if assert.Len(t, vs, 1, what) {
		assert.NotEmpty(t, strings.TrimSpace(vs[0]), what)
	}
}

// checkStructure checks the elements RSS 2.0 and Atom 1.0 require: the
// channel's title, link and description, and each item's title or
// description (with a valid pubDate when there is one); the feed's id,
// title, updated and author (or each entry's), and each entry's id, title,
// updated and alternate link.
func checkStructure(t testing.TB, name string, doc []byte) {
	t.Helper()
	require.True(t, bytes.HasPrefix(doc, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)))
	if name == "rss" {
		var d rssStructure
		require.NoError(t, xml.Unmarshal(doc, &d))
		assert.Equal(t, "2.0", d.Version)
		require.Len(t, d.Channel, 1)
		c := d.Channel[0]
		one(t, "channel title", c.Title)
		one(t, "channel link", c.Link)
		one(t, "channel description", c.Description)
		for _, it := range c.Items {
			assert.True(t, it.Title != "" || it.Description != "", "item has a title or a description")
			assert.Equal(t, it.Link, it.GUID.Value)
			assert.Equal(t, "true", it.GUID.PermaLink)
			assert.LessOrEqual(t, len(it.PubDate), 1)
			for _, p := range it.PubDate {
				_, err := time.Parse(time.RFC1123Z, p)
				assert.NoError(t, err)
			}
			assert.LessOrEqual(t, len(it.Enclosures), 1, "RSS 2.0 allows one enclosure")
			for _, e := range it.Enclosures {
				assert.NotEmpty(t, e.URL)
				assert.NotEmpty(t, e.Length)
				assert.NotEmpty(t, e.Type)
			}
		}
		return
	}
	var d atomStructure
	require.NoError(t, xml.Unmarshal(doc, &d))
	one(t, "feed id", d.ID)
	one(t, "feed title", d.Title)
	one(t, "feed updated", d.Updated)
	for _, u := range d.Updated {
		_, err := time.Parse(time.RFC3339, u)
		assert.NoError(t, err)
	}
	if len(d.Entries) > 0 {
		require.Len(t, d.Authors, 1)
		assert.NotEmpty(t, d.Authors[0].Name)
	}
	for _, e := range d.Entries {
		one(t, "entry id", e.ID)
		one(t, "entry title", e.Title)
		one(t, "entry updated", e.Updated)
		_, err := time.Parse(time.RFC3339, e.Updated[0])
		assert.NoError(t, err)
		require.NotEmpty(t, e.Links)
		assert.Equal(t, "alternate", e.Links[0].Rel)
		assert.Equal(t, e.ID[0], e.Links[0].Href)
	}
}

// checkAll runs every check on the output of writer name for entries.
func checkAll(t testing.TB, name string, entries []formats.Entry, doc []byte) {
	t.Helper()
	checkStructure(t, name, doc)
	gofeedCheck(t, name, entries, doc)
	checkRoundTrip(t, name, entries, doc)
}

func TestWriterSample(t *testing.T) {
	entries := sampleEntries(t)
	for _, name := range []string{"rss", "atom"} {
		t.Run(name, func(t *testing.T) {
			doc := write(t, name, entries, formats.WriteOptions{Feed: feedInfo})
			checkAll(t, name, entries, doc)
			golden.Check(t, filepath.Join("testdata", "golden", "writer", "sample."+name), doc)
		})
	}
}

func TestWriterFallbacks(t *testing.T) {
	entries := sampleEntries(t)
	// No --title, --link, --description or --base-url: all from the first
	// entry's site.
	rss := write(t, "rss", entries, formats.WriteOptions{})
	checkAll(t, "rss", entries, rss)
	assert.Contains(t, string(rss), "<title>blog.example.com</title>\n<link>https://blog.example.com/</link>\n<description>blog.example.com</description>\n")
	atom := write(t, "atom", entries, formats.WriteOptions{})
	checkAll(t, "atom", entries, atom)
	assert.Contains(t, string(atom), "<id>https://blog.example.com/</id>\n<title>blog.example.com</title>\n<updated>2024-06-04T08:00:00+02:00</updated>\n")
	assert.Contains(t, string(atom), "<author><name>blog.example.com</name></author>")

	// Titles from the path when the source had none.
	assert.Contains(t, string(rss), "<title>/über/uns?lang=de</title>")
	assert.Contains(t, string(rss), "<item>\n<title>/</title>")
	// An entry without lastmod: no pubDate in RSS; in Atom the feed's
	// updated.
	assert.Contains(t, string(atom), "<id>https://blog.example.com/</id>\n<title>/</title>\n<updated>2024-06-04T08:00:00+02:00</updated>")

	// No entry has a lastmod: the feed's updated is the time of writing.
	undated := []formats.Entry{{Loc: "https://h.example/a", Title: "A"}}
	doc := write(t, "atom", undated, formats.WriteOptions{})
	checkStructure(t, "atom", doc)
	assert.Contains(t, string(doc), "<updated>2026-11-21T10:00:00Z</updated>")
}

func TestWriterEmpty(t *testing.T) {
	for _, name := range []string{"rss", "atom"} {
		t.Run(name, func(t *testing.T) {
			doc := write(t, name, nil, formats.WriteOptions{Feed: feedInfo})
			checkStructure(t, name, doc)
			f, err := gofeed.NewParser().Parse(bytes.NewReader(doc))
			require.NoError(t, err)
			assert.Empty(t, f.Items)
			assert.Equal(t, "Example Blog", f.Title)
			golden.Check(t, filepath.Join("testdata", "golden", "writer", "empty."+name), doc)
		})
	}
}

// TestConvert converts feeds (the fixtures and the corpus feeds with
// titles) to RSS and Atom: every check passes, and titles, summaries and
// media travel. The outputs are kept as golden files.
func TestConvert(t *testing.T) {
	inputs := []string{
		"testdata/feeds/youtube_channel.atom", "testdata/feeds/photos.atom", "testdata/feeds/podcast_video.rss",
		"testdata/feeds/video.json",
	}
	for _, name := range []string{"rustrss__rss2sample.xml", "crawlercommons__atom.xml", "feedparser__example.json",
		"gofeed__version_json_11.json", "simplepie__feed_rss-2.0_for_file_mock.xml"} {
		inputs = append(inputs, filepath.Join("..", "..", "testdata", "corpus", name))
	}
	for _, path := range inputs {
		entries := readInput(t, path)
		require.NotEmpty(t, entries)
		for _, name := range []string{"rss", "atom"} {
			t.Run(filepath.Base(path)+"→"+name, func(t *testing.T) {
				doc := write(t, name, entries, formats.WriteOptions{})
				checkAll(t, name, entries, doc)
				golden.Check(t, filepath.Join("testdata", "golden", "writer", filepath.Base(path)+"."+name), doc)
			})
		}
	}
}

func TestFeedToFeed(t *testing.T) {
	// RSS → Atom → RSS keeps the titles and summaries (HTML made plain).
	entries := readInput(t, "testdata/feeds/podcast_video.rss")
	atom := write(t, "atom", entries, formats.WriteOptions{})
	fromAtom := readBack(t, atom)
	rss := write(t, "rss", fromAtom, formats.WriteOptions{})
	fromRSS := readBack(t, rss)
	require.Len(t, fromRSS, 3)
	assert.Equal(t, "Episode 12: Caching", fromRSS[0].Title)
	assert.Equal(t, "We talk about HTTP caching & conditional requests.", fromRSS[0].Summary)
	assert.Equal(t, entries, fromRSS)

	// JSON → RSS.
	entries = readInput(t, "testdata/feeds/video.json")
	back := readBack(t, write(t, "rss", entries, formats.WriteOptions{}))
	require.Len(t, back, 1)
	assert.Equal(t, "Screencast 42: Git bisect", back[0].Title)
	assert.Equal(t, entries[0].Summary, back[0].Summary)
	assert.Equal(t, entries[0].Ext.Videos, back[0].Ext.Videos)
}

func TestWriterRegistered(t *testing.T) {
	for name, file := range map[string]string{"rss": "out/feed.rss", "atom": "feed.atom.gz"} {
		f, err := formats.Lookup(name)
		require.NoError(t, err)
		assert.True(t, f.CanWrite())
		assert.False(t, f.CanRead())
		assert.Nil(t, f.NewEncoder, "a feed is one document, never split")
		assert.Equal(t, f, formats.ForFileName(file))
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterErrors(t *testing.T) {
	w := feed.NewRSSWriter(failWriter{}, formats.WriteOptions{})
	for range 2000 { // past the buffer
		if err := w.Write(formats.Entry{Loc: "https://h.example/" + strings.Repeat("x", 100)}); err != nil {
			assert.EqualError(t, err, "disk full")
			break
		}
	}
	assert.EqualError(t, w.Close(), "disk full")
	assert.ErrorIs(t, w.Write(formats.Entry{Loc: "https://h.example/"}), feed.ErrClosed)
}

func TestWriterEscapes(t *testing.T) {
	entries := []formats.Entry{{Loc: "https://h.example/?a=1&b=2", Title: "x\x00y \"q\" 'a' <b>", Summary: "&amp; \ufffe"}}
	for _, name := range []string{"rss", "atom"} {
		doc := write(t, name, entries, formats.WriteOptions{Feed: formats.FeedInfo{Title: "<T&>"}})
		checkStructure(t, name, doc)
		back := readBack(t, doc)
		require.Len(t, back, 1)
		assert.Equal(t, "https://h.example/?a=1&b=2", back[0].Loc)
		assert.Equal(t, `xy "q" 'a' <b>`, back[0].Title)
		assert.Equal(t, "&amp;", back[0].Summary)
	}
}
