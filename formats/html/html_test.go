package html_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/html"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// render writes entries as one page through the registered format's
// Writer.
func render(t testing.TB, opts formats.WriteOptions, entries ...formats.Entry) []byte {
	t.Helper()
	var out bytes.Buffer
	w := html.Format.NewWriter(&out, opts)
	for _, e := range entries {
		if err := w.Write(e); err != nil {
			t.Fatalf("Write(%q): %v", e.Loc, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// readXML returns the entries of a sitemap in testdata.
func readXML(t *testing.T, name string) []formats.Entry {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var entries []formats.Entry
	for e, err := range formats.All(xml.NewReader(f, formats.ReadOptions{})) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		entries = append(entries, e)
	}
	return entries
}

// TestGolden pins the page of a small sitemap with every extension and
// URLs that are not ASCII, and of a sitemap index; each is well formed.
func TestGolden(t *testing.T) {
	for _, name := range []string{"small", "index"} {
		t.Run(name, func(t *testing.T) {
			entries := readXML(t, name+".xml")
			got := render(t, formats.WriteOptions{}, entries...)
			if err := wellFormed(got); err != nil {
				t.Fatalf("%s: %v\n%s", name, err, got)
			}
			golden.Check(t, filepath.Join("testdata", name+".html"), got)
			if again := render(t, formats.WriteOptions{}, entries...); !bytes.Equal(again, got) {
				t.Errorf("%s: two renderings differ", name)
			}
		})
	}
}

// TestReadable checks what a link shows and that it links the URL exactly.
func TestReadable(t *testing.T) {
	for _, c := range []struct{ loc, shown string }{
		{"https://example.com/caf%C3%A9", "https://example.com/café"},
		{"https://example.com/caf%c3%a9?x=%C3%A9#%C3%A9", "https://example.com/café?x=é#é"},
		{"https://xn--caf-dma.example:8080/", "https://café.example:8080/"},
		{"https://example.com/a%20b%2Fc", "https://example.com/a%20b%2Fc"},               // ASCII escapes stay
		{"https://example.com/%E2%80%AEexe.txt", "https://example.com/%E2%80%AEexe.txt"}, // right-to-left override
		{"https://example.com/%C2%A0x%C2%AD", "https://example.com/\u00a0x%C2%AD"},
		{"https://example.com/%C3", "https://example.com/%C3"},       // cut short
		{"https://example.com/%C3%28", "https://example.com/%C3%28"}, // not UTF-8
		{"https://example.com/%F0%9F%98%80", "https://example.com/😀"},
		{"https://xn--zz.example/", "https://xn--zz.example/"}, // not valid punycode
		{"https://[::1]:80/%C3%A9", "https://[::1]:80/é"},
	} {
		page := string(render(t, formats.WriteOptions{}, formats.Entry{Loc: c.loc}))
		want := fmt.Sprintf(`<a href="%s">%s</a>`, escape(c.loc), escape(c.shown))
		if !strings.Contains(page, want) {
			t.Errorf("%s: want %s in\n%s", c.loc, want, row(page))
		}
	}
}

// escape is html.EscapeString's escaping, which the page's is.
func escape(s string) string { return nethtml.EscapeString(s) }

// row returns the first row of a page, for messages.
func row(page string) string {
	if i := strings.Index(page, "<tr><th scope=\"row\">"); i >= 0 {
		return page[i:]
	}
	return page
}

// TestHostile checks that no loc, title or date adds markup: the page
// parses back with the elements the encoder writes only, and with the
// hostile text as text.
func TestHostile(t *testing.T) {
	hostile := []string{
		`https://example.com/"><script>alert(1)</script>`,
		`https://example.com/' onmouseover='alert(1)`,
		`javascript:alert(1)`,
		`https://example.com/</td></tr></table><img src=x onerror=alert(1)>`,
		"https://example.com/\x00\x1b[31m\xff\u202e",
		`https://example.com/&amp;&lt;`,
		`<!-- x`,
		`]]><![CDATA[`,
	}
	var entries []formats.Entry
	for _, s := range hostile {
		entries = append(entries, formats.Entry{Loc: s, Title: s})
	}
	page := render(t, formats.WriteOptions{}, entries...)
	if err := wellFormed(page); err != nil {
		t.Fatalf("%v\n%s", err, page)
	}
	doc, err := nethtml.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	var cells []string
	for n := range doc.Descendants() {
		if n.Type != nethtml.ElementNode {
			continue
		}
		switch n.Data {
		case "script", "img", "iframe":
			t.Errorf("element <%s> injected", n.Data)
		case "a":
			for _, a := range n.Attr {
				if a.Key == "href" {
					links = append(links, a.Val)
				} else {
					t.Errorf("attribute %s=%q injected on a link", a.Key, a.Val)
				}
			}
		case "span":
			cells = append(cells, text(n))
		}
	}
	for _, l := range links {
		if !strings.HasPrefix(l, "https://") {
			t.Errorf("link to %q", l)
		}
	}
	if len(cells) != len(hostile) {
		t.Fatalf("%d titles, want %d", len(cells), len(hostile))
	}
	for i, s := range hostile {
		if want := strings.ToValidUTF8(strings.Map(func(r rune) rune {
			if r < 0x20 || r >= 0x7f && r <= 0x9f {
				return '\uFFFD'
			}
			return r
		}, s), "\uFFFD"); cells[i] != want {
			t.Errorf("title %q reads back as %q, want %q", s, cells[i], want)
		}
	}
}

// text returns the text inside n.
func text(n *nethtml.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == nethtml.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}

// TestKinds checks that a page lists one kind of entry: URLs, or the
// sitemaps of an index, and refuses the other and an entry without a loc.
func TestKinds(t *testing.T) {
	enc := html.NewEncoder(formats.WriteOptions{})
	if _, err := enc.AppendEntry(nil, &formats.Entry{Loc: "https://example.com/s.html", Kind: formats.KindSitemap}); err == nil {
		t.Error("a page of URLs took a sitemap")
	}
	if _, err := enc.AppendEntry(nil, &formats.Entry{}); err == nil {
		t.Error("an entry without a loc was taken")
	}
	idx := html.NewEncoder(formats.WriteOptions{Index: true})
	if _, err := idx.AppendEntry(nil, &formats.Entry{Loc: "https://example.com/"}); err == nil {
		t.Error("a page of sitemaps took a URL")
	}
	if !bytes.Contains(idx.AppendHeader(nil), []byte("<h1>Sitemap index</h1>")) {
		t.Error("the index page has no index heading")
	}
	empty := render(t, formats.WriteOptions{})
	if err := wellFormed(empty); err != nil {
		t.Errorf("empty page: %v", err)
	}
}

// void are the elements with no end tag.
var void = []string{"meta", "br", "img", "link", "input", "hr", "wbr"}

// wellFormed reports the first tag of page that is not closed, or closed
// out of order, and whether the page is one html element with a doctype,
// lang, charset and viewport, and a table with a caption.
func wellFormed(page []byte) error {
	z := nethtml.NewTokenizer(bytes.NewReader(page))
	var open []string
	seen := map[string]bool{}
	for {
		tt := z.Next()
		switch tt {
		case nethtml.ErrorToken:
			if z.Err() != io.EOF {
				return z.Err()
			}
			if len(open) > 0 {
				return fmt.Errorf("unclosed <%s>", strings.Join(open, "> <"))
			}
			for _, need := range []string{"doctype", "html", "charset", "viewport", "lang", "table", "caption", "th", "tbody"} {
				if !seen[need] {
					return fmt.Errorf("no %s", need)
				}
			}
			return nil
		case nethtml.DoctypeToken:
			seen["doctype"] = true
		case nethtml.StartTagToken, nethtml.SelfClosingTagToken:
			tok := z.Token()
			seen[tok.Data] = true
			for _, a := range tok.Attr {
				seen[a.Key] = true
				seen[a.Val] = seen[a.Val] || a.Key == "name"
			}
			if tt == nethtml.StartTagToken && !slices.Contains(void, tok.Data) {
				open = append(open, tok.Data)
			}
		case nethtml.EndTagToken:
			tok := z.Token()
			if len(open) == 0 || open[len(open)-1] != tok.Data {
				return fmt.Errorf("</%s> closes %v", tok.Data, open)
			}
			open = open[:len(open)-1]
		}
	}
}
