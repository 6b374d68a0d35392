package convert

import (
	"io"
	"runtime"
	"strconv"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// generated yields n entries with distinct URLs of realistic length.
type generated struct {
	i, n int
	buf  []byte
}

func (g *generated) Next() (formats.Entry, error) {
	if g.i == g.n {
		return formats.Entry{}, io.EOF
	}
	g.buf = append(g.buf[:0], "https://www.example.com/blog/2024/"...)
	g.buf = strconv.AppendInt(g.buf, int64(g.i), 10)
	g.buf = append(g.buf, "/a-post-with-a-title.html"...)
	g.i++
	return formats.Entry{Loc: string(g.buf)}, nil
}

// BenchmarkDedupe measures dedupe of 1,000,000 and 10,000,000 distinct URLs:
// the time per URL, and the memory it holds per URL beyond streaming: the
// hash table at its largest, while it grows (outside the heap,
// table-B/url), and what the heap grew by (heap-B/url). Run with
// -benchtime 1x.
func BenchmarkDedupe(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			if testing.Short() && n > 1_000_000 {
				b.Skip("10,000,000 URLs take a while")
			}
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				m := newMerger(stream(&generated{n: n}), nil, nil, b.TempDir())
				e, err := m.Next() // reads everything into the spool and table
				if err != nil {
					b.Fatal(err)
				}
				tableBytes := m.table.peak
				runtime.GC()
				runtime.ReadMemStats(&after)
				heap := int64(after.HeapInuse) - int64(before.HeapInuse)
				count := 1
				for e.Loc != "" {
					if e, err = m.Next(); err == io.EOF {
						break
					}
					count++
				}
				m.Close()
				if count != n {
					b.Fatalf("%d entries out of %d", count, n)
				}
				b.ReportMetric(float64(tableBytes)/float64(n), "table-B/url")
				b.ReportMetric(float64(heap)/float64(n), "heap-B/url")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/url")
		})
	}
}
