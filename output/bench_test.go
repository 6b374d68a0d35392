package output_test

import (
	"fmt"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// BenchmarkSetWrite writes 200,000 plain URLs as a split XML set, parts of
// 20,000 entries, plain and gzipped: the write path of a text list turned
// into a sitemap index.
func BenchmarkSetWrite(b *testing.B) {
	const n = 200000
	entries := make([]formats.Entry, n)
	for i := range entries {
		entries[i] = formats.Entry{Loc: fmt.Sprintf("https://www.example.com/articles/%d/some-title-of-the-page?ref=feed&id=%d", i/7, i)}
	}
	for _, gz := range []bool{false, true} {
		b.Run(fmt.Sprintf("gzip=%v", gz), func(b *testing.B) {
			dir := b.TempDir()
			b.ReportAllocs()
			for b.Loop() {
				s, err := output.New(output.Options{Path: dir + "/sitemap.xml", Format: xml.Format, Gzip: gz,
					BaseURL: base(b, "https://www.example.com/"), MaxURLs: 20000})
				if err != nil {
					b.Fatal(err)
				}
				for _, e := range entries {
					if err := s.Write(e); err != nil {
						b.Fatal(err)
					}
				}
				if err := s.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/url")
		})
	}
}

// BenchmarkSectionsWrite writes 200,000 plain URLs by section, 50 sections
// interleaved (the first directory of their path), each section in parts
// of at most 20,000 entries: BenchmarkSetWrite's work, plus the grouping
// (16 MiB of entries in memory, the rest through the spool file).
func BenchmarkSectionsWrite(b *testing.B) {
	const n = 200000
	entries := make([]formats.Entry, n)
	for i := range entries {
		entries[i] = formats.Entry{Loc: fmt.Sprintf("https://www.example.com/section-%d/%d/some-title-of-the-page?ref=feed&id=%d", i%50, i/7, i)}
	}
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		s, err := output.New(output.Options{Path: dir + "/sitemap.xml", Format: xml.Format,
			BaseURL: base(b, "https://www.example.com/"), MaxURLs: 20000, SectionOf: output.ByPath(1)})
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range entries {
			if err := s.Write(e); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/url")
}
