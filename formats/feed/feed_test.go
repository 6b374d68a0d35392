package feed_test

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
)

// result is what reading a feed gave.
type result struct {
	entries  []formats.Entry
	warnings []*formats.ParseError
	err      error // the error that ended the stream; nil at io.EOF
}

func (r result) locs() []string {
	locs := []string{}
	for _, e := range r.entries {
		locs = append(locs, e.Loc)
	}
	return locs
}

func (r result) lastmods() []string {
	var ls []string
	for _, e := range r.entries {
		ls = append(ls, e.LastMod.String())
	}
	return ls
}

// readAll reads every entry of r.
func readAll(t testing.TB, r formats.Reader) result {
	t.Helper()
	var res result
	for range 1_000_000 {
		e, err := r.Next()
		if err == io.EOF {
			return res
		}
		if err != nil {
			res.err = err
			return res
		}
		res.entries = append(res.entries, e)
	}
	t.Fatal("reader never returned io.EOF")
	return res
}

// read reads doc with the feed reader, in lenient mode unless opts says.
func read(t testing.TB, doc string, opts formats.ReadOptions) result {
	t.Helper()
	var warnings []*formats.ParseError
	if opts.Source == "" {
		opts.Source = "test"
	}
	opts.Warn = func(pe *formats.ParseError) { warnings = append(warnings, pe) }
	res := readAll(t, feed.NewReader(strings.NewReader(doc), opts))
	res.warnings = warnings
	for _, e := range res.entries {
		assert.Equal(t, formats.KindURL, e.Kind)
		assert.Regexp(t, `^https?://`, e.Loc)
	}
	return res
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

func rssDoc(items string) string {
	return `<?xml version="1.0"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>t</title>` + items + `</channel></rss>`
}

func atomDoc(entries string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>urn:x</id>` + entries + `</feed>`
}

func jsonDoc(items string) string {
	return `{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": [` + items + `]}`
}

func TestLoc(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		base string // opts.Base
		want []string
		// warn is a substring each warning must hold, in order.
		warn []string
	}{
		// RSS: <link>, then a permalink guid, then atom:link.
		{name: "rss link", doc: rssDoc(`<item><link>http://a.example/1</link></item>`),
			want: []string{"http://a.example/1"}},
		{name: "rss link wins over guid", doc: rssDoc(`<item><link>http://a.example/link</link><guid>http://a.example/guid</guid></item>`),
			want: []string{"http://a.example/link"}},
		{name: "rss first of several links", doc: rssDoc(`<item><link>http://a.example/1</link><link>http://a.example/2</link></item>`),
			want: []string{"http://a.example/1"}},
		{name: "rss link href attribute", doc: rssDoc(`<item><link href="http://a.example/h"/></item>`),
			want: []string{"http://a.example/h"}},
		{name: "guid without isPermaLink", doc: rssDoc(`<item><guid>https://a.example/g</guid></item>`),
			want: []string{"https://a.example/g"}},
		{name: "guid isPermaLink true", doc: rssDoc(`<item><guid isPermaLink="true">https://a.example/g</guid></item>`),
			want: []string{"https://a.example/g"}},
		{name: "guid isPermaLink false", doc: rssDoc(`<item><title>T</title><guid isPermaLink="false">https://a.example/g</guid></item>`),
			want: []string{}, warn: []string{`item 1 ("T") has no link (its guid is not a permalink)`}},
		{name: "guid not a URL", doc: rssDoc(`<item><guid>abc123</guid></item>`),
			want: []string{}, warn: []string{"item 1 has no link (its guid is not an http(s) URL)"}},
		{name: "guid tag URI", doc: rssDoc(`<item><guid>tag:a.example,2024:1</guid></item>`),
			want: []string{}, warn: []string{"item 1 has no link"}},
		{name: "guid relative never resolved", doc: rssDoc(`<item><guid>/post/1</guid></item>`), base: "http://a.example/",
			want: []string{}, warn: []string{"item 1 has no link"}},
		{name: "atom:link in an rss item", doc: rssDoc(`<item><atom:link rel="self" href="http://a.example/self"/><atom:link rel="alternate" href="http://a.example/alt"/></item>`),
			want: []string{"http://a.example/alt"}},
		{name: "rel-less atom:link in an rss item", doc: rssDoc(`<item><atom:link href="http://a.example/alt"/></item>`),
			want: []string{"http://a.example/alt"}},
		{name: "atom:link related is not the page", doc: rssDoc(`<item><atom:link rel="related" href="http://a.example/rel"/></item>`),
			want: []string{}, warn: []string{"item 1 has no link"}},
		{name: "guid before atom:link", doc: rssDoc(`<item><atom:link href="http://a.example/alt"/><guid>http://a.example/guid</guid></item>`),
			want: []string{"http://a.example/guid"}},
		{name: "never comments, enclosure, source or wfw:commentRss",
			doc: rssDoc(`<item xmlns:wfw="http://wellformedweb.org/CommentAPI/"><comments>http://a.example/c</comments>
				<enclosure url="http://a.example/e.mp3" type="audio/mpeg" length="1"/>
				<source url="http://a.example/s">s</source><wfw:commentRss>http://a.example/w</wfw:commentRss></item>`),
			want: []string{}, warn: []string{"item 1 has no link"}},
		{name: "unusable link falls back to guid", doc: rssDoc(`<item><link>tag:a.example,2024:1</link><guid>http://a.example/g</guid></item>`),
			want: []string{"http://a.example/g"}, warn: []string{"item 1: link unusable (not an http or https URL"}},
		{name: "at:// link skipped", doc: rssDoc(`<item><link>at://did:plc:abc/app.bsky.feed.post/1</link></item>`),
			want: []string{}, warn: []string{"item 1 skipped: link: not an http or https URL"}},
		{name: "item order kept", doc: rssDoc(`<item><link>http://a.example/3</link></item><item><link>http://a.example/1</link></item><item><link>http://a.example/2</link></item>`),
			want: []string{"http://a.example/3", "http://a.example/1", "http://a.example/2"}},
		{name: "link cleaned", doc: rssDoc(`<item><link>  HTTP://A.Example/ä b?x=1&amp;y=2  </link></item>`),
			want: []string{"http://a.example/%C3%A4%20b?x=1&y=2"}},

		// Relative links: xml:base, the feed's own link, then opts.Base.
		{name: "xml:base", doc: `<rss version="2.0" xml:base="http://a.example/feeds/"><channel><link>http://other.example/</link><item><link>post/1</link></item></channel></rss>`,
			want: []string{"http://a.example/feeds/post/1"}},
		{name: "channel link", doc: `<rss version="2.0"><channel><link>http://a.example/blog/</link><item><link>post/1</link></item></channel></rss>`,
			base: "http://other.example/feed.xml", want: []string{"http://a.example/blog/post/1"}},
		{name: "relative channel link against Base", doc: `<rss version="2.0"><channel><link>/blog/</link><item><link>post/1</link></item></channel></rss>`,
			base: "http://a.example/feed.xml", want: []string{"http://a.example/blog/post/1"}},
		{name: "Base", doc: `<rss version="2.0"><channel><item><link>/post/1</link></item></channel></rss>`,
			base: "https://a.example/feeds/rss.xml", want: []string{"https://a.example/post/1"}},
		{name: "relative with no base", doc: `<rss version="2.0"><channel><item><title>T</title><link>/post/1</link></item></channel></rss>`,
			want: []string{}, warn: []string{`item 1 ("T") skipped: link: relative URL with no http(s) base`}},

		// Atom: the first alternate or rel-less link.
		{name: "atom alternate", doc: atomDoc(`<entry><link rel="self" href="http://a.example/self"/><link rel="edit" href="http://a.example/edit"/><link rel="alternate" href="http://a.example/alt"/></entry>`),
			want: []string{"http://a.example/alt"}},
		{name: "atom rel-less link", doc: atomDoc(`<entry><link href="http://a.example/1"/><link rel="alternate" type="text/html" href="http://a.example/2"/></entry>`),
			want: []string{"http://a.example/1"}},
		{name: "atom never self, enclosure, edit, service.post", doc: atomDoc(`<entry><title>E</title><link rel="self" href="http://a.example/s"/><link rel="enclosure" href="http://a.example/e.mp3"/>
			<link rel="edit" href="http://a.example/e"/><link rel="service.post" href="http://a.example/p"/><id>http://a.example/id</id></entry>`),
			want: []string{}, warn: []string{`item 1 ("E") has no link (only rel=self, rel=enclosure, rel=edit, rel=service.post links)`}},
		{name: "atom xml:base", doc: `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://a.example/x/"><entry><link href="y"/></entry></feed>`,
			want: []string{"http://a.example/x/y"}},
		{name: "atom feed alternate link as base", doc: atomDoc(`<link href="http://a.example/blog/"/><link rel="self" href="http://self.example/feed"/><entry><link href="post"/></entry>`),
			want: []string{"http://a.example/blog/post"}},
		{name: "atom 0.3", doc: `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" type="text/html" href="http://a.example/03"/><modified>2003-12-13T18:30:02Z</modified></entry></feed>`,
			want: []string{"http://a.example/03"}},

		// JSON Feed: url, then id when it is an http(s) URL; never external_url.
		{name: "json url", doc: jsonDoc(`{"id": "http://a.example/id", "url": "http://a.example/url"}`),
			want: []string{"http://a.example/url"}},
		{name: "json id", doc: jsonDoc(`{"id": "http://a.example/id"}`),
			want: []string{"http://a.example/id"}},
		{name: "json numeric id", doc: jsonDoc(`{"id": 12}`),
			want: []string{}, warn: []string{"item 1 has no link"}},
		{name: "json never external_url", doc: jsonDoc(`{"id": "1", "title": "T", "external_url": "http://b.example/"}`),
			want: []string{}, warn: []string{`item 1 ("T") has no link (external_url is another site's page)`}},
		{name: "json relative url against home_page_url", doc: `{"version": "https://jsonfeed.org/version/1", "home_page_url": "https://a.example/blog/", "items": [{"id": "1", "url": "p/1"}]}`,
			want: []string{"https://a.example/blog/p/1"}},
		{name: "json relative url against Base", doc: jsonDoc(`{"id": "1", "url": "/p/1"}`), base: "https://a.example/feed.json",
			want: []string{"https://a.example/p/1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts formats.ReadOptions
			if tt.base != "" {
				opts.Base = mustURL(tt.base)
			}
			res := read(t, tt.doc, opts)
			require.NoError(t, res.err)
			assert.Equal(t, tt.want, res.locs())
			require.Len(t, res.warnings, len(tt.warn), "warnings: %v", res.warnings)
			for i, w := range tt.warn {
				assert.Contains(t, res.warnings[i].Error(), w)
				assert.Equal(t, "test", res.warnings[i].Source)
			}
		})
	}
}

func TestLastMod(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string // LastMod.String(); "" for none
		prec formats.Precision
		warn string // substring of the one warning expected
	}{
		{name: "pubDate", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>Thu, 05 Jan 2017 13:34:51 +0100</pubDate></item>`),
			want: "2017-01-05T13:34:51+01:00", prec: formats.PrecisionSecond},
		{name: "pubDate named zone", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>Tue, 10 Jun 2003 04:00:00 EDT</pubDate></item>`),
			want: "2003-06-10T04:00:00-04:00", prec: formats.PrecisionSecond},
		{name: "dc:date over pubDate", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>Thu, 05 Jan 2017 13:34:51 +0100</pubDate><dc:date>2018-02-03T04:05:06Z</dc:date></item>`),
			want: "2018-02-03T04:05:06Z", prec: formats.PrecisionSecond},
		{name: "date-only dc:date stays a date", doc: rssDoc(`<item><link>http://a.example/</link><dc:date>2018-02-03</dc:date><pubDate>Thu, 05 Jan 2017 13:34:51 +0100</pubDate></item>`),
			want: "2018-02-03", prec: formats.PrecisionDay},
		{name: "atom:updated over dc:date and pubDate", doc: rssDoc(`<item><link>http://a.example/</link><dc:date>2018-02-03</dc:date><atom:updated>2019-01-01T00:00:00.5+02:00</atom:updated></item>`),
			want: "2019-01-01T00:00:00.5+02:00", prec: formats.PrecisionFraction},
		{name: "pubDate in a wider form with a zone", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>Mon, 2 Jan 2006 3:04:05 PM -0700</pubDate></item>`),
			want: "2006-01-02T22:04:05Z", prec: formats.PrecisionSecond},
		{name: "pubDate date alone", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>January 2, 2006</pubDate></item>`),
			want: "2006-01-02", prec: formats.PrecisionDay},
		{name: "pubDate without zone keeps its date", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>05 Jan 17 13:34:55</pubDate></item>`),
			want: "2017-01-05", prec: formats.PrecisionDay,
			warn: `item 1: pubDate "05 Jan 17 13:34:55" has no time zone: kept as the date 2017-01-05`},
		{name: "pubDate with an unknown zone keeps its date", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>Thu, 05 Jan 2017 13:34:51 XYZ</pubDate></item>`),
			want: "2017-01-05", prec: formats.PrecisionDay,
			warn: `pubDate "Thu, 05 Jan 2017 13:34:51 XYZ" has an unknown time zone "XYZ": kept as the date 2017-01-05`},
		{name: "pubDate day/month ambiguous dropped", doc: rssDoc(`<item><link>http://a.example/</link><pubDate>02/01/2006</pubDate></item>`),
			warn: "lastmod dropped"},
		{name: "bad dc:date falls back to pubDate", doc: rssDoc(`<item><link>http://a.example/</link><dc:date>yesterday</dc:date><pubDate>Thu, 05 Jan 2017 13:34:51 GMT</pubDate></item>`),
			want: "2017-01-05T13:34:51Z", prec: formats.PrecisionSecond, warn: `dc:date "yesterday" is not a date; used its pubDate`},
		{name: "empty pubDate", doc: rssDoc(`<item><link>http://a.example/</link><pubDate> </pubDate></item>`)},
		{name: "no date: none invented", doc: `<rss version="2.0"><channel><pubDate>Thu, 05 Jan 2017 13:34:51 GMT</pubDate><lastBuildDate>Thu, 05 Jan 2017 13:34:51 GMT</lastBuildDate>
			<item><link>http://a.example/</link></item></channel></rss>`},
		{name: "atom updated over published", doc: atomDoc(`<entry><link href="http://a.example/"/><published>2003-12-13T08:29:29-04:00</published><updated>2003-12-14T18:30:02Z</updated></entry>`),
			want: "2003-12-14T18:30:02Z", prec: formats.PrecisionSecond},
		{name: "atom published", doc: atomDoc(`<entry><link href="http://a.example/"/><published>2003-12-13T08:29-04:00</published></entry>`),
			want: "2003-12-13T08:29:00-04:00", prec: formats.PrecisionMinute},
		{name: "atom feed updated not used for entries", doc: atomDoc(`<updated>2003-12-14T18:30:02Z</updated><entry><link href="http://a.example/"/></entry>`)},
		{name: "atom 0.3 modified over issued", doc: `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" href="http://a.example/"/><issued>2003-12-13T08:29:29-04:00</issued><modified>2003-12-13T18:30:02Z</modified></entry></feed>`,
			want: "2003-12-13T18:30:02Z", prec: formats.PrecisionSecond},
		{name: "atom 0.3 issued", doc: `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" href="http://a.example/"/><issued>2003-12-13</issued></entry></feed>`,
			want: "2003-12-13", prec: formats.PrecisionDay},
		{name: "json date_modified over date_published", doc: jsonDoc(`{"id": "1", "url": "http://a.example/", "date_published": "2010-02-07T14:04:00-05:00", "date_modified": "2010-02-08T14:04:00-05:00"}`),
			want: "2010-02-08T14:04:00-05:00", prec: formats.PrecisionSecond},
		{name: "json date_published", doc: jsonDoc(`{"id": "1", "url": "http://a.example/", "date_published": "2010-02-07T14:04:00-05:00"}`),
			want: "2010-02-07T14:04:00-05:00", prec: formats.PrecisionSecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := read(t, tt.doc, formats.ReadOptions{})
			require.NoError(t, res.err)
			require.Len(t, res.entries, 1)
			lm := res.entries[0].LastMod
			assert.Equal(t, tt.want, lm.String())
			assert.Equal(t, tt.prec, lm.Precision())
			if tt.warn == "" {
				assert.Empty(t, res.warnings)
			} else if assert.Len(t, res.warnings, 1) {
				assert.Contains(t, res.warnings[0].Error(), tt.warn)
				assert.False(t, res.warnings[0].Skipped, "a bad date costs the field, not the entry")
			}
		})
	}
}

func TestLastModZoneKept(t *testing.T) {
	res := read(t, rssDoc(`<item><link>http://a.example/</link><pubDate>Thu, 05 Jan 2017 13:34:51 +0100</pubDate></item>`), formats.ReadOptions{})
	require.Len(t, res.entries, 1)
	_, off := res.entries[0].LastMod.Time().Zone()
	assert.Equal(t, 3600, off)
	assert.True(t, res.entries[0].LastMod.Time().Equal(time.Date(2017, 1, 5, 12, 34, 51, 0, time.UTC)))
}

func TestWarningsNameItemAndLine(t *testing.T) {
	doc := "<rss version=\"2.0\"><channel>\n<item><link>http://a.example/1</link></item>\n<item>\n<title>Second</title></item>\n</channel></rss>"
	res := read(t, doc, formats.ReadOptions{Source: "feed.xml"})
	require.NoError(t, res.err)
	require.Len(t, res.warnings, 1)
	w := res.warnings[0]
	assert.Equal(t, "feed.xml", w.Source)
	assert.Equal(t, 3, w.Line)
	assert.True(t, w.Skipped)
	assert.Equal(t, `feed.xml:3: item 2 ("Second") has no link`, w.Error())
}

// TestStrict reads feeds in strict mode: an item without a link is
// skipped, and a date without a time zone keeps only its day, with a
// warning, as in lenient mode (validate rates them as feed-item warnings);
// more than formats.MaxURLs items is an error (validate's too-many-urls),
// after the entries within the limit.
func TestStrict(t *testing.T) {
	doc := rssDoc(`<item><link>http://a.example/1</link></item><item><guid>abc</guid></item><item><link>http://a.example/3</link></item>`)
	res := read(t, doc, formats.ReadOptions{Source: "s", Strict: true})
	require.NoError(t, res.err)
	assert.Equal(t, []string{"http://a.example/1", "http://a.example/3"}, res.locs())
	require.Len(t, res.warnings, 1)
	assert.True(t, res.warnings[0].Skipped)
	assert.Contains(t, res.warnings[0].Error(), "item 2 has no link")

	doc = rssDoc(`<item><link>http://a.example/1</link><pubDate>05 Jan 17 13:34:55</pubDate></item>`)
	res = read(t, doc, formats.ReadOptions{Strict: true})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 1)
	assert.Equal(t, "2017-01-05", res.entries[0].LastMod.String(), "the date is kept, without its time")
	require.Len(t, res.warnings, 1)
	assert.False(t, res.warnings[0].Skipped)

	var items strings.Builder
	items.WriteString(`<item><guid>no link</guid></item>`) // skipped, not counted
	for i := range formats.MaxURLs {
		fmt.Fprintf(&items, "<item><link>http://a.example/%d</link></item>", i)
	}
	atLimit := items.String()
	res = read(t, rssDoc(atLimit), formats.ReadOptions{Source: "s", Strict: true})
	require.NoError(t, res.err)
	assert.Equal(t, formats.MaxURLs, len(res.entries))

	r := feed.NewReader(strings.NewReader(rssDoc(atLimit+"<item><link>http://a.example/last</link></item>")), formats.ReadOptions{Source: "s", Strict: true})
	n := 0
	var err error
	for ; err == nil; n++ {
		_, err = r.Next()
	}
	var pe *formats.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "s: more than 50000 entries: over the protocol's limit for one file", pe.Error())
	assert.Equal(t, formats.MaxURLs+1, n, "the entries within the limit come first")
	_, err2 := r.Next()
	assert.Equal(t, err, err2, "the error is sticky")

	res = read(t, rssDoc(atLimit+"<item><link>http://a.example/last</link></item>"), formats.ReadOptions{})
	require.NoError(t, res.err, "lenient reading reads them all")
	assert.Equal(t, formats.MaxURLs+1, len(res.entries))
}

func TestDamaged(t *testing.T) {
	items := `<item><link>http://a.example/1</link></item><item><link>http://a.example/2</link></item>`
	full := rssDoc(items)
	t.Run("cut in the footer", func(t *testing.T) {
		res := read(t, strings.TrimSuffix(full, ">"), formats.ReadOptions{})
		assert.Equal(t, []string{"http://a.example/1", "http://a.example/2"}, res.locs())
		require.ErrorIs(t, res.err, formats.ErrDamaged, "the entries before the cut can be kept")
		var pe *formats.ParseError
		require.ErrorAs(t, res.err, &pe)
		assert.Equal(t, "test:3:129: document cut short at the end, after 2 complete items", pe.Error())
		assert.Empty(t, res.warnings)
	})
	t.Run("cut inside an item", func(t *testing.T) {
		doc := full[:strings.Index(full, "a.example/2")]
		res := read(t, doc, formats.ReadOptions{})
		assert.Equal(t, []string{"http://a.example/1"}, res.locs())
		require.ErrorIs(t, res.err, formats.ErrDamaged)
		assert.Contains(t, res.err.Error(), "document cut short at the end, inside an item (dropped), after 1 complete item")
	})
	t.Run("cut in strict mode", func(t *testing.T) {
		r := feed.NewReader(strings.NewReader(strings.TrimSuffix(full, "</rss>")), formats.ReadOptions{Strict: true})
		res := readAll(t, r)
		assert.Len(t, res.entries, 2, "the items before the cut come first")
		require.ErrorIs(t, res.err, formats.ErrDamaged)
	})
	t.Run("cut before any item", func(t *testing.T) {
		doc := full[:strings.Index(full, "<item>")+10]
		res := read(t, doc, formats.ReadOptions{})
		require.ErrorIs(t, res.err, formats.ErrDamaged)
		assert.Contains(t, res.err.Error(), "document cut short at the end, inside an item (dropped), before any complete item")
		assert.Empty(t, res.entries)
	})
	t.Run("atom cut", func(t *testing.T) {
		doc := atomDoc(`<entry><link href="http://a.example/1"/></entry><entry><link href="http://a.example/2"/>`)
		doc = strings.TrimSuffix(doc, "</feed>")
		res := read(t, doc, formats.ReadOptions{})
		require.ErrorIs(t, res.err, formats.ErrDamaged)
		assert.Equal(t, []string{"http://a.example/1"}, res.locs())
	})
	t.Run("syntax error in the middle", func(t *testing.T) {
		doc := rssDoc(items + "\n<item><link>http://a.example/3</link></item x=\"1\">\n<item><link>http://a.example/4</link></item>")
		res := read(t, doc, formats.ReadOptions{})
		assert.Equal(t, []string{"http://a.example/1", "http://a.example/2"}, res.locs())
		var pe *formats.ParseError
		require.ErrorAs(t, res.err, &pe)
		assert.Equal(t, 4, pe.Line)
		assert.Contains(t, pe.Error(), "the 2 items before it were read")
		assert.NotErrorIs(t, res.err, formats.ErrDamaged, "a malformed document is not to be trusted")
	})
	t.Run("end tag that matches nothing", func(t *testing.T) {
		// The decoder, not strict, lets </itemm> close the item, then the
		// channel and the root: gofeed stops there, and item 4 would be
		// lost without a word.
		doc := rssDoc(items + "\n<item><link>http://a.example/3</link></itemm>\n<item><link>http://a.example/4</link></item>")
		res := read(t, doc, formats.ReadOptions{})
		assert.Equal(t, []string{"http://a.example/1", "http://a.example/2", "http://a.example/3"}, res.locs())
		var pe *formats.ParseError
		require.ErrorAs(t, res.err, &pe)
		assert.Equal(t, 4, pe.Line)
		assert.Contains(t, pe.Error(), "end tag </itemm> matches no open element and ends the feed; the 3 items before it were read")
		assert.NotErrorIs(t, res.err, formats.ErrDamaged)
	})
	t.Run("unclosed HTML in a description", func(t *testing.T) {
		// </description> closes the <br> and then the description.
		res := read(t, rssDoc(`<item><description>a<br>b</description><link>http://a.example/1</link></item>`), formats.ReadOptions{})
		require.NoError(t, res.err)
		assert.Equal(t, []string{"http://a.example/1"}, res.locs())
		assert.Empty(t, res.warnings)
	})
	t.Run("content after the root", func(t *testing.T) {
		res := read(t, full+"\n<rss><channel><item><link>http://a.example/9</link></item></channel></rss>", formats.ReadOptions{})
		require.NoError(t, res.err)
		assert.Equal(t, []string{"http://a.example/1", "http://a.example/2"}, res.locs())
		require.Len(t, res.warnings, 1)
		assert.Contains(t, res.warnings[0].Error(), "test:4:1: content after the end of the <rss> element ignored")
	})
	t.Run("comments after the root", func(t *testing.T) {
		res := read(t, full+"\n<!-- generated -->\n", formats.ReadOptions{})
		require.NoError(t, res.err)
		assert.Empty(t, res.warnings)
	})
	t.Run("syntax error before any item", func(t *testing.T) {
		res := read(t, `<rss><channel><title>a</b></title><item><link>http://a.example/1</link></item></channel></rss>`, formats.ReadOptions{})
		require.Error(t, res.err)
		assert.Empty(t, res.entries)
	})
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"empty", "  \n", "empty input"},
		{"not a feed", `<urlset><url><loc>http://a.example/</loc></url></urlset>`, "not a feed: XML with root element <urlset>"},
		{"no root", `<?xml version="1.0"?>`, "not a feed"},
		{"bad json", `{"version": "https://jsonfeed.org/version/1", "items": [}`, "not a valid JSON Feed"},
		{"json items not a list", `{"version": "https://jsonfeed.org/version/1", "items": "none"}`, `not a valid JSON Feed: "items" is a string, not an array`},
		{"json without items", `{"version": "https://jsonfeed.org/version/1", "title": "t"}`, `not a valid JSON Feed: no "items"`},
		{"json array at the top", `[{"version": "https://jsonfeed.org/version/1", "items": []}]`, "not a valid JSON Feed: the top level is an array, not an object"},
		{"json cut short", `{"version": "https://jsonfeed.org/version/1", "items": [{"url": "https://a.example/"`, "not a valid JSON Feed: unexpected end of JSON input"},
		{"json content after the feed", `{"version": "https://jsonfeed.org/version/1", "items": []} {}`, "not a valid JSON Feed: content after the top-level object"},
		{"too deep", "<rss>" + strings.Repeat("<a>", feed.MaxDepth) + strings.Repeat("</a>", feed.MaxDepth) + "</rss>",
			"elements nested more than 10000 deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := read(t, tt.doc, formats.ReadOptions{Source: "f"})
			var pe *formats.ParseError
			require.ErrorAs(t, res.err, &pe)
			assert.Equal(t, "f", pe.Source)
			assert.Contains(t, res.err.Error(), tt.want)
		})
	}
}

func TestMaxSize(t *testing.T) {
	big := io.MultiReader(strings.NewReader(rssDoc("")), strings.NewReader(strings.Repeat(" ", feed.MaxSize)))
	r := feed.NewReader(big, formats.ReadOptions{Source: "big"})
	_, err := r.Next()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "feed larger than 64 MiB")
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r := feed.NewReader(io.MultiReader(strings.NewReader("<rss>"), errReader{boom}), formats.ReadOptions{})
	_, err := r.Next()
	require.ErrorIs(t, err, boom)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestDeclaredEncodingIgnored(t *testing.T) {
	// The reader is handed UTF-8: a declared charset must not re-decode it.
	doc := `<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><item><link>http://a.example/é</link></item></channel></rss>`
	res := read(t, doc, formats.ReadOptions{})
	require.NoError(t, res.err)
	assert.Equal(t, []string{"http://a.example/%C3%A9"}, res.locs())
}

func TestDetect(t *testing.T) {
	tests := []struct {
		doc  string
		want bool
	}{
		{`<rss version="2.0"></rss>`, true},
		{`<?xml version="1.0"?><!-- c --><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>`, true},
		{`<RDF/>`, true},
		{`<feed xmlns="http://www.w3.org/2005/Atom"/>`, true},
		{`<atom:feed xmlns:atom="http://www.w3.org/2005/Atom"/>`, true},
		{`{"version": "https://jsonfeed.org/version/1.1", "items": []}`, true},
		{`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>`, false},
		{`<sitemapindex/>`, false},
		{`<html><body/></html>`, false},
		{`{"version": "1.1", "items": []}`, true},
		{`{"version": "2", "items": []}`, false},
		{"http://a.example/\n", false},
		{`<opml/>`, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, feed.Format.Detect([]byte(tt.doc)), tt.doc)
	}
	f, err := formats.Lookup("feed")
	require.NoError(t, err)
	assert.Same(t, feed.Format, f)
	assert.True(t, f.CanRead())
}

func TestOpen(t *testing.T) {
	r, f, err := formats.Open(strings.NewReader("\xef\xbb\xbf  "+rssDoc(`<item><link>http://a.example/</link></item>`)), formats.OpenOptions{})
	require.NoError(t, err)
	assert.Equal(t, "feed", f.Name)
	res := readAll(t, r)
	require.NoError(t, res.err)
	assert.Equal(t, []string{"http://a.example/"}, res.locs())
}

func TestEntitiesNotExpanded(t *testing.T) {
	// Internal entities, billion-laughs style, and an external one: nothing
	// is expanded or fetched; the undeclared reference stays literal.
	doc := `<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
  <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
  <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
  <!ENTITY x SYSTEM "file:///etc/passwd">
]>
<rss version="2.0"><channel><title>&c;&x;</title><item><title>&c;</title><link>http://a.example/p?&x;</link></item></channel></rss>`
	res := read(t, doc, formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 1)
	assert.NotContains(t, res.entries[0].Loc, "root:")
	assert.True(t, strings.HasPrefix(res.entries[0].Loc, "http://a.example/p?"))
}
