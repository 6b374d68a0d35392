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

// BenchmarkWriter writes 10,000 entries, each with a title, a summary, a
// lastmod and an image, as RSS and as Atom.
func BenchmarkWriter(b *testing.B) {
	lastmod, _ := formats.ParseLastMod("2024-06-04T08:00:00+02:00")
	entries := make([]formats.Entry, 10_000)
	for i := range entries {
		entries[i] = formats.Entry{Loc: fmt.Sprintf("https://example.com/posts/%d/", i), LastMod: lastmod,
			Title: fmt.Sprintf("Post number %d", i), Summary: "Some text about the post, with a <tag> & an ampersand.",
			Ext: &formats.Extensions{Images: []formats.Image{{Loc: fmt.Sprintf("https://example.com/img/%d.jpg", i)}}}}
	}
	for _, name := range []string{"rss", "atom"} {
		b.Run(name, func(b *testing.B) {
			f, err := formats.Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var n int64
			for b.Loop() {
				cw := &countWriter{}
				w := f.NewWriter(cw, formats.WriteOptions{Uses: formats.ExtImage})
				for _, e := range entries {
					if err := w.Write(e); err != nil {
						b.Fatal(err)
					}
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
				n = cw.n
			}
			b.SetBytes(n)
		})
	}
}

// countWriter counts what is written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
