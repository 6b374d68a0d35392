package output_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// Writing 120,000 URLs gives an index and three parts of at most 50,000.
func Example() {
	dir, _ := os.MkdirTemp("", "sitemaps")
	defer os.RemoveAll(dir)
	base, _ := url.Parse("https://example.com/sitemaps/")

	set, err := output.New(output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, BaseURL: base})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer set.Abort() // leaves the previous files as they were unless Close succeeded
	for i := range 120000 {
		if err := set.Write(formats.Entry{Loc: fmt.Sprintf("https://example.com/sitemaps/page/%d", i)}); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := set.Close(); err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range set.Files() {
		fmt.Printf("%s: %d entries\n", filepath.Base(f.Path), f.Entries)
	}
	// Output:
	// sitemap-1-a75f3b0f.xml: 50000 entries
	// sitemap-2-17bd9c06.xml: 50000 entries
	// sitemap-3-eea5c448.xml: 20000 entries
	// sitemap.xml: 3 entries
}

// Writing by section: a sitemap for each first directory of the path (the
// pages at the top in root), a section over the limit split in numbered
// parts, all listed by the index.
func Example_sections() {
	dir, _ := os.MkdirTemp("", "sitemaps")
	defer os.RemoveAll(dir)
	base, _ := url.Parse("https://example.com/")

	set, err := output.New(output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, BaseURL: base,
		MaxURLs: 2, SectionOf: output.ByPath(1)})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer set.Abort()
	for _, path := range []string{"/", "/shop/a", "/blog/", "/shop/b", "/about", "/shop/c", "/blog/post"} {
		if err := set.Write(formats.Entry{Loc: "https://example.com" + path}); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := set.Close(); err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range set.Files() {
		fmt.Printf("%s: %d entries\n", filepath.Base(f.Path), f.Entries)
	}
	// Output:
	// sitemap-blog-7985adcc.xml: 2 entries
	// sitemap-root-d698b186.xml: 2 entries
	// sitemap-shop-1-37ce8242.xml: 2 entries
	// sitemap-shop-2-66dd8e7f.xml: 1 entries
	// sitemap.xml: 4 entries
}
