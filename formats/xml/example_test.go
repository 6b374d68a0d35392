package xml_test

import (
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
