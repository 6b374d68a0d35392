package formats_test

import (
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
