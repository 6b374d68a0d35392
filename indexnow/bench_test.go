package indexnow_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

// BenchmarkState reads a state of 1,000,000 URLs and checks each against
// it, reporting the heap the read state holds per URL and the time of a
// check.
func BenchmarkState(b *testing.B) {
	const n = 1000000
	s := indexnow.NewState()
	locs := make([]string, n)
	for i := range locs {
		locs[i] = fmt.Sprintf("https://example.com/page/%d", i)
		s.Check(locs[i], "2026-11-20")
	}
	s.Done(locs, true)
	var file bytes.Buffer
	s.WriteTo(&file)
	s = nil

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	st, err := indexnow.ReadState(bytes.NewReader(file.Bytes()), "bench")
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if st.Check(locs[i%n], "2026-11-20") {
			b.Fatal("unchanged URL reported changed")
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/n, "heap-bytes/URL")
	b.ReportMetric(float64(file.Len())/n, "file-bytes/URL")
	runtime.KeepAlive(st)
}
