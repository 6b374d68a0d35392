package formats_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

func TestSniff(t *testing.T) {
	tests := []struct {
		name, in string
		want     formats.Sniffed
	}{
		{"empty", "", formats.Sniffed{Content: formats.ContentEmpty}},
		{"blank", " \n\t\r\n", formats.Sniffed{Content: formats.ContentEmpty}},
		{"comments only", "# nothing\n#here\n", formats.Sniffed{Content: formats.ContentEmpty}},
		{"urlset", `<?xml version="1.0"?><urlset xmlns="x">`, formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "urlset"}},
		{"prefixed root", `<sit:urlset xmlns:sit="x">`, formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "sit:urlset"}},
		{"bom and comments", "\ufeff  <!-- a -->\n<?xml-stylesheet href=\"s.xsl\"?><!-- b --><rss>", formats.Sniffed{Content: formats.ContentXML, Root: "rss", RootName: "rss"}},
		{"doctype with subset", `<!DOCTYPE rdf [ <!ENTITY % x SYSTEM "http://e/x"> %x; ]><rdf:RDF>`, formats.Sniffed{Content: formats.ContentXML, Root: "RDF", RootName: "rdf:RDF"}},
		{"html doctype", "<!DOCTYPE html><html>", formats.Sniffed{Content: formats.ContentHTML}},
		{"html root", "<html lang=en>", formats.Sniffed{Content: formats.ContentHTML, Root: "html", RootName: "html"}},
		{"unterminated comment", "<!-- never ends", formats.Sniffed{Content: formats.ContentXML}},
		{"json feed", `{"version": "https://jsonfeed.org/version/1.1", "items": []}`, formats.Sniffed{Content: formats.ContentJSON, JSONFeedVersion: "https://jsonfeed.org/version/1.1"}},
		{"escaped slashes", `{"version":"https:\/\/jsonfeed.org\/version\/1"}`, formats.Sniffed{Content: formats.ContentJSON, JSONFeedVersion: "https://jsonfeed.org/version/1"}},
		{"bare version with items", `{"version": "1.0", "title": "t", "items": [{"id": "1"}]}`, formats.Sniffed{Content: formats.ContentJSON, JSONFeedVersion: "1.0"}},
		{"bare version without items", `{"version": "1.0"}`, formats.Sniffed{Content: formats.ContentJSON}},
		{"other json", `{"a": 1}`, formats.Sniffed{Content: formats.ContentJSON}},
		{"json lines", `{"url":"https://a.example/","changefreq":"weekly"}` + "\n" + `{"url":"https://a.example/2"}`, formats.Sniffed{Content: formats.ContentJSON}},
		{"url list", "\n# list\n  https://example.com/a\n", formats.Sniffed{Content: formats.ContentText, FirstLine: "https://example.com/a"}},
		{"robots", "User-agent: *\nSitemap: https://e/s.xml", formats.Sniffed{Content: formats.ContentText, FirstLine: "User-agent: *"}},
		{"php warning before xml", "Warning: x in y.php\n<?xml version=\"1.0\"?><urlset>", formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "urlset", Junk: 20}},
		{"php warning in html before xml", "<br />\n<b>Warning</b>: x in y.php\n<?xml version=\"1.0\"?><urlset>", formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "urlset", Junk: 34}},
		{"comment before a stylesheet instruction", "<!-- c --><?xml-stylesheet href=\"s.xsl\"?><urlset>", formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "urlset"}},
		{"binary", "abc\x00def", formats.Sniffed{Content: formats.ContentBinary}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, formats.Sniff([]byte(tt.in)))
		})
	}
}

func TestSniffedString(t *testing.T) {
	s := formats.Sniff([]byte("<note><to>x</to></note>"))
	assert.Equal(t, "XML with root element <note>", s.String())
	s = formats.Sniff([]byte("<!doctype HTML>"))
	assert.Equal(t, "looks like HTML", s.String())
}

// TestSniffDecidesFromTheStart holds sniffing to what an input starts
// with: something further on (a declaration in a comment, an XML document
// or HTML on later lines, a feed inside JSON, a NUL on a later line) never
// changes the verdict.
func TestSniffDecidesFromTheStart(t *testing.T) {
	text := func(first string) formats.Sniffed {
		return formats.Sniffed{Content: formats.ContentText, FirstLine: first}
	}
	xml := func(root string) formats.Sniffed {
		return formats.Sniffed{Content: formats.ContentXML, Root: root, RootName: root}
	}
	json := formats.Sniffed{Content: formats.ContentJSON}
	tests := []struct {
		name, in string
		want     formats.Sniffed
	}{
		{"a comment mentions the declaration", "# exported from <?xml version=\"1.0\"?> sitemaps\nhttps://a.example/1\n", text("https://a.example/1")},
		{"later lines hold an XML sitemap", "https://a.example/1\n<?xml version=\"1.0\"?>\n<urlset><url><loc>https://b.example/</loc></url></urlset>\n", text("https://a.example/1")},
		{"later lines hold HTML", "https://a.example/1\n<!DOCTYPE html><html><body><pre>\n<?xml version=\"1.0\"?>\n</pre></body></html>\n", text("https://a.example/1")},
		{"robots.txt whose comment quotes XML", "# <?xml version=\"1.0\"?> is not here\nUser-agent: *\nSitemap: https://a.example/s.xml\n", text("User-agent: *")},
		{"robots.txt with CR line ends", "# rules\rUser-agent: *\rSitemap: https://a.example/s.xml\r", text("User-agent: *")},
		{"URL list with CR line ends", "# list\rhttps://a.example/1\rhttps://a.example/2\r", text("https://a.example/1")},
		{"HTML page quoting a declaration", "<!DOCTYPE html><html><body><pre><?xml version=\"1.0\"?><urlset></pre>", formats.Sniffed{Content: formats.ContentHTML}},
		{"HTML root quoting a declaration", "<html><body><?xml version=\"1.0\"?><urlset>", formats.Sniffed{Content: formats.ContentHTML, Root: "html", RootName: "html"}},
		{"RSS quoting XML in a CDATA section", "<rss version=\"2.0\"><channel><item><description><![CDATA[<?xml version=\"1.0\"?><urlset>]]>", xml("rss")},
		{"JSON that lists feeds", `{"feeds": [{"version": "https://jsonfeed.org/version/1.1", "items": []}]}`, json},
		{"JSON array of feeds", `[{"version": "https://jsonfeed.org/version/1", "items": []}]`, json},
		{"bare version with nested items only", `{"version": "1", "data": {"items": [1]}}`, json},
		{"version string inside another value", `{"title": "\"version\": \"https://jsonfeed.org/version/1\"", "items": []}`, json},
		{"top-level version after a nested one", `{"meta": {"version": "2"}, "version": "https://jsonfeed.org/version/1", "items": []}`, formats.Sniffed{Content: formats.ContentJSON, JSONFeedVersion: "https://jsonfeed.org/version/1"}},
		{"items cut by the end of the prefix", `{"version": "1.1", "items": [{"id": "1", "title": "cut`, formats.Sniffed{Content: formats.ContentJSON, JSONFeedVersion: "1.1"}},
		{"a NUL on a later line", strings.Repeat("https://a.example/page\n", 30) + "https://a.example/\x00\n", text("https://a.example/page")},
		{"plain PHP notice before the declaration", "PHP Notice:  Undefined index: x in /var/www/s.php on line 9\n<?xml version=\"1.0\"?><urlset>", formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "urlset", Junk: 60}},
		{"two PHP warnings in HTML", "<br />\n<b>Warning</b>:  a in <b>/s.php</b> on line <b>2</b><br />\n<br />\n<b>Deprecated</b>:  b<br />\n<?xml version=\"1.0\"?><urlset>", formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "urlset", Junk: 101}},
		{"comments before the declaration", "<!-- a -->\n<!-- b --> <?xml version=\"1.0\"?><urlset>", formats.Sniffed{Content: formats.ContentXML, Root: "urlset", RootName: "urlset", Junk: 22}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, formats.Sniff([]byte(tt.in)))
		})
	}
}
