package xml_test

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// dumpEntry writes out an entry with every field, following pointers, and
// lastmods in the form the writer writes them, so that entries compare
// whole: a field the reader or writer forgets shows.
func dumpEntry(e formats.Entry) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(e))
	return b.String()
}

func dumpValue(b *strings.Builder, v reflect.Value) {
	switch x := v.Interface().(type) {
	case formats.LastMod:
		b.WriteString(x.String())
		return
	case formats.Priority:
		b.WriteString(x.String())
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("&")
		dumpValue(b, v.Elem())
	case reflect.Struct:
		b.WriteString("{")
		for i := 0; i < v.NumField(); i++ {
			b.WriteString(v.Type().Field(i).Name + ":")
			dumpValue(b, v.Field(i))
			b.WriteString(" ")
		}
		b.WriteString("}")
	case reflect.Slice:
		fmt.Fprintf(b, "%d[", v.Len())
		for i := 0; i < v.Len(); i++ {
			dumpValue(b, v.Index(i))
			b.WriteString(",")
		}
		b.WriteString("]")
	default:
		fmt.Fprintf(b, "%#v", v.Interface())
	}
}

// usesOf returns the extensions the entries use.
func usesOf(entries []formats.Entry) formats.ExtensionSet {
	var u formats.ExtensionSet
	for _, e := range entries {
		u |= e.Ext.Uses()
	}
	return u
}

// extensionCorpus returns the XML corpus files whose entries carry
// extension data or foreign elements, with those entries, read leniently.
func extensionCorpus(t *testing.T) map[string][]formats.Entry {
	files := map[string][]formats.Entry{}
	for _, c := range xmlCorpus(t) {
		res, _, err := readCorpus(t, c.Name, formats.ReadOptions{})
		if err != nil {
			continue
		}
		for _, e := range res.entries {
			if e.Ext != nil {
				files[c.Name] = res.entries
				break
			}
		}
	}
	return files
}

func TestExtensionCorpusRoundTrip(t *testing.T) {
	// Every extension-bearing corpus file: read → write → read gives the
	// same entries, every field; the output is valid against
	// sitemap-all.xsd (foreign elements aside, which the schema's strict
	// wildcard rejects for want of their schema), and golden.
	files := extensionCorpus(t)
	require.GreaterOrEqual(t, len(files), 15, "the corpus holds many extension files")
	for _, want := range []string{"crawlercommons__pagemaps-sitemap.xml", "crawlercommons__sitemap-mobile.xml",
		"crawlercommons__sitemap-videos-tvshow.xml", "crawlercommons__sitemap-images.xml", "crawlercommons__sitemap-news.xml",
		"crawlercommons__sitemap-links.xml", "sitemapjs__alltags.xml"} {
		require.Contains(t, files, want)
	}
	for name, entries := range files {
		t.Run(name, func(t *testing.T) {
			o := formats.WriteOptions{Index: entries[0].Kind == formats.KindSitemap, Uses: usesOf(entries)}
			got := writeAll(t, entries, o)
			golden.Check(t, filepath.Join("testdata", "golden", "ext", strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".xml")+".xml"), got)

			back := readString(t, string(got), formats.ReadOptions{Strict: true})
			require.NoError(t, back.err)
			require.Len(t, back.entries, len(entries))
			for i := range entries {
				require.Equal(t, dumpEntry(entries[i]), dumpEntry(back.entries[i]), "entry %d", i)
			}
			assert.Equal(t, string(got), string(writeAll(t, back.entries, o)), "writing again gives the same bytes")

			// Exact sizes.
			total := xml.HeaderSize(o) + xml.FooterSize(o)
			for _, e := range entries {
				total += xml.EntrySize(e)
			}
			assert.Equal(t, len(got), total)

			conformance.ValidateXML(t, writeAll(t, withoutForeign(entries), o))
		})
	}
}

// withoutForeign returns copies of the entries without foreign elements.
func withoutForeign(entries []formats.Entry) []formats.Entry {
	out := make([]formats.Entry, len(entries))
	for i, e := range entries {
		if e.Ext != nil {
			x := *e.Ext
			x.Foreign = nil
			e.Ext = &x
		}
		out[i] = e
	}
	return out
}

func TestExtensionGoldenFilesAreUsed(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "ext", "*.xml"))
	require.NoError(t, err)
	used := extensionCorpus(t)
	for _, f := range files {
		found := false
		for name := range used {
			found = found || strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".xml")+".xml" == filepath.Base(f)
		}
		assert.True(t, found, "stale golden file %s", f)
	}
}

// gen makes values from fuzz bytes.
type gen struct{ b []byte }

func (g *gen) n(max int) int {
	if len(g.b) == 0 || max <= 0 {
		return 0
	}
	v := int(g.b[0]) % (max + 1)
	g.b = g.b[1:]
	return v
}

// text returns a string as the reader reads it back: valid XML
// characters, trimmed.
func (g *gen) text() string {
	k := g.n(12)
	if k > len(g.b) {
		k = len(g.b)
	}
	raw := strings.ToValidUTF8(string(g.b[:k]), "?")
	g.b = g.b[k:]
	s := strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r < 0xd800 || r >= 0xe000 && r <= 0xfffd {
			return r
		}
		return -1
	}, raw)
	return uri.TrimSpace(s)
}

func (g *gen) url() string {
	if g.n(3) == 0 {
		return ""
	}
	return fmt.Sprintf("https://example.com/%d?a=%d&b=%d", g.n(200), g.n(9), g.n(9))
}

// of returns one of values: the fields the schema enumerates hold only
// what the reader keeps.
func (g *gen) of(values ...string) string { return values[g.n(len(values)-1)] }

// pair returns one of the pairs of values (a, b, a, b...).
func (g *gen) pair(values ...string) (string, string) {
	i := g.n(len(values)/2-1) * 2
	return values[i], values[i+1]
}

func (g *gen) date() formats.LastMod {
	forms := []string{"", "2024-05-06", "2024-05-06T07:08:09Z", "2024-05-06T07:08:09.123+05:30", "2024-05-06T07:08:09-04:00"}
	s := forms[g.n(len(forms)-1)]
	if s == "" {
		return formats.LastMod{}
	}
	l, _ := formats.ParseLastMod(s)
	return l
}

// entry makes an entry with random extension data, as the reader reads it.
func (g *gen) entry(i int) formats.Entry {
	e := formats.Entry{Loc: fmt.Sprintf("https://example.com/page/%d", i), LastMod: g.date()}
	x := &formats.Extensions{Mobile: g.n(3) == 0}
	for range g.n(3) {
		if loc := g.url(); loc != "" {
			x.Images = append(x.Images, formats.Image{Loc: loc, Caption: g.text(), GeoLocation: g.text(), Title: g.text(), License: g.url()})
		}
	}
	for range g.n(2) {
		v := formats.Video{ThumbnailLoc: g.url(), Title: g.text(), Description: g.text(), ContentLoc: g.url(), PlayerLoc: g.url(),
			Duration: g.n(250) * 100, ExpirationDate: g.date(), ViewCount: []string{"", "0", "123"}[g.n(2)],
			Rating: []string{"", "0.5", "5"}[g.n(2)], PublicationDate: g.date(), Category: g.text(), FamilyFriendly: g.of("", "yes", "No"),
			GalleryLoc: g.url(), GalleryTitle: g.text(),
			RequiresSubscription: g.of("", "NO", "Yes"), Uploader: g.text(), UploaderInfo: g.url(),
			Live: g.of("", "no", "YES"), PlayerAllowEmbed: g.of("", "yes", "no"), PlayerAutoplay: g.text()}
		v.Restriction, v.RestrictionRelationship = g.pair("", "", "IE GB", "allow", "US", "deny")
		v.Platform, v.PlatformRelationship = g.pair("", "", "web tv", "allow", "mobile", "deny")
		if v.PlayerLoc == "" {
			v.PlayerAllowEmbed, v.PlayerAutoplay = "", ""
		}
		for range g.n(2) {
			if loc := g.url(); loc != "" {
				v.ContentSegments = append(v.ContentSegments, formats.VideoSegment{Loc: loc, Duration: g.n(3)})
			}
		}
		for range g.n(3) {
			v.Tags = append(v.Tags, g.text())
		}
		for range g.n(2) {
			v.Prices = append(v.Prices, formats.VideoPrice{Value: g.text(), Currency: g.of("", "EUR"), Type: g.of("", "rent", "PURCHASE"), Resolution: g.of("", "HD", "sd")})
		}
		for range g.n(2) {
			v.IDs = append(v.IDs, formats.VideoID{Type: g.of("url", "freebase", "tms:series"), Value: g.text()})
		}
		if g.n(1) == 1 {
			v.TVShow = &formats.TVShow{ShowTitle: g.text(), VideoType: g.of("full", "clip", "other"), EpisodeTitle: g.text(), SeasonNumber: g.n(3), EpisodeNumber: g.n(3), PremierDate: g.date()}
		}
		x.Videos = append(x.Videos, v)
	}
	if g.n(2) == 0 {
		x.News = &formats.News{PublicationName: g.text(), PublicationLanguage: g.of("", "en", "zh-tw"), Access: g.of("", "Subscription"),
			Genres: g.of("", "Blog", "PressRelease, OpEd"), PublicationDate: g.date(), Title: g.text(), Keywords: g.text(),
			StockTickers: g.of("", "NASDAQ:A", "NYSE:B, LSE:C")}
	}
	for range g.n(4) {
		if href := g.url(); href != "" {
			x.Alternates = append(x.Alternates, formats.Alternate{Hreflang: g.text(), Href: href, Media: g.text()})
		}
	}
	if g.n(2) == 0 {
		foreign := `<p:Thing xmlns:p="urn:thing" a="1"/>` // the reader's form of an empty element
		if text := appendText(g.text()); len(text) > 0 {
			foreign = `<p:Thing xmlns:p="urn:thing" a="1">` + string(text) + `</p:Thing>`
		}
		x.Foreign = append(x.Foreign, foreign)
	}
	if !x.IsEmpty() {
		e.Ext = x
	}
	return e
}

// appendText escapes s as the foreign serializer does.
func appendText(s string) []byte {
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{})
	_ = w.Write(formats.Entry{Loc: "https://x/", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://x/", Title: s}}}})
	_ = w.Close()
	out := buf.String()
	i := strings.Index(out, "<image:title>")
	if i < 0 {
		return nil
	}
	out = out[i+len("<image:title>"):]
	return []byte(out[:strings.Index(out, "</image:title>")])
}

// FuzzExtensionRoundTrip writes random extension entries with random
// options and checks that the sizes are exact and that reading the
// document back, strictly, gives the same entries.
func FuzzExtensionRoundTrip(f *testing.F) {
	f.Add([]byte("\x05\x03\x07abcdefghijklmnopqrstuvwxyz\x01\x02\x03\x04"), uint8(0), "")
	f.Add(bytes.Repeat([]byte{0xff, 0x01, 0x02, 'a', ' ', '&', '<', 0xc3, 0xa9}, 40), uint8(31), "https://example.com/s.xsl?a=1&b=\"2\"")
	f.Add(bytes.Repeat([]byte{2}, 300), uint8(5), "")
	f.Fuzz(func(t *testing.T, data []byte, uses uint8, stylesheet string) {
		g := &gen{b: data}
		var entries []formats.Entry
		for i := 0; len(g.b) > 0 && i < 20; i++ {
			entries = append(entries, g.entry(i))
		}
		o := formats.WriteOptions{Uses: formats.ExtensionSet(uses) & formats.ExtAll, Stylesheet: strings.ToValidUTF8(stylesheet, "")}
		var buf bytes.Buffer
		w := xml.NewWriter(&buf, o)
		total := xml.HeaderSize(o) + xml.FooterSize(o)
		for _, e := range entries {
			if err := w.Write(e); err != nil {
				t.Fatal(err)
			}
			total += xml.EntrySizeWith(e, o)
			if e.Ext.Uses()&^o.Uses == 0 && xml.EntrySize(e) != xml.EntrySizeWith(e, o) {
				t.Fatal("EntrySize differs from EntrySizeWith for a document declaring everything")
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if total != buf.Len() {
			t.Fatalf("sizes add up to %d, document is %d bytes:\n%s", total, buf.Len(), buf.Bytes())
		}
		back := readString(t, buf.String(), formats.ReadOptions{Strict: true})
		if back.err != nil {
			t.Fatalf("reading back: %v\n%s", back.err, buf.Bytes())
		}
		if len(back.entries) != len(entries) {
			t.Fatalf("wrote %d entries, read %d", len(entries), len(back.entries))
		}
		for i := range entries {
			// What lacks a required field is not written (Extensions.Complete).
			want := entries[i]
			if want.Ext != nil {
				x := *want.Ext
				x.Images, x.Videos = slices.Clone(x.Images), slices.Clone(x.Videos)
				_ = x.Complete(func(string) error { return nil })
				want.Ext = &x
			}
			if w, g := dumpEntry(want), dumpEntry(back.entries[i]); w != g {
				t.Fatalf("entry %d: wrote\n%s\nread back\n%s\ndocument:\n%s", i, w, g, buf.Bytes())
			}
		}
	})
}

func TestReaderExtensions(t *testing.T) {
	doc := header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:i="https://www.google.com/schemas/sitemap-image/1.1/"` +
		` xmlns:v="http://www.google.com/schemas/sitemap-video/1.1" xmlns:n="http://www.google.com/schemas/sitemap-news/0.9"` +
		` xmlns:x="http://www.w3.org/1999/xhtml" xmlns:m="http://www.google.com/schemas/sitemap-mobile/1.0" xmlns:pm="urn:pagemap">` + "\n" +
		`<url><loc>https://example.com/a</loc>` +
		`<i:image><i:title> T </i:title><i:loc>/img.jpg</i:loc></i:image>` + // any prefix, a variant namespace, relative loc resolved
		`<i:image><i:loc>https://example.com/i</i:loc><i:extra>x</i:extra></i:image>` + // a child the schema lacks: dropped
		`<v:video><v:title>t</v:title><v:duration>ten</v:duration><v:publication_date>yesterday</v:publication_date>` +
		`<v:player_loc allow_embed="yes" autoplay="ap=1">https://example.com/p</v:player_loc><v:tag>a</v:tag><v:tag>b</v:tag>` +
		`<v:tvshow><v:show_title>S</v:show_title><v:video_type>full</v:video_type><v:season_number>0</v:season_number></v:tvshow>` +
		`<v:thumbnail_loc>https://example.com/t.jpg</v:thumbnail_loc><v:description>d</v:description></v:video>` + // complete, in any order
		`<n:news><n:publication><n:name>P</n:name><n:language>en</n:language></n:publication><n:title>N</n:title><n:publication_date>2024-01-02</n:publication_date></n:news>` +
		`<x:link rel="alternate" hreflang="de" href="https://example.com/de"/>` +
		`<x:link rel="alternate" href="android-app://com.example/a"/>` + // not a page: foreign
		`<m:mobile/><pm:PageMap><pm:D a="1" xml:lang="en">v<!-- c --></pm:D></pm:PageMap>` +
		`</url></urlset>`
	res := readString(t, doc, formats.ReadOptions{Source: "t.xml", Base: mustURL(t, "https://example.com/")})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 1)
	x := res.entries[0].Ext
	require.NotNil(t, x)
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/img.jpg", Title: "T"}}, x.Images)
	require.Len(t, x.Videos, 1)
	v := x.Videos[0]
	assert.Equal(t, 0, v.Duration, "a bad duration is dropped")
	assert.True(t, v.PublicationDate.IsZero())
	assert.Equal(t, "https://example.com/p", v.PlayerLoc)
	assert.Equal(t, []string{"yes", "ap=1"}, []string{v.PlayerAllowEmbed, v.PlayerAutoplay})
	assert.Equal(t, []string{"a", "b"}, v.Tags)
	assert.Equal(t, &formats.TVShow{ShowTitle: "S", VideoType: "full"}, v.TVShow)
	require.NotNil(t, x.News)
	assert.Equal(t, "2024-01-02", x.News.PublicationDate.String())
	x.News.PublicationDate = formats.LastMod{}
	assert.Equal(t, &formats.News{PublicationName: "P", PublicationLanguage: "en", Title: "N"}, x.News)
	assert.Equal(t, []formats.Alternate{{Hreflang: "de", Href: "https://example.com/de"}}, x.Alternates)
	assert.True(t, x.Mobile)
	assert.Equal(t, []string{
		`<x:link xmlns:x="http://www.w3.org/1999/xhtml" rel="alternate" href="android-app://com.example/a"/>`,
		`<pm:PageMap xmlns:pm="urn:pagemap"><pm:D a="1" xml:lang="en">v<!-- c --></pm:D></pm:PageMap>`,
	}, x.Foreign)
	assert.Equal(t, []string{
		`t.xml:3:102: <i:image> dropped: it is not as its extension's schema defines it, or is a second one; kept as it is, it would make the written sitemap invalid`,
		`t.xml:3:206: <v:duration> ignored: "ten" is not a whole number from 1 to 28800`,
		`t.xml:3:234: <v:publication_date> ignored: formats: unrecognized date`,
		`t.xml:3:473: <v:season_number> ignored: "0" is not a whole number from 1 to 2147483647`,
	}, firstLines(res.warningText()))

	// A foreign element read back where other prefixes are bound means
	// the same: it is self-contained.
	for _, f := range x.Foreign {
		d := header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:pm="urn:other" xmlns:i="urn:other"><url><loc>https://example.com/</loc>` + f + `</url></urlset>`
		back := readString(t, d, formats.ReadOptions{Strict: true})
		require.NoError(t, back.err)
		require.Len(t, back.entries, 1)
		assert.Equal(t, []string{f}, back.entries[0].Ext.Foreign)
	}
}

// firstLines returns the warnings up to the first quote-free detail.
func firstLines(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		if j := strings.Index(w, `unrecognized date`); j >= 0 {
			w = w[:j+len("unrecognized date")]
		}
		out[i] = w
	}
	return out
}

func TestReaderForeignInIndex(t *testing.T) {
	// In a sitemap index every element of another namespace is foreign,
	// and written back in its <sitemap>.
	doc := index + `<sitemap><loc>https://example.com/s.xml</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://example.com/i</image:loc></image:image></sitemap></sitemapindex>`
	res := readString(t, doc, formats.ReadOptions{Strict: true})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 1)
	want := `<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>https://example.com/i</image:loc></image:image>`
	assert.Equal(t, &formats.Extensions{Foreign: []string{want}}, res.entries[0].Ext)
	out := writeAll(t, res.entries, formats.WriteOptions{})
	assert.Contains(t, string(out), `<sitemap><loc>https://example.com/s.xml</loc>`+want+`</sitemap>`)
}

func TestReaderImagesCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + exts + `><url><loc>https://example.com/</loc>`)
	for i := range formats.MaxImages + 5 {
		fmt.Fprintf(&b, `<image:image><image:loc>https://example.com/%d.jpg</image:loc></image:image>`, i)
	}
	b.WriteString(`</url></urlset>`)
	res := readString(t, b.String(), formats.ReadOptions{})
	require.NoError(t, res.err)
	assert.Len(t, res.entries[0].Ext.Images, formats.MaxImages)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "5 images over 1000 ignored")
}

func TestReaderExtensionBudget(t *testing.T) {
	// Extension data of one entry is bounded: past the budget, elements
	// are dropped with one warning, and the entry is kept.
	var b strings.Builder
	b.WriteString(header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + exts + `><url><loc>https://example.com/</loc>`)
	big := strings.Repeat("x", 1<<20)
	for range 6 {
		b.WriteString(`<image:image><image:loc>https://example.com/i</image:loc><image:caption>` + big + `</image:caption></image:image>`)
	}
	b.WriteString(`</url><url><loc>https://example.com/b</loc><xhtml:link rel="alternate" hreflang="en" href="https://example.com/b"/></url></urlset>`)
	res := readString(t, b.String(), formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 2)
	assert.Len(t, res.entries[0].Ext.Images, 3)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), "extension and foreign elements past 4 MiB in one <url> ignored")
	assert.Len(t, res.entries[1].Ext.Alternates, 1, "the budget is per entry")
}

func TestWriterExtensionNamespaces(t *testing.T) {
	e := formats.Entry{Loc: "https://example.com/", Ext: &formats.Extensions{
		Images:     []formats.Image{{Loc: "https://example.com/i"}},
		Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://example.com/de", Media: "only screen"}},
		Mobile:     true,
	}}
	// The root declares exactly Uses, in a fixed order.
	o := formats.WriteOptions{Uses: formats.ExtMobile | formats.ExtImage | formats.ExtAlternates, Stylesheet: `/s.xsl?a=1&b="2"`}
	doc := string(writeAll(t, []formats.Entry{e}, o))
	assert.Equal(t, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+
		`<?xml-stylesheet type="text/xsl" href="/s.xsl?a=1&amp;b=&quot;2&quot;"?>`+"\n"+
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0">`+"\n"+
		`<url><loc>https://example.com/</loc><image:image><image:loc>https://example.com/i</image:loc></image:image>`+
		`<xhtml:link rel="alternate" hreflang="de" media="only screen" href="https://example.com/de"/><mobile:mobile/></url>`+"\n"+
		`</urlset>`+"\n", doc)
	assert.Len(t, doc, xml.HeaderSize(o)+xml.EntrySize(e)+xml.FooterSize(o))
	conformance.ValidateXML(t, []byte(doc))

	// Without Uses, each element declares its namespace: still valid, and
	// EntrySizeWith is exact.
	o = formats.WriteOptions{}
	doc = string(writeAll(t, []formats.Entry{e}, o))
	assert.Contains(t, doc, `<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">`)
	assert.Contains(t, doc, `<mobile:mobile xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"/>`)
	assert.Len(t, doc, xml.HeaderSize(o)+xml.EntrySizeWith(e, o)+xml.FooterSize(o))
	back := readString(t, doc, formats.ReadOptions{Strict: true})
	require.NoError(t, back.err)
	assert.Equal(t, dumpEntry(e), dumpEntry(back.entries[0]))

	// An index takes the stylesheet, never extension namespaces.
	o = formats.WriteOptions{Index: true, Uses: formats.ExtAll, Stylesheet: "/i.xsl"}
	doc = string(writeAll(t, nil, o))
	assert.Equal(t, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<?xml-stylesheet type="text/xsl" href="/i.xsl"?>`+"\n"+
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`+"\n</sitemapindex>\n", doc)
	assert.Len(t, doc, xml.HeaderSize(o)+xml.FooterSize(o))
}

func TestWriterEscapesExtensionText(t *testing.T) {
	// Characters XML cannot hold are replaced; a carriage return survives.
	e := formats.Entry{Loc: "https://example.com/", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/i", Title: "a\x00b\rc\xffd"}}}}
	doc := string(writeAll(t, []formats.Entry{e}, formats.WriteOptions{Uses: formats.ExtImage}))
	assert.Contains(t, doc, "<image:title>a\uFFFDb&#xD;c\uFFFDd</image:title>")
	back := readString(t, doc, formats.ReadOptions{Strict: true})
	require.NoError(t, back.err)
	assert.Equal(t, "a\uFFFDb\rc\uFFFDd", back.entries[0].Ext.Images[0].Title)
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}
