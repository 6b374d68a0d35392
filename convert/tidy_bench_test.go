package convert_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// BenchmarkRunTidy reads a text list of 300,000 URLs (30% of them repeats)
// as the command does by default for a sitemap: each loc tidied
// (normalize.Safe) and deduplicated by its normal form, written as a list.
// Most URLs are already normal, as most sitemaps' are: the cost of the
// normal form, computed once or twice an URL, shows here.
func BenchmarkRunTidy(b *testing.B) {
	const n = 300000
	list := benchList(n, func(i, page int) string {
		if i%50 == 0 {
			return fmt.Sprintf("HTTPS://www.example.com:443/articles/./%d/some-title-of-the-page#top", page)
		}
		return fmt.Sprintf("https://www.example.com/articles/%d/some-title-of-the-page", page)
	})
	for b.Loop() {
		in := convert.Input{Name: "urls.txt", Open: func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(list)), nil
		}}
		_, err := convert.Run([]convert.Input{in}, func(o formats.WriteOptions) (formats.Writer, error) {
			return text.NewWriter(io.Discard), nil
		}, convert.Options{URLs: convert.RewriteOptions{Tidy: true, Normalize: &normalize.Options{}}, TempDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/url")
}
