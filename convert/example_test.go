package convert_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// Merge a feed and a URL list into one sitemap: each page once, with its
// newest lastmod.
func ExampleRun() {
	feed := `<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><id>urn:x</id><updated>2026-11-20T09:00:00Z</updated>
<entry><title>A</title><id>urn:a</id><link href="https://example.com/a"/><updated>2026-11-20T09:00:00Z</updated></entry>
</feed>`
	list := "https://example.com/\nhttps://example.com/a\nhttps://example.com/b\n"
	open := func(s string) func() (io.ReadCloser, error) {
		return func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(s)), nil }
	}
	stats, err := convert.Run(
		[]convert.Input{{Name: "urls.txt", Open: open(list)}, {Name: "blog.atom", Open: open(feed)}},
		func(o formats.WriteOptions) (formats.Writer, error) { return xml.NewWriter(os.Stdout, o), nil },
		convert.Options{},
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("read %d, merged %d, wrote %d\n", stats.Read(), stats.Duplicates, stats.Written)
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
	// <url><loc>https://example.com/</loc></url>
	// <url><loc>https://example.com/a</loc><lastmod>2026-11-20T09:00:00Z</lastmod></url>
	// <url><loc>https://example.com/b</loc></url>
	// </urlset>
	// read 4, merged 1, wrote 3
}
