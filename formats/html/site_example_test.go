package html_test

import (
	"fmt"
	"log"
	"net/url"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/html"
)

// A static site's build output read as the URLs of its pages: each page's
// URL is the site's plus its path (index.html is its directory's URL);
// pages that ask not to be indexed, and those whose canonical URL is
// another, are left out.
func Example_site() {
	site, _ := url.Parse("https://example.com/")
	dir, err := html.OpenDir("../../testdata/site", html.DirOptions{Site: site, Images: true})
	if err != nil {
		log.Fatal(err)
	}
	defer dir.Close()
	r, f, err := formats.Open(dir, formats.OpenOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("read as", f.Name)
	for e, err := range formats.All(r) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.Loc)
		if !e.LastMod.IsZero() {
			fmt.Println("  lastmod", e.LastMod)
		}
		if e.Ext != nil {
			for _, a := range e.Ext.Alternates {
				fmt.Println("  alternate", a.Hreflang, a.Href)
			}
			for _, im := range e.Ext.Images {
				fmt.Println("  image", im.Loc)
			}
		}
	}
	fmt.Println("left out:", r.(formats.ExtraReader).LeftOut())
	// Output:
	// read as html
	// https://example.com/
	//   lastmod 2024-06-01T08:00:00Z
	//   alternate en https://example.com/
	//   alternate fr https://example.com/fr/
	//   alternate x-default https://example.com/
	//   image https://example.com/assets/logo.png
	// https://example.com/about.html
	//   lastmod 2024-02-29T23:59:59-05:00
	// https://example.com/blog/
	//   lastmod 2024-05-20
	// https://example.com/blog/first-post/
	//   lastmod 2024-05-03T12:30:00+02:00
	//   image https://cdn.example.com/cover.jpg
	//   image https://example.com/blog/first-post/photo.jpg
	// https://example.com/blog/second-post/
	//   lastmod 2024-05-12T18:45:00Z
	// https://example.com/caf%C3%A9/
	// https://example.com/docs/getting%20started.html
	// https://example.com/fr/
	//   alternate en https://example.com/
	//   alternate fr https://example.com/fr/
	//   alternate x-default https://example.com/
	// left out: 5
}
