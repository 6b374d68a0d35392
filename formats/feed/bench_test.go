package feed_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
)

// rss10k is an RSS 2.0 feed of 10,000 items, each with a link, a guid, a
// pubDate and a description.
func rss10k() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Bench</title><link>https://example.com/</link>` + "\n")
	for i := range 10_000 {
		fmt.Fprintf(&b, `<item><title>Post number %d</title><link>https://example.com/posts/%d/</link>`+
			`<guid isPermaLink="false">post-%d</guid><pubDate>Mon, 02 Jan 2006 15:04:05 +0000</pubDate>`+
			`<description>&lt;p&gt;Some text about post %d, with a &lt;a href="https://example.com/"&gt;link&lt;/a&gt;.&lt;/p&gt;</description></item>`+"\n", i, i, i, i)
	}
	b.WriteString("</channel></rss>\n")
	return b.Bytes()
}

func BenchmarkReader(b *testing.B) {
	data := rss10k()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r := feed.NewReader(bytes.NewReader(data), formats.ReadOptions{})
		n := 0
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 10_000 {
			b.Fatalf("%d entries", n)
		}
	}
}
