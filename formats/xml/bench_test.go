package xml_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

const benchURLs = 50_000

// benchEntries returns benchURLs typical entries.
func benchEntries(b testing.TB) []formats.Entry {
	lm, err := formats.ParseLastMod("2024-05-08T10:11:12+02:00")
	if err != nil {
		b.Fatal(err)
	}
	p, _ := formats.NewPriority(0.8)
	entries := make([]formats.Entry, benchURLs)
	for i := range entries {
		entries[i] = formats.Entry{Loc: fmt.Sprintf("https://www.example.com/articles/%d/some-article-title?ref=sitemap&page=%d", i, i%7),
			LastMod: lm, ChangeFreq: formats.Weekly, Priority: p}
	}
	return entries
}

// BenchmarkReader reads a 50,000-URL sitemap with every field on the fast
// path and on the general path (encoding/xml), reporting ns/url.
func BenchmarkReader(b *testing.B) {
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{})
	for _, e := range benchEntries(b) {
		if err := w.Write(e); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	doc := buf.Bytes()
	for _, path := range []struct {
		name      string
		newReader func(io.Reader, formats.ReadOptions) *xml.Reader
	}{
		{"fast", xml.NewReader},
		{"general", xml.NewGeneralReader},
	} {
		b.Run(path.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				r := path.newReader(bytes.NewReader(doc), formats.ReadOptions{})
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
				if n != benchURLs {
					b.Fatalf("read %d entries", n)
				}
				if path.name == "fast" && r.Path() != "fast" {
					b.Fatalf("read on the %s path", r.Path())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchURLs), "ns/url")
		})
	}
}

func BenchmarkWriter(b *testing.B) {
	entries := benchEntries(b)
	size := int64(xml.HeaderSize(formats.WriteOptions{}) + xml.FooterSize(formats.WriteOptions{}))
	for _, e := range entries {
		size += int64(xml.EntrySize(e))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		w := xml.NewWriter(io.Discard, formats.WriteOptions{})
		for _, e := range entries {
			if err := w.Write(e); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchURLs), "ns/url")
}
