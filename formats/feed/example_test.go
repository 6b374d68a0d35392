package feed_test

import (
	"fmt"
	"os"
	"strings"
	"time"

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

func ExampleNewReader_extensions() {
	const atom = `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xml:lang="en">
  <entry>
    <title>Harbour &amp; boats</title>
    <link href="https://photos.example.com/1"/>
    <link rel="alternate" hreflang="fr" href="https://photos.example.com/fr/1"/>
    <published>2024-06-04T09:00:00Z</published>
    <media:group>
      <media:content url="https://cdn.example.com/1.mp4" type="video/mp4" duration="62"/>
      <media:thumbnail url="https://cdn.example.com/1.jpg"/>
      <media:description type="html">&lt;p&gt;A &lt;b&gt;calm&lt;/b&gt; evening.&lt;/p&gt;</media:description>
    </media:group>
    <link rel="enclosure" type="image/png" href="https://cdn.example.com/map.png"/>
  </entry>
</feed>`
	opts := formats.ReadOptions{NewsName: "Harbour News", Now: time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC)}
	e, err := feed.NewReader(strings.NewReader(atom), opts).Next()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.Loc, e.Title)
	for _, im := range e.Ext.Images {
		fmt.Println("image:", im.Loc)
	}
	for _, v := range e.Ext.Videos {
		fmt.Printf("video: %s %q %q %ds thumbnail %s\n", v.ContentLoc, v.Title, v.Description, v.Duration, v.ThumbnailLoc)
	}
	for _, a := range e.Ext.Alternates {
		fmt.Println("alternate:", a.Hreflang, a.Href)
	}
	n := e.Ext.News
	fmt.Println("news:", n.PublicationName, n.PublicationLanguage, n.PublicationDate, n.Title)
	// Output:
	// https://photos.example.com/1 Harbour & boats
	// image: https://cdn.example.com/map.png
	// video: https://cdn.example.com/1.mp4 "Harbour & boats" "A calm evening." 62s thumbnail https://cdn.example.com/1.jpg
	// alternate: en https://photos.example.com/1
	// alternate: fr https://photos.example.com/fr/1
	// news: Harbour News en 2024-06-04T09:00:00Z Harbour & boats
}

func ExampleNewRSSWriter() {
	lastmod, _ := formats.ParseLastMod("2024-06-04T08:00:00+02:00")
	w := feed.NewRSSWriter(os.Stdout, formats.WriteOptions{
		Feed: formats.FeedInfo{Title: "Example Blog", Link: "https://blog.example.com/"},
	})
	w.Write(formats.Entry{Loc: "https://blog.example.com/caching/", LastMod: lastmod,
		Title: "Caching", Summary: "ETags & 304s."})
	w.Write(formats.Entry{Loc: "https://blog.example.com/about/"})
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <rss version="2.0">
	// <channel>
	// <title>Example Blog</title>
	// <link>https://blog.example.com/</link>
	// <description>Example Blog</description>
	// <item>
	// <title>Caching</title>
	// <link>https://blog.example.com/caching/</link>
	// <guid isPermaLink="true">https://blog.example.com/caching/</guid>
	// <pubDate>Tue, 04 Jun 2024 08:00:00 +0200</pubDate>
	// <description>ETags &amp;amp; 304s.</description>
	// </item>
	// <item>
	// <title>/about/</title>
	// <link>https://blog.example.com/about/</link>
	// <guid isPermaLink="true">https://blog.example.com/about/</guid>
	// </item>
	// </channel>
	// </rss>
}

func ExampleNewAtomWriter() {
	lastmod, _ := formats.ParseLastMod("2024-06-04T08:00:00+02:00")
	w := feed.NewAtomWriter(os.Stdout, formats.WriteOptions{
		Feed: formats.FeedInfo{Title: "Example Blog", ID: "https://blog.example.com/"},
	})
	w.Write(formats.Entry{Loc: "https://blog.example.com/caching/", LastMod: lastmod,
		Title: "Caching", Summary: "ETags & 304s."})
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <?xml version="1.0" encoding="UTF-8"?>
	// <feed xmlns="http://www.w3.org/2005/Atom">
	// <id>https://blog.example.com/</id>
	// <title>Example Blog</title>
	// <updated>2024-06-04T08:00:00+02:00</updated>
	// <link rel="alternate" href="https://blog.example.com/"/>
	// <author><name>blog.example.com</name></author>
	// <entry>
	// <id>https://blog.example.com/caching/</id>
	// <title>Caching</title>
	// <updated>2024-06-04T08:00:00+02:00</updated>
	// <link rel="alternate" href="https://blog.example.com/caching/"/>
	// <summary type="text">ETags &amp; 304s.</summary>
	// </entry>
	// </feed>
}
