package sniff_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
)

func TestSniff(t *testing.T) {
	tests := []struct {
		name, in string
		want     sniff.Result
	}{
		{"empty", "", sniff.Result{Content: sniff.Empty}},
		{"blank", " \n\t\r\n", sniff.Result{Content: sniff.Empty}},
		{"comments only", "# nothing\n#here\n", sniff.Result{Content: sniff.Empty}},
		{"urlset", `<?xml version="1.0"?><urlset xmlns="x">`, sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "urlset"}},
		{"prefixed root", `<sit:urlset xmlns:sit="x">`, sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "sit:urlset"}},
		{"bom and comments", "\ufeff  <!-- a -->\n<?xml-stylesheet href=\"s.xsl\"?><!-- b --><rss>", sniff.Result{Content: sniff.XML, Root: "rss", RootName: "rss"}},
		{"doctype with subset", `<!DOCTYPE rdf [ <!ENTITY % x SYSTEM "http://e/x"> %x; ]><rdf:RDF>`, sniff.Result{Content: sniff.XML, Root: "RDF", RootName: "rdf:RDF"}},
		{"html doctype", "<!DOCTYPE html><html>", sniff.Result{Content: sniff.HTML}},
		{"html root", "<html lang=en>", sniff.Result{Content: sniff.HTML, Root: "html", RootName: "html"}},
		{"unterminated comment", "<!-- never ends", sniff.Result{Content: sniff.XML}},
		{"json feed", `{"version": "https://jsonfeed.org/version/1.1", "items": []}`, sniff.Result{Content: sniff.JSON, JSONFeedVersion: "https://jsonfeed.org/version/1.1"}},
		{"escaped slashes", `{"version":"https:\/\/jsonfeed.org\/version\/1"}`, sniff.Result{Content: sniff.JSON, JSONFeedVersion: "https://jsonfeed.org/version/1"}},
		{"bare version with items", `{"version": "1.0", "title": "t", "items": [{"id": "1"}]}`, sniff.Result{Content: sniff.JSON, JSONFeedVersion: "1.0"}},
		{"bare version without items", `{"version": "1.0"}`, sniff.Result{Content: sniff.JSON}},
		{"other json", `{"a": 1}`, sniff.Result{Content: sniff.JSON}},
		{"json lines", `{"url":"https://a.example/","changefreq":"weekly"}` + "\n" + `{"url":"https://a.example/2"}`, sniff.Result{Content: sniff.JSON}},
		{"url list", "\n# list\n  https://example.com/a\n", sniff.Result{Content: sniff.Text, FirstLine: "https://example.com/a"}},
		{"robots", "User-agent: *\nSitemap: https://e/s.xml", sniff.Result{Content: sniff.Text, FirstLine: "User-agent: *"}},
		{"php warning before xml", "Warning: x in y.php\n<?xml version=\"1.0\"?><urlset>", sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "urlset", Junk: 20}},
		{"php warning in html before xml", "<br />\n<b>Warning</b>: x in y.php\n<?xml version=\"1.0\"?><urlset>", sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "urlset", Junk: 34}},
		{"comment before a stylesheet instruction", "<!-- c --><?xml-stylesheet href=\"s.xsl\"?><urlset>", sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "urlset"}},
		{"binary", "abc\x00def", sniff.Result{Content: sniff.Binary}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sniff.Of([]byte(tt.in)))
		})
	}
}

func TestSniffedString(t *testing.T) {
	s := sniff.Of([]byte("<note><to>x</to></note>"))
	assert.Equal(t, "XML with root element <note>", s.String())
	s = sniff.Of([]byte("<!doctype HTML>"))
	assert.Equal(t, "looks like HTML", s.String())
}

// TestSniffDecidesFromTheStart holds sniffing to what an input starts
// with: something further on (a declaration in a comment, an XML document
// or HTML on later lines, a feed inside JSON, a NUL on a later line) never
// changes the verdict.
func TestSniffDecidesFromTheStart(t *testing.T) {
	text := func(first string) sniff.Result {
		return sniff.Result{Content: sniff.Text, FirstLine: first}
	}
	xml := func(root string) sniff.Result {
		return sniff.Result{Content: sniff.XML, Root: root, RootName: root}
	}
	json := sniff.Result{Content: sniff.JSON}
	tests := []struct {
		name, in string
		want     sniff.Result
	}{
		{"a comment mentions the declaration", "# exported from <?xml version=\"1.0\"?> sitemaps\nhttps://a.example/1\n", text("https://a.example/1")},
		{"later lines hold an XML sitemap", "https://a.example/1\n<?xml version=\"1.0\"?>\n<urlset><url><loc>https://b.example/</loc></url></urlset>\n", text("https://a.example/1")},
		{"later lines hold HTML", "https://a.example/1\n<!DOCTYPE html><html><body><pre>\n<?xml version=\"1.0\"?>\n</pre></body></html>\n", text("https://a.example/1")},
		{"robots.txt whose comment quotes XML", "# <?xml version=\"1.0\"?> is not here\nUser-agent: *\nSitemap: https://a.example/s.xml\n", text("User-agent: *")},
		{"robots.txt with CR line ends", "# rules\rUser-agent: *\rSitemap: https://a.example/s.xml\r", text("User-agent: *")},
		{"URL list with CR line ends", "# list\rhttps://a.example/1\rhttps://a.example/2\r", text("https://a.example/1")},
		{"HTML page quoting a declaration", "<!DOCTYPE html><html><body><pre><?xml version=\"1.0\"?><urlset></pre>", sniff.Result{Content: sniff.HTML}},
		{"HTML root quoting a declaration", "<html><body><?xml version=\"1.0\"?><urlset>", sniff.Result{Content: sniff.HTML, Root: "html", RootName: "html"}},
		{"RSS quoting XML in a CDATA section", "<rss version=\"2.0\"><channel><item><description><![CDATA[<?xml version=\"1.0\"?><urlset>]]>", xml("rss")},
		{"JSON that lists feeds", `{"feeds": [{"version": "https://jsonfeed.org/version/1.1", "items": []}]}`, json},
		{"JSON array of feeds", `[{"version": "https://jsonfeed.org/version/1", "items": []}]`, json},
		{"bare version with nested items only", `{"version": "1", "data": {"items": [1]}}`, json},
		{"version string inside another value", `{"title": "\"version\": \"https://jsonfeed.org/version/1\"", "items": []}`, json},
		{"top-level version after a nested one", `{"meta": {"version": "2"}, "version": "https://jsonfeed.org/version/1", "items": []}`, sniff.Result{Content: sniff.JSON, JSONFeedVersion: "https://jsonfeed.org/version/1"}},
		{"items cut by the end of the prefix", `{"version": "1.1", "items": [{"id": "1", "title": "cut`, sniff.Result{Content: sniff.JSON, JSONFeedVersion: "1.1"}},
		{"a NUL on a later line", strings.Repeat("https://a.example/page\n", 30) + "https://a.example/\x00\n", text("https://a.example/page")},
		{"plain PHP notice before the declaration", "PHP Notice:  Undefined index: x in /var/www/s.php on line 9\n<?xml version=\"1.0\"?><urlset>", sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "urlset", Junk: 60}},
		{"two PHP warnings in HTML", "<br />\n<b>Warning</b>:  a in <b>/s.php</b> on line <b>2</b><br />\n<br />\n<b>Deprecated</b>:  b<br />\n<?xml version=\"1.0\"?><urlset>", sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "urlset", Junk: 101}},
		{"comments before the declaration", "<!-- a -->\n<!-- b --> <?xml version=\"1.0\"?><urlset>", sniff.Result{Content: sniff.XML, Root: "urlset", RootName: "urlset", Junk: 22}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sniff.Of([]byte(tt.in)))
		})
	}
}
