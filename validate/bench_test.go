package validate

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// benchSitemap returns a sitemap of n URLs with every core field, and an
// image on every tenth.
func benchSitemap(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` + "\n")
	for i := range n {
		fmt.Fprintf(&b, "<url><loc>https://example.com/blog/%d/a-post-about-%d</loc><lastmod>2025-05-%02dT10:00:00+02:00</lastmod><changefreq>weekly</changefreq><priority>0.5</priority>", i, i, i%28+1)
		if i%10 == 0 {
			fmt.Fprintf(&b, "<image:image><image:loc>https://example.com/img/%d.jpg</image:loc></image:image>", i)
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func BenchmarkCheckSitemap(b *testing.B) {
	doc := benchSitemap(formats.MaxURLs)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		v := New(Options{Now: testNow})
		if err := v.Check(bytes.NewReader(doc), Source{Name: "bench.xml"}, func(f Finding) { b.Fatal(f) }); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckText(b *testing.B) {
	var doc bytes.Buffer
	for i := range formats.MaxURLs {
		fmt.Fprintf(&doc, "https://example.com/blog/%d/a-post-about-%d\n", i, i)
	}
	b.SetBytes(int64(doc.Len()))
	b.ReportAllocs()
	for b.Loop() {
		v := New(Options{Now: testNow})
		if err := v.Check(bytes.NewReader(doc.Bytes()), Source{Name: "bench.txt"}, func(f Finding) { b.Fatal(f) }); err != nil {
			b.Fatal(err)
		}
	}
}
