package html_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/headless"
)

// widths are the window widths the views are checked at: a desktop and a
// phone.
var widths = []int{1280, 390}

// TestBrowser renders a page of URLs and an index page in headless
// Chromium at desktop and phone width: each shows something (the
// screenshot is not blank), shows every URL decoded for reading, and
// nothing reaches past the right edge, even a long URL without a place to
// break or a long title.
func TestBrowser(t *testing.T) {
	b := headless.Find(t)
	entries := readXML(t, "small.xml")
	long := formats.Entry{Loc: "https://example.com/" + strings.Repeat("averylongpathsegment", 8) + "?q=" + strings.Repeat("x", 60),
		Title: strings.Repeat("Atitlewithoutspaces", 6)}
	entries = append(entries, long)
	page := render(t, formats.WriteOptions{}, entries...)
	index := render(t, formats.WriteOptions{Index: true}, readXML(t, "index.xml")...)
	srv := headless.Serve(t, map[string]headless.Page{
		"/sitemap.html": {Type: "text/html; charset=utf-8", Body: page},
		"/index.html":   {Type: "text/html; charset=utf-8", Body: index},
	})
	for _, c := range []struct {
		name, path string
		shown      []string
	}{
		{"sitemap", "/sitemap.html", []string{"Sitemap", "https://example.com/", "https://example.com/café?q=a&b=%3Cx%3E",
			"https://café.example/日本語/%E2%80%AEtxt.exe", long.Loc, long.Title}},
		{"index", "/index.html", []string{"Sitemap index", "https://example.com/sitemap-1.html", "https://example.com/sitemap-2.html", "2024-05-06"}},
	} {
		for _, w := range widths {
			t.Run(fmt.Sprintf("%s/%dpx", c.name, w), func(t *testing.T) {
				t.Parallel()
				l := b.Layout(t, srv, c.path, w, 900)
				headless.Keep(t, fmt.Sprintf("html-%s-%d", c.name, w), l.Shot)
				for _, s := range c.shown {
					if !strings.Contains(l.Text, s) {
						t.Errorf("%s at %dpx does not show %q; it shows:\n%s", c.path, w, s, l.Text)
					}
				}
				if l.Width != w || l.ScrollWidth > l.Width || len(l.Overflow) > 0 {
					t.Errorf("%s at %dpx: viewport %dpx, content %dpx wide; past the right edge: %v", c.path, w, l.Width, l.ScrollWidth, l.Overflow)
				}
				if ink := headless.Ink(l.Shot); ink < 0.01 {
					t.Errorf("%s at %dpx: the screenshot is blank (%.4f of the pixels differ from the background)", c.path, w, ink)
				}
			})
		}
	}
}
