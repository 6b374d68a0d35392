package formats_test

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// gluedDocs returns a document of each readable format whose one entry's URL
// is two URLs joined by sep, followed (where the format allows) by a good
// entry https://a.example/z.
func gluedDocs(sep string) map[string]string {
	two := "https://a.example/x" + sep + "https://b.example/y"
	jsonTwo := strings.NewReplacer("\t", `\t`, "\v", `\u000b`, "\f", `\f`, "\x01", `\u0001`, "\x1b", `\u001b`).Replace(two)
	return map[string]string{
		"text":   "https://a.example/first\n" + two + "\nhttps://a.example/z\n",
		"xml":    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + two + `</loc></url><url><loc>https://a.example/z</loc></url></urlset>`,
		"rss":    `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title><link>https://a.example/</link><item><title>x</title><link>` + two + `</link></item><item><title>z</title><link>https://a.example/z</link></item></channel></rss>`,
		"atom":   `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>https://a.example/</id><updated>2024-01-01T00:00:00Z</updated><entry><title>x</title><id>` + two + `</id><updated>2024-01-01T00:00:00Z</updated><link href="` + two + `"/></entry><entry><title>z</title><id>z</id><updated>2024-01-01T00:00:00Z</updated><link href="https://a.example/z"/></entry></feed>`,
		"json":   `{"version":"https://jsonfeed.org/version/1.1","title":"t","items":[{"id":"1","url":"` + jsonTwo + `"},{"id":"2","url":"https://a.example/z"}]}`,
		"robots": "User-agent: *\nDisallow: /x\nSitemap: " + two + "\nSitemap: https://a.example/z\n",
	}
}

// TestGluedURLsEveryReader: whatever separates two URLs in a text line, a
// <loc>, an RSS link, an Atom href or id, a JSON Feed url or a robots.txt
// Sitemap: line (space of any kind, line and paragraph separators, vertical
// tab, form feed, NEL, control characters, invisible spaces), the entry is
// refused with a warning naming several URLs, never read as one glued URL,
// and the entries around it are read.
func TestGluedURLsEveryReader(t *testing.T) {
	for _, sep := range []string{" ", "\t", "\v", "\f", "\u0085", "\u2028", "\u2029", "\u00a0", "\u3000", "\u2003",
		"\x01", "\x1b", "\u0080", "\u009b", "\u200b", "\ufeff"} {
		for name, doc := range gluedDocs(sep) {
			var warnings []string
			r, _, err := formats.Open(strings.NewReader(doc), formats.OpenOptions{ReadOptions: formats.ReadOptions{
				Source: name, Warn: func(p *formats.ParseError) { warnings = append(warnings, p.Error()) }}})
			require.NoError(t, err, "%s %q", name, sep)
			var locs []string
			for {
				e, err := r.Next()
				if err == io.EOF {
					break
				}
				require.NoError(t, err, "%s %q", name, sep)
				locs = append(locs, e.Loc)
			}
			for _, l := range locs {
				assert.False(t, strings.Contains(l, "a.example/x") && strings.Contains(l, "b.example"),
					"%s, separator %q: glued URL %q read", name, sep, l)
			}
			assert.Contains(t, locs, "https://a.example/z", "%s %q: the good entry is read", name, sep)
			assert.True(t, strings.Contains(strings.Join(warnings, "\n"), "several URLs run together"),
				"%s, separator %q: no warning naming several URLs: %q", name, sep, warnings)
		}
	}
}
