package xml_test

import (
	encxml "encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

func Example() {
	in := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url>
    <loc> https://example.com/?a=1&amp;b=2 </loc>
    <lastmod>2024-05-08</lastmod>
    <priority>0.0</priority>
  </url>
  <url><loc>/relative</loc></url>
</urlset>`
	opts := formats.ReadOptions{
		Source: "sitemap.xml",
		Warn:   func(pe *formats.ParseError) { fmt.Println("warning:", pe) },
	}
	r := xml.NewReader(strings.NewReader(in), opts)
	w := xml.NewWriter(os.Stdout, formats.WriteOptions{})
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		w.Write(e)
	}
	w.Close()
	// Output:
	// warning: sitemap.xml:8:8: <loc> skipped: relative URL with no http(s) base to resolve it against: "/relative"
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://example.com/?a=1&amp;b=2</loc><lastmod>2024-05-08</lastmod><priority>0.0</priority></url>
	// </urlset>
}

// This example writes a page with an image and its language versions; the
// root declares the namespaces WriteOptions.Uses names.
func ExampleWriter_extensions() {
	e := formats.Entry{Loc: "https://example.com/en/", Ext: &formats.Extensions{
		Images: []formats.Image{{Loc: "https://example.com/a.jpg"}},
		Alternates: []formats.Alternate{
			{Hreflang: "en", Href: "https://example.com/en/"},
			{Hreflang: "de", Href: "https://example.com/de/"},
		},
	}}
	w := xml.NewWriter(os.Stdout, formats.WriteOptions{Uses: e.Ext.Uses()})
	if err := w.Write(e); err != nil {
		fmt.Println(err)
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">
	// <url><loc>https://example.com/en/</loc><image:image><image:loc>https://example.com/a.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="en" href="https://example.com/en/"/><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/"/></url>
	// </urlset>
}

// countFields is an observer that counts the fields of entries it is
// given and the entries' ends (for the example of Recording).
type countFields struct{ fields, ends int }

func (c *countFields) StartElement(encxml.Name, []encxml.Attr, int, int) bool { return true }
func (c *countFields) EndElement(encxml.Name, int, int) bool                  { return true }
func (c *countFields) CharData([]byte, int, int)                              {}
func (c *countFields) ProcInst(string, int64, int, int)                       {}
func (c *countFields) Directive([]byte, int, int)                             {}
func (c *countFields) End(error, int, int)                                    {}
func (c *countFields) SkipsSpace()                                            {}
func (c *countFields) Field(name encxml.Name, text []byte, _, _, _, _, _, _ int) bool {
	c.fields++
	return true
}

// This example records what a reader gives its observer, marking the end
// of each entry, and gives it to the observer afterwards, as a check run
// behind the reader on another goroutine would be given it.
func ExampleRecording() {
	in := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/a</loc><lastmod>2024-05-08</lastmod></url>
<url><loc>https://example.com/b</loc></url>
</urlset>`
	rec := &xml.Recording{}
	r := xml.NewObservedReader(strings.NewReader(in), formats.ReadOptions{}, rec)
	var locs []string
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		rec.Mark()
		locs = append(locs, e.Loc)
	}
	c := &countFields{}
	rec.Replay(c, func() {
		fmt.Printf("%s: %d fields so far\n", locs[c.ends], c.fields)
		c.ends++
	}, true)
	// Output:
	// https://example.com/a: 2 fields so far
	// https://example.com/b: 3 fields so far
}
