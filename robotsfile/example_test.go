package robotsfile_test

import (
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/robotsfile"
)

func ExampleUpdate() {
	robots := []byte("User-agent: *\r\nDisallow: /admin/\r\nsitemap: https://example.com/sitemap.xml\r\n" +
		"Sitemap: https://example.com/news-sitemap.xml\r\n")
	// The set grew into an index, gzipped: its line is replaced in place,
	// with the file's line endings; the other tool's line stays.
	out, changed, err := robotsfile.Update(robots, []string{"https://example.com/sitemap.xml.gz"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("changed: %v\n%q\n", changed, out)
	// Output:
	// changed: true
	// "User-agent: *\r\nDisallow: /admin/\r\nSitemap: https://example.com/sitemap.xml.gz\r\nSitemap: https://example.com/news-sitemap.xml\r\n"
}

func ExampleLines() {
	lines, err := robotsfile.Lines([]string{"https://example.com/sitemap.xml"})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(lines))
	// Output:
	// Sitemap: https://example.com/sitemap.xml
}
