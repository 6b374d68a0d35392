package output_test

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// heapWithParts writes n one-entry parts and returns the live heap just
// before Close, when every part but the last is finished.
func heapWithParts(t *testing.T, n int) uint64 {
	t.Helper()
	dir := t.TempDir()
	s, err := output.New(output.Options{Path: dir + "/sitemap.xml", Format: xml.Format,
		BaseURL: base(t, "https://example.com/"), MaxURLs: 1})
	require.NoError(t, err)
	defer s.Abort()
	for _, e := range pages(n, false) {
		require.NoError(t, s.Write(e))
	}
	return liveHeap()
}

// liveHeap returns the bytes of the heap that are live.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestMemoryFlatInParts holds the memory a finished part keeps to a small
// fraction of the 64 KiB writer buffer it had while written: the heap may
// not grow with the number of parts by more than a few KiB a part. (Every
// finished part kept its buffer: 640 parts held 40 MiB.)
func TestMemoryFlatInParts(t *testing.T) {
	few := heapWithParts(t, 40)
	many := heapWithParts(t, 640)
	perPart := (int64(many) - int64(few)) / 600
	t.Logf("heap: %d KiB with 40 parts, %d KiB with 640: %d bytes a part", few>>10, many>>10, perPart)
	require.Less(t, perPart, int64(8<<10), "each finished part keeps %d bytes; its writer's buffer was 64 KiB", perPart)
}

// gzippedSet writes entries as a gzipped split set with GOMAXPROCS set to
// procs and returns each file's bytes by name.
func gzippedSet(t *testing.T, procs int, entries []formats.Entry) map[string][]byte {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	files, _ := setFiles(t, output.Options{Path: filepath.Join(t.TempDir(), "sitemap.xml"), Format: xml.Format, Gzip: true,
		MaxURLs: 5000, BaseURL: base(t, "https://example.com/")}, entries)
	return files
}

// Parts are compressed in parallel, each by a compressor of its own: the
// files are the same bytes as when one core compresses them one after
// another.
func TestParallelGzipSameBytes(t *testing.T) {
	entries := pages(40000, true)
	one := gzippedSet(t, 1, entries)
	many := gzippedSet(t, 4, entries)
	require.Len(t, one, 9, "8 parts and the index")
	require.Equal(t, one, many)
}
