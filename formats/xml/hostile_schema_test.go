package xml_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
)

// hostileURLs are URLs a source may hold that the sitemap schemas' anyURI
// (libxml2's) refuses as they are, or that name no usable port.
var hostileURLs = []string{
	"https://example.com/list?q[]=1&q[]=2",
	"https://example.com/items[1]/x",
	"https://example.com/a#frag[1]",
	"https://example.com:65536/p",
	"https://example.com:99999999999/p",
	"https://example.com:0/p",
	"https://example.com:/p",
	"https://[2001:db8::1]:8443/a[b]",
	"https://example.com/ä[]",
	"https://example.com/a b?c=d e",
	"https://example.com/100%",
	"https://example.com/a#b#c",
	"https://example.com/{x}|^`\\\"<>",
	"https://example.com/a'b",
}

// hostileDates are dates a source may hold that xsd:date or xsd:dateTime
// refuses once written as they are.
var hostileDates = []string{
	"0000-01-01", "0000-06-15T10:00:00Z", "2024-01-01T10:00:00+15:00", "2024-01-01T10:00:00-14:30",
	"2024-01-01T24:00:00Z", "2016-12-31T23:59:60Z", "Mon, 01 Jan 2024 10:00:00 +1500", "0000",
}

// hostileDocuments returns a document of every readable format holding
// every hostile URL in every URL field and every hostile date in every
// date field.
func hostileDocuments() map[string]string {
	esc := func(s string) string {
		return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
	}
	var urlset, index, rss, atom, text, jsonItems strings.Builder
	urlset.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
`)
	index.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
`)
	rss.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>t</title><link>https://example.com/</link>
`)
	atom.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en"><title>t</title><id>https://example.com/</id><updated>2024-01-01T00:00:00Z</updated>
`)
	for i, u := range hostileURLs {
		d := hostileDates[i%len(hostileDates)]
		e := esc(u)
		urlset.WriteString(`<url><loc>` + e + `</loc><lastmod>` + d + `</lastmod>` +
			`<xhtml:link rel="alternate" hreflang="en" href="` + e + `"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/>` +
			`<image:image><image:loc>` + e + `</image:loc><image:license>` + e + `</image:license></image:image>` +
			`<video:video><video:thumbnail_loc>` + e + `</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>` +
			`<video:content_loc>` + e + `</video:content_loc><video:player_loc>` + e + `</video:player_loc>` +
			`<video:expiration_date>` + d + `</video:expiration_date><video:publication_date>` + d + `</video:publication_date>` +
			`<video:gallery_loc title="g">` + e + `</video:gallery_loc><video:uploader info="` + e + `">U</video:uploader></video:video>` +
			`<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>` +
			`<news:publication_date>` + d + `</news:publication_date><news:title>T</news:title></news:news></url>` + "\n")
		// The same loc with a good lastmod, and a good loc with the bad date.
		urlset.WriteString(`<url><loc>https://example.com/ok` + string(rune('a'+i)) + `</loc><lastmod>` + d + `</lastmod></url>` + "\n")
		index.WriteString(`<sitemap><loc>` + e + `</loc><lastmod>` + d + `</lastmod></sitemap>` + "\n")
		rss.WriteString(`<item><title>x</title><link>` + e + `</link><pubDate>` + d + `</pubDate><enclosure url="` + e + `" type="image/jpeg" length="1"/>` +
			`<media:content url="` + e + `" medium="video"><media:player url="` + e + `"/><media:thumbnail url="` + e + `"/></media:content></item>` + "\n")
		atom.WriteString(`<entry><title>x</title><id>` + e + `</id><updated>` + d + `</updated><link href="` + e + `"/>` +
			`<link rel="alternate" hreflang="fr" href="` + e + `"/><link rel="alternate" hreflang="de_DE!" href="https://example.com/de"/><link rel="enclosure" type="image/png" href="` + e + `"/></entry>` + "\n")
		text.WriteString(u + "\n")
		if i > 0 {
			jsonItems.WriteString(",")
		}
		j := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(u)
		jsonItems.WriteString(`{"id":"` + j + `","url":"` + j + `","image":"` + j + `","date_modified":"` + d + `","attachments":[{"url":"` + j + `","mime_type":"video/mp4"}]}`)
	}
	// A good loc with every hostile URL in every extension URL field.
	for _, u := range hostileURLs {
		e := esc(u)
		urlset.WriteString(`<url><loc>https://example.com/fields</loc><xhtml:link rel="alternate" hreflang="en" href="` + e + `"/>` +
			`<image:image><image:loc>https://example.com/i.jpg</image:loc><image:license>` + e + `</image:license></image:image>` +
			`<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>T</video:title><video:description>D</video:description>` +
			`<video:player_loc>` + e + `</video:player_loc><video:content_segment_loc>` + e + `</video:content_segment_loc>` +
			`<video:gallery_loc>` + e + `</video:gallery_loc><video:uploader info="` + e + `">U</video:uploader></video:video></url>` + "\n")
	}
	// Extension elements the model cannot hold, which are not kept verbatim
	// either, but for a valid android-app link.
	urlset.WriteString(`<url><loc>https://example.com/verbatim</loc><video:video><video:thumbnail_loc>https://example.com/t[1]</video:thumbnail_loc>` +
		`<video:title>T</video:title><video:description>D</video:description><video:content_loc>https://example.com:99999999999/v</video:content_loc>` +
		`<video:bogus/></video:video><image:image><image:loc>https://example.com:99999999999/</image:loc><image:caption a="1">x</image:caption></image:image>` +
		`<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>` +
		`<news:publication_date>2024-01-01</news:publication_date><news:title>T</news:title></news:news>` +
		`<news:news><news:publication><news:name>N</news:name><news:language>english</news:language></news:publication>` +
		`<news:publication_date>0000-01-01</news:publication_date><news:title>T</news:title></news:news>` +
		`<xhtml:link rel="amphtml" href="https://example.com/amp?q[]=1"/><xhtml:link rel="alternate" href="android-app://com.example/a"/>` +
		`<xhtml:link rel="alternate" hreflang="en" href="android-app://com.example:99999999999/a"/><xhtml:link rel="alternate" hreflang="en" foo="1" href="android-app://x/"/></url>` + "\n")
	// Every enumerated or patterned extension value, bad.
	urlset.WriteString(`<url><loc>https://example.com/values</loc><video:video><video:thumbnail_loc>https://example.com/t</video:thumbnail_loc>` +
		`<video:title>T</video:title><video:description>D</video:description><video:content_loc>https://example.com/v</video:content_loc>` +
		`<video:player_loc allow_embed="maybe">https://example.com/p</video:player_loc>` +
		`<video:family_friendly>maybe</video:family_friendly><video:restriction relationship="sometimes">xx yyy</video:restriction>` +
		`<video:price currency="EURO" type="lease" resolution="4k">1</video:price><video:requires_subscription>perhaps</video:requires_subscription>` +
		`<video:tvshow><video:show_title>S</video:show_title><video:video_type>movie</video:video_type></video:tvshow>` +
		`<video:platform relationship="x">phone</video:platform><video:live>kinda</video:live><video:id type="imdb">1</video:id></video:video>` +
		`<news:news><news:publication><news:name>N</news:name><news:language>english</news:language></news:publication>` +
		`<news:publication_date>2024-01-01</news:publication_date><news:title>T</news:title></news:news></url>` + "\n")
	urlset.WriteString(`<url><loc>https://example.com/links</loc><xhtml:link rel="alternate" hreflang="en_US!" href="https://example.com/l1"/>` +
		`<xhtml:link rel="alternate" hreflang="" href="https://example.com/l2"/><xhtml:link rel="alternate" hreflang="x-default" media="only screen" href="https://example.com/l3"/></url>` + "\n")
	urlset.WriteString(`<url><loc>https://example.com/news</loc><news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication>` +
		`<news:access>Secret</news:access><news:genres>Gossip</news:genres><news:publication_date>2024-01-01</news:publication_date><news:title>T</news:title>` +
		`<news:stock_tickers>A:B, C:D, E:F, G:H, I:J, K:L</news:stock_tickers></news:news></url>` + "\n")
	urlset.WriteString("</urlset>\n")
	index.WriteString("</sitemapindex>\n")
	rss.WriteString("</channel></rss>\n")
	atom.WriteString("</feed>\n")
	return map[string]string{
		"urlset": urlset.String(), "index": index.String(), "rss": rss.String(), "atom": atom.String(), "text": text.String(),
		"json": `{"version":"https://jsonfeed.org/version/1.1","title":"t","home_page_url":"https://example.com/","items":[` + jsonItems.String() + `]}`,
	}
}

// TestHostileInputsWriteSchemaValidXML: whatever URLs, dates and values the
// inputs hold (brackets outside the host, ports beyond 65535 or empty,
// offsets beyond ±14:00, year 0000, leap seconds, in every URL and date
// field of every extension; values outside the extension schemas'
// enumerations and patterns), the XML the writer makes of what the readers
// read passes the official schemas with xmllint. Bad locs cost their entries,
// bad other fields are dropped, each with a warning. It skips, saying so,
// when xmllint or the shared schemas are missing (CI has both).
func TestHostileInputsWriteSchemaValidXML(t *testing.T) {
	for name, doc := range hostileDocuments() {
		t.Run(name, func(t *testing.T) {
			warnings := 0
			r, _, err := formats.Open(strings.NewReader(doc), formats.OpenOptions{ReadOptions: formats.ReadOptions{
				Source: name, Warn: func(*formats.ParseError) { warnings++ }, NewsName: "N"}})
			require.NoError(t, err)
			var entries []formats.Entry
			var uses formats.ExtensionSet
			for {
				e, err := r.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
				if e.Ext != nil {
					uses |= e.Ext.Uses()
				}
				entries = append(entries, e)
			}
			require.NotEmpty(t, entries, "some entries are good")
			require.NotZero(t, warnings, "the bad values are reported")
			var buf bytes.Buffer
			w := xml.NewWriter(&buf, formats.WriteOptions{Uses: uses})
			for _, e := range entries {
				require.NoError(t, w.Write(e))
			}
			require.NoError(t, w.Close())
			conformance.ValidateXML(t, buf.Bytes())
		})
	}
}
