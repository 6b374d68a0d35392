package feed_test

import (
	"fmt"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
)

func ExampleNewReader() {
	const rss = `<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><link>https://example.com/blog/</link>
  <item><link>posts/1</link><pubDate>Mon, 06 May 2024 08:00:00 +0200</pubDate></item>
  <item><guid>https://example.com/blog/posts/2</guid><dc:date>2024-05-07</dc:date></item>
  <item><guid isPermaLink="false">urn:uuid:3</guid></item>
</channel></rss>`
	opts := formats.ReadOptions{
		Source: "feed.xml",
		Warn:   func(pe *formats.ParseError) { fmt.Println("warning:", pe) },
	}
	r := feed.NewReader(strings.NewReader(rss), opts)
	for e, err := range formats.All(r) {
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		fmt.Println(e.Loc, e.LastMod)
	}
	// Output:
	// https://example.com/blog/posts/1 2024-05-06T08:00:00+02:00
	// https://example.com/blog/posts/2 2024-05-07
	// warning: feed.xml:5: item 3 has no link (its guid is not a permalink)
}
