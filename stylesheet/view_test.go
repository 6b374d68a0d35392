package stylesheet_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/headless"
	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

// withStylesheet returns doc, a sitemap of this package's tests, naming
// the stylesheet href instead of /sitemap.xsl.
func withStylesheet(doc, href string) string {
	return strings.Replace(doc, `href="/sitemap.xsl"`, `href="`+href+`"`, 1)
}

// longSitemap has a URL with no place to break and a long lastmod.
var longSitemap = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/` + strings.Repeat("averylongpathsegment", 8) + `?q=` + strings.Repeat("x", 60) + `</loc><lastmod>2026-11-20T09:15:00+01:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority></url>
<url><loc>https://example.com/caf%C3%A9/</loc></url>
</urlset>
`

// TestBrowserLayout renders the stylesheet's views at desktop and phone
// width: each shows something, shows its URLs, and nothing reaches past
// the right edge.
func TestBrowserLayout(t *testing.T) {
	b := headless.Find(t)
	srv := headless.Serve(t, map[string]headless.Page{
		"/sitemap.xsl": {Type: stylesheet.MediaType, Body: stylesheet.Default()},
		"/long.xml":    {Type: "application/xml", Body: []byte(longSitemap)},
		"/index.xml":   {Type: "application/xml", Body: []byte(browserIndex)},
	})
	for _, c := range []struct {
		name  string
		shown []string
	}{
		{"long", []string{"Sitemap", "https://example.com/averylongpathsegment", "2026-11-20 09:15:00+01:00", "weekly", "https://example.com/café/"}},
		{"index", []string{"Sitemap index", "https://example.com/sitemap-1-0a1b2c3d.xml.gz"}},
	} {
		for _, w := range []int{1280, 390} {
			t.Run(fmt.Sprintf("%s/%dpx", c.name, w), func(t *testing.T) {
				t.Parallel()
				l := b.Layout(t, srv, "/"+c.name+".xml", w, 900)
				headless.Keep(t, fmt.Sprintf("xsl-%s-%d", c.name, w), l.Shot)
				for _, s := range c.shown {
					assert.Contains(t, l.Text, s, "at %dpx", w)
				}
				assert.True(t, l.Width == w && l.ScrollWidth <= l.Width && len(l.Overflow) == 0,
					"at %dpx: viewport %dpx, content %dpx wide; past the right edge: %v", w, l.Width, l.ScrollWidth, l.Overflow)
				assert.Greater(t, headless.Ink(l.Shot), 0.01, "the screenshot at %dpx is blank", w)
			})
		}
	}
}

// TestBrowserDataURL names the stylesheet by its data: URL: the table
// shows over http and from a file:// URL, with no file to serve, and is
// the one the stylesheet served as a file gives.
func TestBrowserDataURL(t *testing.T) {
	b := headless.Find(t)
	doc := withStylesheet(browserSitemap, stylesheet.DataURL())
	srv := headless.Serve(t, map[string]headless.Page{
		"/sitemap.xsl":  {Type: stylesheet.MediaType, Body: stylesheet.Default()},
		"/sitemap.xml":  {Type: "application/xml", Body: []byte(browserSitemap)},
		"/embedded.xml": {Type: "application/xml", Body: []byte(doc)},
	})
	head, rows := table(t, dumpDOM(t, b, srv.URL+"/sitemap.xml"), "urls")
	require.Len(t, rows, 4)
	file := filepath.Join(t.TempDir(), "embedded.xml")
	require.NoError(t, os.WriteFile(file, []byte(doc), 0o644))
	for _, url := range []string{srv.URL + "/embedded.xml", "file://" + file} {
		t.Run(url[:4], func(t *testing.T) {
			t.Parallel()
			h, r := table(t, dumpDOM(t, b, url), "urls")
			assert.Equal(t, head, h)
			assert.Equal(t, rows, r)
		})
	}
}

// TestBrowserCannotLoad records what Chromium shows when the stylesheet
// cannot be applied, as the package documentation says: nothing at all
// (no element, a blank window) when the stylesheet is missing, on another
// origin, not XSLT, or named by path from a file:// URL, whatever the
// sitemap holds; its own message and the XML tree when it runs without
// XSLT. Should a later Chromium show more, this test fails, and the
// documentation is to be updated.
func TestBrowserCannotLoad(t *testing.T) {
	b := headless.Find(t)
	other := headless.Serve(t, map[string]headless.Page{"/sitemap.xsl": {Type: stylesheet.MediaType, Body: stylesheet.Default()}})
	srv := headless.Serve(t, map[string]headless.Page{
		"/sitemap.xsl": {Type: stylesheet.MediaType, Body: stylesheet.Default()},
		"/broken.xsl":  {Type: stylesheet.MediaType, Body: stylesheet.Default()[:300]},
		"/missing.xml": {Type: "application/xml", Body: []byte(withStylesheet(browserPlain, "/missing.xsl"))},
		"/other.xml":   {Type: "application/xml", Body: []byte(withStylesheet(browserPlain, other.URL+"/sitemap.xsl"))},
		"/broken.xml":  {Type: "application/xml", Body: []byte(withStylesheet(browserPlain, "/broken.xsl"))},
		"/plain.xml":   {Type: "application/xml", Body: []byte(browserPlain)},
	})
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sitemap.xsl"), stylesheet.Default(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plain.xml"), []byte(withStylesheet(browserPlain, "sitemap.xsl")), 0o644))
	for name, url := range map[string]string{
		"missing": srv.URL + "/missing.xml", "other origin": srv.URL + "/other.xml", "broken": srv.URL + "/broken.xml",
		"file": "file://" + filepath.Join(dir, "plain.xml"),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dom, shot := b.Render(t, url, 800, 600)
			assert.Empty(t, strings.TrimSpace(string(dom)), "Chromium now shows something")
			assert.Zero(t, headless.Ink(shot), "Chromium now shows something")
		})
	}
	t.Run("no XSLT", func(t *testing.T) {
		t.Parallel()
		dom := string(b.DumpDOM(t, srv.URL+"/plain.xml", headless.NoXSLT))
		assert.Contains(t, dom, "It uses XSLT, which the browser does not support")
		assert.Contains(t, dom, "https://example.com/only")
	})
}
