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

// extensionBenchEntries returns 5,000 extension-heavy entries: each with
// three images and ten hreflang alternates.
func extensionBenchEntries() []formats.Entry {
	entries := make([]formats.Entry, 5000)
	for i := range entries {
		x := &formats.Extensions{}
		for j := range 3 {
			x.Images = append(x.Images, formats.Image{Loc: fmt.Sprintf("https://img.example.com/%d/%d.jpg", i, j)})
		}
		for _, l := range []string{"en", "de", "fr", "es", "it", "nl", "pt", "pl", "sv", "x-default"} {
			x.Alternates = append(x.Alternates, formats.Alternate{Hreflang: l, Href: fmt.Sprintf("https://www.example.com/%s/articles/%d", l, i)})
		}
		entries[i] = formats.Entry{Loc: fmt.Sprintf("https://www.example.com/en/articles/%d", i), Ext: x}
	}
	return entries
}

// BenchmarkReaderExtensions reads a sitemap of extension-heavy entries.
func BenchmarkReaderExtensions(b *testing.B) {
	entries := extensionBenchEntries()
	o := formats.WriteOptions{Uses: formats.ExtImage | formats.ExtAlternates}
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, o)
	for _, e := range entries {
		if err := w.Write(e); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	doc := buf.Bytes()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		r := xml.NewReader(bytes.NewReader(doc), formats.ReadOptions{})
		n := 0
		for e, err := range formats.All(r) {
			if err != nil {
				b.Fatal(err)
			}
			if len(e.Ext.Alternates) != 10 {
				b.Fatal("alternates lost")
			}
			n++
		}
		if n != len(entries) {
			b.Fatalf("read %d entries", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/url")
}

// BenchmarkWriterExtensions writes a sitemap of extension-heavy entries.
func BenchmarkWriterExtensions(b *testing.B) {
	entries := extensionBenchEntries()
	o := formats.WriteOptions{Uses: formats.ExtImage | formats.ExtAlternates}
	size := int64(xml.HeaderSize(o) + xml.FooterSize(o))
	for _, e := range entries {
		size += int64(xml.EntrySize(e))
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		w := xml.NewWriter(io.Discard, o)
		for _, e := range entries {
			if err := w.Write(e); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/url")
}
