package stylesheet_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/headless"
	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

// A sitemap with images and videos under prefixes of its own, and an index
// whose elements carry a prefix: the stylesheet must go by namespace.
const (
	browserSitemap = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:img="http://www.google.com/schemas/sitemap-image/1.1" xmlns:v="http://www.google.com/schemas/sitemap-video/1.1">
<url><loc>https://example.com/a</loc><lastmod>2026-11-20T09:15:00Z</lastmod><changefreq>daily</changefreq><priority>0.8</priority><img:image><img:loc>https://example.com/a1.jpg</img:loc></img:image><img:image><img:loc>https://example.com/a2.jpg</img:loc></img:image><v:video><v:thumbnail_loc>https://example.com/t.jpg</v:thumbnail_loc><v:title>A</v:title><v:description>A video</v:description><v:content_loc>https://example.com/a.mp4</v:content_loc></v:video></url>
<url><loc>https://example.com/b?x=1&amp;y=2</loc><lastmod>2026-10-31</lastmod></url>
<url><loc>https://example.com/caf%C3%A9/</loc><img:image><img:loc>https://example.com/c.png</img:loc></img:image></url>
<url><loc>https://example.com/%e6%97%a5/%E2%80%AEx/%2F/%C3/%C0%AF/%F0%9F%98%80?q=%ED%A0%80&amp;lt=%3C</loc></url>
</urlset>
`
	browserIndex = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">
<sm:sitemap><sm:loc>https://example.com/sitemap-1-0a1b2c3d.xml.gz</sm:loc><sm:lastmod>2026-11-20T09:15:00+01:00</sm:lastmod></sm:sitemap>
<sm:sitemap><sm:loc>https://example.com/sitemap-2-4e5f6a7b.xml.gz</sm:loc></sm:sitemap>
</sm:sitemapindex>
`
	// A sitemap with no extension and no optional field: the columns for
	// them are left out.
	browserPlain = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/only</loc></url>
</urlset>
`
)

// TestBrowser opens sitemaps with the stylesheet in headless Chromium,
// served on loopback, and checks the tables in the rendered DOM. It is
// skipped when Chromium is not installed, unless FEED2SITEMAP_CHROMIUM=1
// asks for it (package internal/headless).
func TestBrowser(t *testing.T) {
	b := headless.Find(t)
	docs := map[string]string{"/sitemap.xml": browserSitemap, "/index.xml": browserIndex, "/plain.xml": browserPlain, "/written.xml": written(t)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/sitemap.xsl" {
			w.Header().Set("Content-Type", stylesheet.MediaType)
			w.Write(stylesheet.Default())
			return
		}
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/xml; charset=utf-8")
		w.Write([]byte(doc))
	}))
	defer srv.Close()
	dumpDOM := func(t *testing.T, url string) *html.Node { return dumpDOM(t, b, url) }

	t.Run("urlset", func(t *testing.T) {
		doc := dumpDOM(t, srv.URL+"/sitemap.xml")
		assert.Equal(t, "Sitemap", text(find(doc, "title")))
		assert.Equal(t, "4", text(headless.ByID(doc, "count")))
		assert.Equal(t, "3", text(headless.ByID(doc, "images")))
		assert.Equal(t, "1", text(headless.ByID(doc, "videos")))
		head, rows := table(t, doc, "urls")
		assert.Equal(t, []string{"#", "URL", "Last modified", "Change frequency", "Priority", "Images", "Videos"}, head)
		assert.Equal(t, [][]string{
			{"1", "https://example.com/a", "2026-11-20 09:15:00Z", "daily", "0.8", "2", "1"},
			{"2", "https://example.com/b?x=1&y=2", "2026-10-31", "", "", "0", "0"},
			{"3", "https://example.com/café/", "", "", "", "1", "0"},
			// Decoded for reading: UTF-8 escapes, not ASCII ones, nor a
			// direction character, a lone byte, an overlong form or a
			// surrogate.
			{"4", "https://example.com/日/%E2%80%AEx/%2F/%C3/%C0%AF/😀?q=%ED%A0%80&lt=%3C", "", "", "", "0", "0"},
		}, rows)
		assert.Equal(t, []string{"https://example.com/a", "https://example.com/b?x=1&y=2", "https://example.com/caf%C3%A9/",
			"https://example.com/%e6%97%a5/%E2%80%AEx/%2F/%C3/%C0%AF/%F0%9F%98%80?q=%ED%A0%80&lt=%3C"}, links(headless.ByID(doc, "urls")), "the links are exact")
	})
	t.Run("index", func(t *testing.T) {
		doc := dumpDOM(t, srv.URL+"/index.xml")
		assert.Equal(t, "Sitemap index", text(find(doc, "title")))
		assert.Equal(t, "2", text(headless.ByID(doc, "count")))
		head, rows := table(t, doc, "sitemaps")
		assert.Equal(t, []string{"#", "Sitemap", "Last modified"}, head)
		assert.Equal(t, [][]string{
			{"1", "https://example.com/sitemap-1-0a1b2c3d.xml.gz", "2026-11-20 09:15:00+01:00"},
			{"2", "https://example.com/sitemap-2-4e5f6a7b.xml.gz", ""},
		}, rows)
	})
	t.Run("written by formats/xml", func(t *testing.T) {
		doc := dumpDOM(t, srv.URL+"/written.xml")
		head, rows := table(t, doc, "urls")
		assert.Equal(t, []string{"#", "URL", "Last modified", "Images", "Videos"}, head)
		assert.Equal(t, [][]string{{"1", "https://example.com/w", "2026-11-20", "1", "1"}, {"2", "https://example.com/x", "", "0", "0"}}, rows)
	})
	t.Run("plain", func(t *testing.T) {
		doc := dumpDOM(t, srv.URL+"/plain.xml")
		assert.Equal(t, "1", text(headless.ByID(doc, "count")))
		assert.Nil(t, headless.ByID(doc, "images"))
		head, rows := table(t, doc, "urls")
		assert.Equal(t, []string{"#", "URL", "Last modified"}, head)
		assert.Equal(t, [][]string{{"1", "https://example.com/only", ""}}, rows)
	})
}

// written returns a sitemap as formats/xml writes it, with the stylesheet
// instruction, an image and a video.
func written(t *testing.T) string {
	var b bytes.Buffer
	w := xml.NewWriter(&b, formats.WriteOptions{Stylesheet: "/sitemap.xsl", Uses: formats.ExtImage | formats.ExtVideo})
	lm, err := formats.ParseLastMod("2026-11-20")
	require.NoError(t, err)
	for _, e := range []formats.Entry{
		{Loc: "https://example.com/w", LastMod: lm, Ext: &formats.Extensions{
			Images: []formats.Image{{Loc: "https://example.com/w.jpg"}},
			Videos: []formats.Video{{ThumbnailLoc: "https://example.com/t.jpg", Title: "W", Description: "A video", ContentLoc: "https://example.com/w.mp4"}},
		}},
		{Loc: "https://example.com/x"},
	} {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	require.Contains(t, b.String(), `<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>`)
	return b.String()
}

// dumpDOM returns the DOM headless Chromium renders for url, which must
// hold a table.
func dumpDOM(t *testing.T, b *headless.Browser, url string, flags ...string) *html.Node {
	t.Helper()
	out := b.DumpDOM(t, url, flags...)
	doc, err := html.Parse(bytes.NewReader(out))
	require.NoError(t, err)
	require.NotNil(t, find(doc, "table"), "no table rendered; the DOM:\n%s", out)
	return doc
}

// table returns the header cells and the body rows of the table with id.
func table(t *testing.T, doc *html.Node, id string) (head []string, rows [][]string) {
	t.Helper()
	tab := headless.ByID(doc, id)
	require.NotNil(t, tab, "no table #%s", id)
	for _, th := range findAll(find(tab, "thead"), "th") {
		head = append(head, text(th))
	}
	for _, tr := range findAll(find(tab, "tbody"), "tr") {
		var row []string
		for _, td := range findAll(tr, "td") {
			row = append(row, text(td))
		}
		rows = append(rows, row)
	}
	return head, rows
}

func links(n *html.Node) []string {
	var hrefs []string
	for _, a := range findAll(n, "a") {
		for _, at := range a.Attr {
			if at.Key == "href" {
				hrefs = append(hrefs, at.Val)
			}
		}
	}
	return hrefs
}

func findAll(n *html.Node, tag string) []*html.Node {
	var all []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n == nil {
			return
		}
		if n.Type == html.ElementNode && n.Data == tag {
			all = append(all, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return all
}

func find(n *html.Node, tag string) *html.Node {
	if all := findAll(n, tag); len(all) > 0 {
		return all[0]
	}
	return nil
}

// text returns the text of n, with runs of space collapsed.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n == nil {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}
