package convert_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
)

// Compose the steps by hand, as Run does: open an index, read the sitemaps
// it lists in its place, keep one host's pages, each page once, newest
// first, and write them as a list. Each entry knows the input it came
// from, and one Observer hears what the steps leave out.
func Example_steps() {
	docs := map[string]string{
		"https://example.com/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/posts.xml</loc></sitemap>
<sitemap><loc>https://example.com/more.txt</loc></sitemap>
</sitemapindex>`,
		"https://example.com/posts.xml": `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/a</loc><lastmod>2026-01-01</lastmod></url>
<url><loc>https://example.com/b</loc><lastmod>2026-03-01</lastmod></url>
<url><loc>https://cdn.example.net/c</loc></url>
</urlset>`,
		"https://example.com/more.txt": "https://example.com/c\nhttps://EXAMPLE.com/a\n",
	}
	input := func(loc string) convert.Input {
		return convert.Input{Name: loc, Open: func() (io.ReadCloser, error) {
			return io.NopCloser(strings.NewReader(docs[loc])), nil
		}}
	}
	observe := convert.Observe{Drop: func(d convert.Drop) { fmt.Printf("left out %s (%s)\n", d.Loc, d.Rule) }}

	src, err := convert.Open([]convert.Input{input("https://example.com/index.xml")}, convert.ReadOptions{}, observe)
	defer src.Close()
	if err != nil {
		fmt.Println(err)
		return
	}
	children := convert.Follow(src, convert.FollowOptions{
		OpenChild: func(_ context.Context, _ convert.Input, loc string) (convert.Input, error) { return input(loc), nil },
	})
	defer children.Close()
	kept, err := convert.Filter(children, convert.FilterOptions{Hosts: []string{"example.com"}}, observe)
	if err != nil {
		fmt.Println(err)
		return
	}
	pages := convert.Dedupe(kept, convert.DedupeOptions{}, observe)
	defer pages.Close()
	newest := convert.Sort(pages, convert.SortLastMod, "")
	defer newest.Close()

	w := text.NewWriter(os.Stdout)
	var from []int
	for {
		it, err := newest.NextItem()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		w.Write(it.Entry)
		from = append(from, it.Input)
	}
	w.Close()
	inputs := src.Inputs()
	for i, in := range from {
		fmt.Printf("entry %d from %s\n", i+1, inputs[in].Name)
	}
	// Output:
	// left out https://cdn.example.net/c (host)
	// left out https://example.com/a (duplicate)
	// https://example.com/b
	// https://example.com/a
	// https://example.com/c
	// entry 1 from https://example.com/posts.xml
	// entry 2 from https://example.com/posts.xml
	// entry 3 from https://example.com/more.txt
}

// Hand the reading over to a goroutine of its own with Prefetch, and write
// the first entries only with Limit: the rest are read and counted.
func ExampleLimit() {
	list := "https://example.com/1\nhttps://example.com/2\nhttps://example.com/3\n"
	r, _, err := formats.Open(strings.NewReader(list), formats.OpenOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ahead := convert.Prefetch(r)
	defer ahead.Close()
	first := convert.Limit(ahead, 2)
	for e, err := range formats.All(first) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(e.Loc)
	}
	fmt.Println("left out:", first.Limited())
	// Output:
	// https://example.com/1
	// https://example.com/2
	// left out: 1
}

// Write each loc in its normal form: pages are then the same when their
// locs are equal, and Dedupe does not normalize them again.
func ExampleRewrite() {
	list := "HTTPS://Example.COM:443/a/./b#top\nhttps://example.com/a/b\n"
	r, _, err := formats.Open(strings.NewReader(list), formats.OpenOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	merged := 0
	pages := convert.Dedupe(convert.Rewrite(r, convert.RewriteOptions{Normal: true}, nil), convert.DedupeOptions{},
		convert.Observe{Drop: func(convert.Drop) { merged++ }})
	defer pages.Close()
	for e, err := range formats.All(pages) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(e.Loc)
	}
	fmt.Println("merged:", merged)
	// Output:
	// https://example.com/a/b
	// merged: 1
}
