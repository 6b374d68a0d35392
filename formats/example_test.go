package formats_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// Read an input of any registered format, recognized by its content, and
// write it as an XML sitemap.
func Example() {
	feed := `<rss version="2.0"><channel><title>Blog</title><link>https://blog.example.com/</link>
<item><title>Hello</title><link>/2026/hello/</link><pubDate>Fri, 20 Nov 2026 09:15:00 +0000</pubDate></item>
<item><title>No link</title></item>
</channel></rss>`
	r, format, err := formats.Open(strings.NewReader(feed), formats.OpenOptions{
		ReadOptions: formats.ReadOptions{
			Source: "blog.rss",
			Warn:   func(pe *formats.ParseError) { fmt.Println("warning:", pe) },
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("format:", format.Name)
	w := xml.NewWriter(os.Stdout, formats.WriteOptions{})
	for e, err := range formats.All(r) {
		if err != nil {
			fmt.Println(err)
			return
		}
		w.Write(e)
	}
	w.Close()
	// Output:
	// format: feed
	// warning: blog.rss:3: item 2 ("No link") has no link
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://blog.example.com/2026/hello/</loc><lastmod>2026-11-20T09:15:00Z</lastmod></url>
	// </urlset>
}

// Inputs that are not sitemaps or feeds are refused with an error that says
// what they looked like.
func ExampleOpen_notASitemap() {
	_, _, err := formats.Open(strings.NewReader("<!DOCTYPE html><html><body>Not Found</body></html>"),
		formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: "sitemap.xml"}})
	fmt.Println(err)
	// Output:
	// sitemap.xml: formats: not a sitemap or feed (looks like HTML)
}

func ExampleParseLoc() {
	loc, _ := formats.ParseLoc(" HTTPS://Bücher.example/straße?q=a b&x=%41 ", nil)
	fmt.Println(loc)
	_, err := formats.ParseLoc("ftp://example.com/file", nil)
	fmt.Println(err)
	// Output:
	// https://xn--bcher-kva.example/stra%C3%9Fe?q=a%20b&x=%41
	// not an http or https URL: "ftp://example.com/file"
}

func ExampleParseLastMod() {
	for _, s := range []string{"2024-05-08", "2024-05-08T10:30+02:00", "Wed, 08 May 2024 08:53:11 GMT"} {
		l, _ := formats.ParseLastMod(s)
		fmt.Println(l, l.IsDate())
	}
	// Output:
	// 2024-05-08 true
	// 2024-05-08T10:30:00+02:00 false
	// 2024-05-08T08:53:11Z false
}
