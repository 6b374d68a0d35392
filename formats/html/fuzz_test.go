package html_test

import (
	"bytes"
	"testing"

	nethtml "golang.org/x/net/html"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/html"
)

// FuzzEncoder renders entries of any loc, title and kind: the encoder
// never panics, the page is well formed (every tag it opens closed, in
// order) and no input adds an element: the parsed page has as many rows
// and links as the encoder wrote.
func FuzzEncoder(f *testing.F) {
	f.Add("https://example.com/caf%C3%A9", "Café", false)
	f.Add("https://xn--caf-dma.example/%E2%80%AE", "<script>x</script>", false)
	f.Add(`https://example.com/"><b>`, "</th></tr>", true)
	f.Add("javascript:alert(1)", "\x00\xff", false)
	f.Add("https://example.com/%F0%9F%98%80%C3", "&amp;", true)
	f.Fuzz(func(t *testing.T, loc, title string, index bool) {
		kind := formats.KindURL
		if index {
			kind = formats.KindSitemap
		}
		e := formats.Entry{Loc: loc, Title: title, Kind: kind}
		enc := html.NewEncoder(formats.WriteOptions{Index: index})
		page := enc.AppendHeader(nil)
		page, err := enc.AppendEntry(page, &e)
		if loc == "" {
			if err == nil {
				t.Fatal("an entry without a loc was taken")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		page = enc.AppendFooter(page)
		if err := wellFormed(page); err != nil {
			t.Fatalf("%v\n%s", err, page)
		}
		doc, err := nethtml.Parse(bytes.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for n := range doc.Descendants() {
			if n.Type == nethtml.ElementNode {
				count[n.Data]++
			}
		}
		if count["tr"] != 2 || count["a"] > 1 || count["span"] > 1 || count["time"] != 0 || count["script"] != 0 {
			t.Fatalf("elements %v from one entry\n%s", count, page)
		}
	})
}
