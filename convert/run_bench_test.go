package convert_test

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"slices"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// BenchmarkRunText turns a text list of 300,000 URLs (30% of them repeats
// of earlier ones) into a split XML sitemap index, deduping and keeping
// duplicates: the path of the default run, end to end.
func BenchmarkRunText(b *testing.B) {
	const n = 300000
	list := benchList(n, func(_, page int) string {
		return fmt.Sprintf("https://www.example.com/articles/%d/some-title-of-the-page", page)
	})
	base, err := url.Parse("https://www.example.com/")
	if err != nil {
		b.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		b.Run(fmt.Sprintf("keep-duplicates=%v", keep), func(b *testing.B) {
			dir := b.TempDir()
			for b.Loop() {
				in := convert.Input{Name: "urls.txt", Open: func() (io.ReadCloser, error) {
					return io.NopCloser(bytes.NewReader(list)), nil
				}}
				_, err := convert.Run([]convert.Input{in}, func(o formats.WriteOptions) (formats.Writer, error) {
					return output.New(output.Options{Path: dir + "/sitemap.xml", Format: xml.Format, BaseURL: base, MaxURLs: 20000, Write: o})
				}, convert.Options{KeepDuplicates: keep, TempDir: dir})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/url")
		})
	}
}

// BenchmarkRunTextSorted is BenchmarkRunText deduped with --sort loc,
// beside the same list unsorted: the sort finds the duplicates itself while
// every URL is its own normal form ("sorted"); one URL that is not, last,
// has the pages read before taken into a dedupe ("sorted,late-odd").
func BenchmarkRunTextSorted(b *testing.B) {
	const n = 300000
	list := benchList(n, func(_, page int) string {
		return fmt.Sprintf("https://www.example.com/articles/%d/some-title-of-the-page", page)
	})
	odd := append(slices.Clip(list), "https://www.example.com/%7eodd\n"...)
	base, err := url.Parse("https://www.example.com/")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		list []byte
		sort convert.Order
	}{{"unsorted", list, convert.SortNone}, {"sorted", list, convert.SortLoc}, {"sorted,late-odd", odd, convert.SortLoc}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			for b.Loop() {
				in := convert.Input{Name: "urls.txt", Open: func() (io.ReadCloser, error) {
					return io.NopCloser(bytes.NewReader(c.list)), nil
				}}
				_, err := convert.Run([]convert.Input{in}, func(o formats.WriteOptions) (formats.Writer, error) {
					return output.New(output.Options{Path: dir + "/sitemap.xml", Format: xml.Format, BaseURL: base, MaxURLs: 20000, Write: o})
				}, convert.Options{Sort: c.sort, TempDir: dir})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/url")
		})
	}
}

// benchList returns a text list of n URLs, 30% of them repeats of earlier
// ones, the i-th written by loc with the number of its page.
func benchList(n int, loc func(i, page int) string) []byte {
	var list bytes.Buffer
	for i := range n {
		page := i
		if i%10 < 3 {
			page = (i * 7919) % (i + 1) // an earlier page
		}
		list.WriteString(loc(i, page))
		list.WriteByte('\n')
	}
	return list.Bytes()
}
