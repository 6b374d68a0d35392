package diff_test

import (
	"fmt"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/diff"
	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

func ExampleCompare() {
	open := func(doc string) formats.Reader {
		r, _, err := formats.Open(strings.NewReader(doc), formats.OpenOptions{})
		if err != nil {
			panic(err)
		}
		return r
	}
	old := open(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/</loc><lastmod>2026-01-01</lastmod></url>
<url><loc>https://example.com/old</loc></url>
</urlset>`)
	new := open(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/</loc><lastmod>2026-02-01</lastmod></url>
<url><loc>https://example.com/new</loc></url>
</urlset>`)
	st, err := diff.Compare(old, new, diff.Options{}, func(c diff.Change) error {
		fmt.Println(c.Kind, c.Loc(), c.Fields)
		return nil
	})
	fmt.Println(st, err)
	// Output:
	// changed https://example.com/ [{lastmod 2026-01-01 2026-02-01}]
	// added https://example.com/new []
	// removed https://example.com/old []
	// {0 1 1 1} <nil>
}
