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

// Follow a sitemap index: its children are read in its place, in its
// order. OpenChild says where a child comes from; here, from memory (the
// command fetches remote ones with package fetch, and reads those of a
// local index beside it, with LocalChild).
func ExampleRun_follow() {
	docs := map[string]string{
		"https://example.com/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/posts.txt</loc></sitemap>
<sitemap><loc>https://example.com/missing.txt</loc></sitemap>
<sitemap><loc>https://example.com/pages.txt</loc></sitemap>
</sitemapindex>`,
		"https://example.com/posts.txt": "https://example.com/posts/1\nhttps://example.com/posts/2\n",
		"https://example.com/pages.txt": "https://example.com/about\n",
	}
	input := func(loc string) convert.Input {
		return convert.Input{Name: loc, Open: func() (io.ReadCloser, error) {
			doc, ok := docs[loc]
			if !ok {
				return nil, fmt.Errorf("%s: not found", loc)
			}
			return io.NopCloser(strings.NewReader(doc)), nil
		}}
	}
	stats, err := convert.Run(
		[]convert.Input{input("https://example.com/index.xml")},
		func(formats.WriteOptions) (formats.Writer, error) { return text.NewWriter(os.Stdout), nil },
		convert.Options{Follow: convert.FollowOptions{
			Enabled:   true,
			KeepGoing: true, // write what was read; Run still reports the failure
			OpenChild: func(_ context.Context, _ convert.Input, loc string) (convert.Input, error) {
				return input(loc), nil
			},
		}},
	)
	fmt.Println(err)
	for _, in := range stats.Inputs {
		fmt.Printf("%*s%s: %d read, %d children\n", 2*in.Depth, "", in.Name, in.Read, in.Children)
	}
	// Output:
	// https://example.com/posts/1
	// https://example.com/posts/2
	// https://example.com/about
	// convert: inputs failed: https://example.com/missing.txt: not found
	// https://example.com/index.xml: 0 read, 3 children
	//   https://example.com/posts.txt: 2 read, 0 children
	//   https://example.com/missing.txt: 0 read, 0 children
	//   https://example.com/pages.txt: 1 read, 0 children
}
