package feed_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// describe writes an entry as golden files show it: "loc<TAB>lastmod",
// then one indented line for the title, the summary and each extension.
func describe(b *strings.Builder, e formats.Entry) {
	fmt.Fprintf(b, "%s\t%s\n", e.Loc, e.LastMod)
	if e.Title != "" {
		fmt.Fprintf(b, "  title: %q\n", e.Title)
	}
	if e.Summary != "" {
		fmt.Fprintf(b, "  summary: %q\n", e.Summary)
	}
	if e.Ext == nil {
		return
	}
	for _, im := range e.Ext.Images {
		fmt.Fprintf(b, "  image: %s\n", im.Loc)
	}
	for _, v := range e.Ext.Videos {
		fmt.Fprintf(b, "  video: content=%s player=%s thumbnail=%s duration=%d\n    title=%q\n    description=%q\n",
			v.ContentLoc, v.PlayerLoc, v.ThumbnailLoc, v.Duration, v.Title, v.Description)
	}
	for _, a := range e.Ext.Alternates {
		fmt.Fprintf(b, "  alternate: %s %s\n", a.Hreflang, a.Href)
	}
	if n := e.Ext.News; n != nil {
		fmt.Fprintf(b, "  news: %q %s %s %q\n", n.PublicationName, n.PublicationLanguage, n.PublicationDate, n.Title)
	}
}

// mediaFeeds are the corpus feeds some of whose items carry extension data
// (images, videos, alternates), linked or not. TestCorpusMedia checks that
// no other corpus feed has any.
var mediaFeeds = []string{
	"feedparser__example.json", // a video attachment without a thumbnail: skipped
	"gofeed__feed_item_fallbacks_-_rss_channel_item_extensions.xml",
	"gofeed__feed_item_image_-_rss_channel_item_media.xml",
	"gofeed__version_json_10.json",
	"gofeed__version_json_11.json",
}

// describeFile describes every item of a feed file, as DescribeItems sees
// them, with the warnings they gave.
func describeFile(t *testing.T, path string, opts formats.ReadOptions) ([]formats.Entry, string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var b strings.Builder
	opts.Source = filepath.Base(path)
	opts.Warn = func(pe *formats.ParseError) { fmt.Fprintf(&b, "# warning: %s\n", pe) }
	// Decoded to UTF-8 as formats.Open does for the reader.
	data, err := io.ReadAll(textenc.NewReader(f, textenc.Options{}))
	require.NoError(t, err)
	entries, err := feed.DescribeItems(data, opts)
	if err != nil {
		return nil, "# error: " + err.Error() + "\n"
	}
	var out strings.Builder
	for _, e := range entries {
		describe(&out, e)
	}
	return entries, out.String() + b.String()
}

// TestCorpusMedia derives the extensions of every item of the corpus feeds,
// linked or not (most corpus feeds with media have items without a link,
// which the reader skips), and compares those of the feeds that have any
// with testdata/golden/media/<name>.txt. Run with -update to rewrite them.
func TestCorpusMedia(t *testing.T) {
	for _, c := range corpusFeeds(t) {
		if c.Valid == "no" {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			entries, got := describeFile(t, c.Path, formats.ReadOptions{})
			has := false
			for _, e := range entries {
				has = has || e.Ext != nil
			}
			listed := false
			for _, name := range mediaFeeds {
				listed = listed || name == c.Name
			}
			if !listed {
				assert.False(t, has, "%s has extension data; add it to mediaFeeds\n%s", c.Name, got)
				return
			}
			golden.Check(t, filepath.Join("testdata", "golden", "media", c.Name+".txt"), []byte(got))
		})
	}
}

// itemsOf describes every item of a corpus feed.
func itemsOf(t *testing.T, name string) ([]formats.Entry, string) {
	return describeFile(t, filepath.Join(corpus.Dir(t), name), formats.ReadOptions{})
}

func TestCorpusMediaDetails(t *testing.T) {
	// A photo item of a feed with an undeclared media: prefix.
	items, _ := itemsOf(t, "gofeed__feed_item_image_-_rss_channel_item_media.xml")
	require.Len(t, items, 1)
	require.NotNil(t, items[0].Ext)
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/blog-open.png"}}, items[0].Ext.Images)
	assert.Equal(t, "rss item image from media content", items[0].Title)

	// Titles and summaries fall back to Dublin Core and iTunes.
	items, _ = itemsOf(t, "gofeed__feed_item_fallbacks_-_rss_channel_item_extensions.xml")
	require.Len(t, items, 3)
	assert.Equal(t, "DC Item Title", items[0].Title)
	assert.Equal(t, "DC Item Description", items[0].Summary)
	assert.Equal(t, []formats.Image{{Loc: "http://example.org/item-media.png"}}, items[0].Ext.Images)
	assert.Equal(t, "Item Itunes Summary", items[1].Summary)
	assert.Nil(t, items[1].Ext, "itunes:image is not an image of the page")

	// JSON Feed 1.1: image and banner_image; an audio attachment is neither.
	items, _ = itemsOf(t, "gofeed__version_json_11.json")
	require.Len(t, items, 1)
	assert.Equal(t, []formats.Image{{Loc: "https://sample-json-feed.com/image.png"}, {Loc: "https://sample-json-feed.com/banner_image.png"}}, items[0].Ext.Images)
	assert.Empty(t, items[0].Ext.Videos)
	assert.Equal(t, "summary", items[0].Summary)

	// A video attachment with no thumbnail is skipped, saying so.
	items, got := itemsOf(t, "feedparser__example.json")
	require.Len(t, items, 2)
	assert.Nil(t, items[0].Ext)
	assert.Contains(t, got, `item 1 ("post 2"): video https://example.org/second-item-show.mp4 (attachment) skipped: no thumbnail_loc`)
	assert.Equal(t, "This is a second item.", items[0].Summary)
	assert.Equal(t, "Hello, world!", items[1].Summary, "HTML stripped, script dropped")

	// The podcast: no enclosure, nothing to derive; its items' texts.
	items, _ = itemsOf(t, "rustrss__itunes.xml")
	require.Len(t, items, 1)
	assert.Nil(t, items[0].Ext)
	assert.Equal(t, "Summary", items[0].Summary)
	// The RSS 0.92 podcast: mp3 enclosures are audio, neither image nor
	// video; its descriptions are made plain text.
	items, _ = itemsOf(t, "rustrss__rss092.xml")
	require.Len(t, items, 22)
	for _, it := range items {
		assert.Nil(t, it.Ext)
	}
	assert.True(t, strings.HasSuffix(items[0].Summary, "A little change, the wind and rain."), items[0].Summary)
	assert.NotContains(t, items[1].Summary, "<a")
	// media:group with a description but no media:content nor player:
	// there is no video to make.
	items, _ = itemsOf(t, "feedparser__media_group.xml")
	require.Len(t, items, 1)
	assert.Nil(t, items[0].Ext)
	assert.Equal(t, "Example Atom", items[0].Title)
}

// readFile reads a testdata feed with opts.
func readFile(t *testing.T, name string, opts formats.ReadOptions) result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "feeds", name))
	require.NoError(t, err)
	opts.Source = name
	return read(t, string(data), opts)
}

// TestFixtureGolden compares what the reader gives for the fixtures in
// testdata/feeds (modelled on a YouTube channel feed, a video podcast, a
// photo site's Atom feed and a JSON Feed of screencasts) with
// testdata/golden/feeds/<name>.txt. Run with -update to rewrite them.
func TestFixtureGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "feeds", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	now := time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC)
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			res := readFile(t, name, formats.ReadOptions{NewsName: "Example News", Now: now})
			require.NoError(t, res.err)
			var b strings.Builder
			for _, e := range res.entries {
				describe(&b, e)
			}
			for _, w := range res.warnings {
				fmt.Fprintf(&b, "# warning: %s\n", w)
			}
			golden.Check(t, filepath.Join("testdata", "golden", "feeds", name+".txt"), []byte(b.String()))
		})
	}
}

func TestYouTube(t *testing.T) {
	res := readFile(t, "youtube_channel.atom", formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 2)
	e := res.entries[0]
	assert.Equal(t, "Grilling & chilling: the <best> summer recipes", e.Title)
	require.NotNil(t, e.Ext)
	assert.Equal(t, []formats.Video{{
		ThumbnailLoc: "https://i1.ytimg.com/vi/AAAAAAAAAA1/hqdefault.jpg",
		Title:        "Grilling & chilling: the <best> summer recipes",
		Description:  "Three recipes for the grill. Ingredients below. * 1 kg of potatoes",
		PlayerLoc:    "https://www.youtube.com/v/AAAAAAAAAA1?version=3",
	}}, e.Ext.Videos)
	assert.Empty(t, e.Ext.Images, "a video's thumbnail is not repeated as an image")
	// The short has no description, in media:group or in the entry: its
	// video is skipped, and its thumbnail stays an image of the page.
	assert.Equal(t, []formats.Image{{Loc: "https://i2.ytimg.com/vi/AAAAAAAAAA2/hqdefault.jpg"}}, res.entries[1].Ext.Images)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), `item 2 ("A short without a description"): video https://www.youtube.com/v/AAAAAAAAAA2?version=3 (media:group/media:content) skipped: no description`)
}

func TestPodcast(t *testing.T) {
	res := readFile(t, "podcast_video.rss", formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 3)
	e := res.entries[0]
	assert.Equal(t, "We talk about HTTP caching & conditional requests.", e.Summary)
	assert.Equal(t, []formats.Video{{
		ThumbnailLoc: "https://podcast.example.com/ep12.jpg",
		Title:        "Episode 12: Caching",
		Description:  "We talk about HTTP caching & conditional requests.",
		ContentLoc:   "https://cdn.example.com/ep12.mp4",
		Duration:     42*60 + 10,
	}}, e.Ext.Videos)
	assert.Nil(t, res.entries[1].Ext, "audio enclosure")
	assert.Nil(t, res.entries[2].Ext)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "podcast_video.rss:27: item 3 (\"Episode 10: a video with no thumbnail\"): video https://podcast.example.com/media/ep10.m4v (enclosure) skipped: no thumbnail_loc")
}

func TestPhotos(t *testing.T) {
	res := readFile(t, "photos.atom", formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 3)
	// The enclosure and media:content name one image; the thumbnail is
	// another. The <img> of the content is never scraped.
	assert.Equal(t, []formats.Image{{Loc: "https://live.example.com/5301_b.jpg"}, {Loc: "https://live.example.com/5301_s.jpg"}},
		res.entries[0].Ext.Images)
	assert.Equal(t, "example posted a photo:", res.entries[0].Summary)
	// The loc is the first alternate, fr, which lists itself.
	assert.Equal(t, []formats.Alternate{
		{Hreflang: "fr", Href: "https://photos.example.com/fr/5302/"},
		{Hreflang: "en", Href: "https://photos.example.com/en/5302/"},
		{Hreflang: "de", Href: "https://photos.example.com/de/5302/"},
	}, res.entries[1].Ext.Alternates)
	// The page itself is added with the feed's language.
	assert.Equal(t, []formats.Alternate{
		{Hreflang: "en-US", Href: "https://photos.example.com/people/example/5303/"},
		{Hreflang: "fr", Href: "https://photos.example.com/fr/5303/"},
	}, res.entries[2].Ext.Alternates)
	assert.Empty(t, res.warnings)
}

func TestAlternatesWithoutLanguage(t *testing.T) {
	res := read(t, atomDoc(`<entry><link href="https://h.example/a"/><link rel="alternate" hreflang="fr" href="https://h.example/fr/a"/></entry>`), formats.ReadOptions{})
	require.Len(t, res.entries, 1)
	assert.Equal(t, []formats.Alternate{{Hreflang: "fr", Href: "https://h.example/fr/a"}}, res.entries[0].Ext.Alternates)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "the page's own language is unknown")
	strict := read(t, atomDoc(`<entry><link href="https://h.example/a"/><link rel="alternate" hreflang="fr" href="https://h.example/fr/a"/></entry>`), formats.ReadOptions{Strict: true})
	require.NoError(t, strict.err, "a warning in strict mode too")
	assert.Equal(t, res.entries, strict.entries)
	assert.Equal(t, messages(res.warnings), messages(strict.warnings))
}

func TestJSONVideo(t *testing.T) {
	res := readFile(t, "video.json", formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 1)
	x := res.entries[0].Ext
	require.NotNil(t, x)
	assert.Equal(t, []formats.Video{{
		ThumbnailLoc: "https://casts.example.com/42/poster.jpg",
		Title:        "Git bisect (WebM)",
		Description:  "Finding the commit that broke the build, step by step.",
		ContentLoc:   "https://casts.example.com/42/video.webm",
		Duration:     754,
	}}, x.Videos, "deduped by content_loc")
	assert.Equal(t, []formats.Image{{Loc: "https://casts.example.com/42/poster.jpg"}, {Loc: "https://casts.example.com/42/slides.png"}}, x.Images)
}

func TestVideoContentIsPage(t *testing.T) {
	res := read(t, rssDoc(`<item><title>T</title><description>D</description><link>https://h.example/v.mp4</link>
<enclosure url="https://h.example/v.mp4" type="video/mp4" length="1"/><media:thumbnail xmlns:media="http://search.yahoo.com/mrss/" url="https://h.example/t.jpg"/></item>`), formats.ReadOptions{})
	require.Len(t, res.entries, 1)
	assert.Equal(t, []formats.Image{{Loc: "https://h.example/t.jpg"}}, res.entries[0].Ext.Images)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "its content_loc is the page itself")
}

func TestVideoLimits(t *testing.T) {
	long := strings.Repeat("word ", 600)
	res := read(t, rssDoc(`<item xmlns:media="http://search.yahoo.com/mrss/"><link>https://h.example/p</link><title>`+long+`</title>
<media:content url="v.mp4" medium="video"><media:player url="https://h.example/play"/><media:thumbnail url="https://h.example/t.jpg"/>
<media:description type="html">&lt;p&gt;`+long+`&lt;/p&gt;</media:description></media:content></item>`), formats.ReadOptions{Base: mustURL("https://h.example/feed/")})
	require.Len(t, res.entries, 1)
	v := res.entries[0].Ext.Videos[0]
	assert.LessOrEqual(t, len([]rune(v.Title)), 100)
	assert.LessOrEqual(t, len([]rune(v.Description)), 2048)
	assert.True(t, strings.HasPrefix(v.Title, "word word"), v.Title)
	assert.False(t, strings.HasSuffix(v.Title, " "))
	assert.Equal(t, "https://h.example/feed/v.mp4", v.ContentLoc, "relative media URLs resolve like links")
	assert.Equal(t, "https://h.example/play", v.PlayerLoc)
	assert.LessOrEqual(t, len([]rune(res.entries[0].Title)), feed.MaxTitle)
}

func TestImagesDedupedAndCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<item xmlns:media="http://search.yahoo.com/mrss/"><link>https://h.example/p</link>`)
	for i := range 1005 {
		fmt.Fprintf(&b, `<media:content url="https://h.example/i%d.jpg"/><media:thumbnail url="https://h.example/i%d.jpg"/>`, i, i)
	}
	b.WriteString(`<enclosure url="https://h.example/i0.jpg" type="image/jpeg" length="0"/></item>`)
	res := read(t, rssDoc(b.String()), formats.ReadOptions{})
	require.Len(t, res.entries, 1)
	images := res.entries[0].Ext.Images
	assert.Len(t, images, formats.MaxImages)
	assert.Equal(t, "https://h.example/i0.jpg", images[0].Loc)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "5 images over the limit of 1000 dropped")
}

func TestNoContentImageScan(t *testing.T) {
	res := read(t, rssDoc(`<item><link>https://h.example/p</link><description>&lt;img src="https://h.example/x.jpg"&gt;</description></item>`), formats.ReadOptions{})
	require.Len(t, res.entries, 1)
	assert.Nil(t, res.entries[0].Ext)
}

func TestNews(t *testing.T) {
	now := time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC)
	doc := func(lang string) string {
		return `<rss version="2.0"><channel><title>t</title>` + lang + `
<item><title>Fresh &amp; new</title><link>https://n.example/1</link><pubDate>Tue, 04 Jun 2024 09:00:00 +0000</pubDate></item>
<item><title>Two days ago</title><link>https://n.example/2</link><pubDate>Sun, 02 Jun 2024 12:00:00 +0000</pubDate></item>
<item><title>Too old</title><link>https://n.example/3</link><pubDate>Sun, 02 Jun 2024 11:59:59 +0000</pubDate></item>
<item><title>Future</title><link>https://n.example/4</link><pubDate>Wed, 05 Jun 2024 09:00:00 +0000</pubDate></item>
<item><link>https://n.example/5</link><pubDate>Tue, 04 Jun 2024 09:00:00 +0000</pubDate></item>
<item><title>Updated later, published earlier</title><link>https://n.example/6</link><pubDate>Tue, 04 Jun 2024 09:00:00 +0000</pubDate></item>
</channel></rss>`
	}
	opts := formats.ReadOptions{NewsName: "The Example Times", Now: now}
	res := read(t, doc(`<language>zh-TW</language>`), opts)
	require.Len(t, res.entries, 6)
	news := func(i int) *formats.News {
		if res.entries[i].Ext == nil {
			return nil
		}
		return res.entries[i].Ext.News
	}
	require.NotNil(t, news(0))
	assert.Equal(t, formats.News{PublicationName: "The Example Times", PublicationLanguage: "zh-tw",
		PublicationDate: res.entries[0].LastMod, Title: "Fresh & new"}, *news(0))
	assert.NotNil(t, news(1), "exactly 48 hours")
	assert.Nil(t, news(2))
	assert.Nil(t, news(3))
	assert.Nil(t, news(4))
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "item 5: no news entry: the item has no title")

	// Without a language: one warning, no news.
	res = read(t, doc(""), opts)
	for _, e := range res.entries {
		assert.Nil(t, e.Ext)
	}
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "no news entry: the feed has no language")

	// Without NewsName: no news, no warning.
	res = read(t, doc(""), formats.ReadOptions{Now: now})
	assert.Empty(t, res.warnings)
}

func TestNewsAtomPublished(t *testing.T) {
	now := time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC)
	res := read(t, `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-GB"><title>t</title>
<entry><title>Old, updated today</title><link href="https://n.example/a"/><published>2024-05-01T00:00:00Z</published><updated>2024-06-04T10:00:00Z</updated></entry>
<entry xml:lang="pt-BR"><title>Nova</title><link href="https://n.example/b"/><updated>2024-06-04T10:00:00Z</updated></entry>
</feed>`, formats.ReadOptions{NewsName: "N", Now: now})
	require.Len(t, res.entries, 2)
	assert.Nil(t, res.entries[0].Ext, "news age counts from published")
	require.NotNil(t, res.entries[1].Ext)
	assert.Equal(t, "pt", res.entries[1].Ext.News.PublicationLanguage)
}

func TestTitlesAndSummaries(t *testing.T) {
	tests := []struct {
		name, doc, title, summary string
	}{
		{"rss html", rssDoc(`<item><link>https://h.example/</link><title>A &amp;amp; B</title><description>&lt;p&gt;One&lt;/p&gt;&lt;p&gt;two&amp;nbsp;three&lt;/p&gt;</description></item>`),
			"A &amp; B", "One two three"}, // an RSS title is plain text: shown as gofeed and feed readers show it
		{"rss content:encoded", rssDoc(`<item xmlns:content="http://purl.org/rss/1.0/modules/content/"><link>https://h.example/</link><content:encoded>&lt;b&gt;Body&lt;/b&gt;</content:encoded></item>`),
			"", "Body"},
		{"atom content", atomDoc(`<entry><title type="html">&lt;i&gt;It&lt;/i&gt;</title><link href="https://h.example/"/><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>X  y</p></div></content></entry>`),
			"It", "X y"},
		{"json plain text", jsonDoc(`{"url": "https://h.example/", "title": "a <b> c", "content_text": "x &amp; y"}`),
			"a <b> c", "x &amp; y"},
		{"json html", jsonDoc(`{"url": "https://h.example/", "content_html": "<p>x &amp; y</p>"}`),
			"", "x & y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := read(t, tt.doc, formats.ReadOptions{})
			require.Len(t, res.entries, 1)
			assert.Equal(t, tt.title, res.entries[0].Title)
			assert.Equal(t, tt.summary, res.entries[0].Summary)
		})
	}
}
