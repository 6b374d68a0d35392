package output_test

import (
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// gunzip decompresses b with Go's gzip reader and with klauspost's, which
// must agree, and with gzip -t when it is installed.
func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := stdgzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	zr.Multistream(false)
	got, err := io.ReadAll(zr)
	require.NoError(t, err)
	rest, err := io.ReadAll(zr)
	require.NoError(t, err)
	require.Empty(t, rest, "one gzip member")
	kr, err := kgzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	k, err := io.ReadAll(kr)
	require.NoError(t, err)
	require.Equal(t, got, k, "klauspost's reader reads the same")
	if gz, err := exec.LookPath("gzip"); err == nil {
		cmd := exec.Command(gz, "-t")
		cmd.Stdin = bytes.NewReader(b)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "gzip -t: %s", out)
	}
	return got
}

// sitemapText returns n bytes of sitemap-like XML, which compresses as a
// part does, with noise: a random stretch now and then, which does not.
func sitemapText(rng *rand.Rand, n int, noise bool) []byte {
	var b bytes.Buffer
	for b.Len() < n {
		if noise && rng.IntN(50) == 0 {
			for range rng.IntN(3000) {
				b.WriteByte(byte(rng.Uint32()))
			}
			continue
		}
		fmt.Fprintf(&b, "<url><loc>https://www.example.com/articles/%d/title-%x</loc></url>\n", rng.IntN(1e6), rng.Uint64())
	}
	return b.Bytes()[:n]
}

// The parallel gzipper writes one gzip member whatever the sizes of its
// chunks (empty, a few bytes, under and over the 32 KiB window, over a
// chunk), and it decompresses to their bytes.
func TestGzipChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sizes := range [][]int{
		nil,
		{0},
		{1},
		{5, 0, 7},
		{100, 200, 300, 40000, 3},
		{1 << 20, 1 << 20, 1 << 20, 12345},
		{20000, 20000, 20000, 1 << 20, 1, 33000, 1 << 20},
		{3 << 20},
	} {
		var chunks [][]byte
		var want []byte
		for _, n := range sizes {
			c := sitemapText(rng, n, true)
			chunks = append(chunks, c)
			want = append(want, c...)
		}
		var out bytes.Buffer
		require.NoError(t, output.Gzip(&out, chunks))
		got := gunzip(t, out.Bytes())
		require.Equal(t, len(want), len(got), "sizes %v", sizes)
		require.True(t, bytes.Equal(want, got), "sizes %v", sizes)
	}
}

// The bytes depend on the chunks only, not on how many cores deflate them.
func TestGzipSameBytesOnAnyCores(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var chunks [][]byte
	for range 6 {
		chunks = append(chunks, sitemapText(rng, 1<<20, true))
	}
	gz := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out bytes.Buffer
		require.NoError(t, output.Gzip(&out, chunks))
		return out.Bytes()
	}
	require.Equal(t, gz(1), gz(8))
}

// A write error stops the gzipper and is returned by its close.
func TestGzipWriteError(t *testing.T) {
	chunks := [][]byte{sitemapText(rand.New(rand.NewPCG(5, 6)), 1<<20, true), []byte("end")}
	for _, limit := range []int{0, 10, 200} {
		err := output.Gzip(&failingWriter{left: limit}, chunks)
		require.ErrorIs(t, err, errDiskFull, "failing after %d bytes", limit)
	}
}

var errDiskFull = fmt.Errorf("disk full")

// failingWriter takes left bytes, then fails.
type failingWriter struct{ left int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.left {
		n := w.left
		w.left = 0
		return n, errDiskFull
	}
	w.left -= len(p)
	return len(p), nil
}

// A set written gzipped holds, once decompressed, the bytes of the same set
// written plain, under the same names, for parts of one entry (one small
// chunk) and parts of several chunks; its index and parts read back
// through formats.Open.
func TestGzippedSetSameContentAsPlain(t *testing.T) {
	many := make([]formats.Entry, 90000)
	for i := range many {
		many[i] = formats.Entry{Loc: fmt.Sprintf("https://example.com/articles/%d/a-long-title-for-page-%d?from=feed", i/3, i)}
	}
	for _, c := range []struct {
		name    string
		entries []formats.Entry
		maxURLs int
		chunks  int // the least chunks of a part
	}{
		{"tiny parts", pages(3, true), 1, 1},
		{"parts of several chunks", many, 45000, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			set := func(gz bool) (map[string][]byte, string) {
				dir := t.TempDir()
				return setFiles(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, Gzip: gz,
					MaxURLs: c.maxURLs, BaseURL: base(t, "https://example.com/")}, c.entries)
			}
			plain, _ := set(false)
			gzipped, index := set(true)
			require.Len(t, gzipped, len(plain))
			for name, want := range plain {
				b, ok := gzipped[name+".gz"]
				require.True(t, ok, "%s.gz is written", name)
				got := gunzip(t, b)
				if name == "sitemap.xml" {
					// The index lists the parts by their names, with .gz.
					want = bytes.ReplaceAll(want, []byte(".xml</loc>"), []byte(".xml.gz</loc>"))
				}
				require.True(t, bytes.Equal(want, got), "%s: the same bytes once decompressed", name)
				if name != "sitemap.xml" {
					assert.GreaterOrEqual(t, len(want), (c.chunks-1)<<20+1, "%s spans %d chunks", name, c.chunks)
				}
			}

			// The index and its parts read back.
			var locs []string
			for _, e := range readEntries(t, index) {
				require.Equal(t, formats.KindSitemap, e.Kind)
				part := filepath.Join(filepath.Dir(index), e.Loc[strings.LastIndexByte(e.Loc, '/')+1:])
				for _, pe := range readEntries(t, part) {
					locs = append(locs, pe.Loc)
				}
			}
			require.Len(t, locs, len(c.entries))
			for i, e := range c.entries {
				require.Equal(t, e.Loc, locs[i])
			}
		})
	}
}

// FuzzGzipRoundTrip gzips data cut in chunks of the given sizes and reads
// it back.
func FuzzGzipRoundTrip(f *testing.F) {
	f.Add([]byte("<urlset><url><loc>https://example.com/</loc></url></urlset>"), uint16(7), uint16(0))
	f.Add(bytes.Repeat([]byte("abc"), 30000), uint16(40000), uint16(1))
	f.Fuzz(func(t *testing.T, data []byte, size, first uint16) {
		var chunks [][]byte
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := int(size)
			if i == 0 {
				n = int(first)
			}
			n = min(max(n, 1), len(rest))
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
		}
		var out bytes.Buffer
		require.NoError(t, output.Gzip(&out, chunks))
		zr, err := stdgzip.NewReader(&out)
		require.NoError(t, err)
		got, err := io.ReadAll(zr)
		require.NoError(t, err)
		require.True(t, bytes.Equal(data, got))
	})
}

// setFiles writes entries as a set and returns each file's bytes by name,
// and the path of the sitemap or index.
func setFiles(t *testing.T, opts output.Options, entries []formats.Entry) (map[string][]byte, string) {
	t.Helper()
	s, err := write(t, opts, entries)
	require.NoError(t, err)
	files := map[string][]byte{}
	for _, f := range s.Files() {
		b, err := os.ReadFile(f.Path)
		require.NoError(t, err)
		files[filepath.Base(f.Path)] = b
	}
	return files, s.Path()
}

// BenchmarkGzip gzips 8 MiB of sitemap text as a part is gzipped, and
// reports the size against Go's gzip at level 6 (gzip -6's level).
func BenchmarkGzip(b *testing.B) {
	text := sitemapText(rand.New(rand.NewPCG(7, 8)), 8<<20, false)
	var chunks [][]byte
	for c := text; len(c) > 0; c = c[min(len(c), 1<<20):] {
		chunks = append(chunks, c[:min(len(c), 1<<20)])
	}
	var ref bytes.Buffer
	zw, err := stdgzip.NewWriterLevel(&ref, 6)
	require.NoError(b, err)
	_, err = zw.Write(text)
	require.NoError(b, err)
	require.NoError(b, zw.Close())
	var out bytes.Buffer
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		out.Reset()
		if err := output.Gzip(&out, chunks); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.Len())/float64(ref.Len()), "size/gzip-6")
}

// A gzipped Stream is, once decompressed, the plain Stream's bytes, held or
// not, for a tiny document and one of several chunks.
func TestStreamGzipSameContentAsPlain(t *testing.T) {
	many := make([]formats.Entry, 40000)
	for i := range many {
		many[i] = formats.Entry{Loc: fmt.Sprintf("https://example.com/articles/%d/a-long-title-for-page-%d?from=feed", i/3, i)}
	}
	stream := func(entries []formats.Entry, gz, hold bool) []byte {
		var out bytes.Buffer
		s, err := output.NewStream(&out, output.StreamOptions{Format: xml.Format, Gzip: gz, Hold: hold})
		require.NoError(t, err)
		defer s.Abort()
		for _, e := range entries {
			require.NoError(t, s.Write(e))
		}
		require.NoError(t, s.Close())
		require.NoError(t, s.Commit())
		return out.Bytes()
	}
	for _, entries := range [][]formats.Entry{pages(1, false), many} {
		want := stream(entries, false, false)
		for _, hold := range []bool{false, true} {
			got := gunzip(t, stream(entries, true, hold))
			require.True(t, bytes.Equal(want, got), "%d entries, hold %v", len(entries), hold)
		}
	}
	require.Greater(t, len(stream(many, false, false)), 3<<20, "several chunks")
}

// A gzipped Stream whose writer fails returns the error from Write once
// the failed chunk is written, and from Close; Abort after a failure ends
// it too.
func TestStreamGzipWriteError(t *testing.T) {
	s, err := output.NewStream(&failingWriter{left: 100}, output.StreamOptions{Format: xml.Format, Gzip: true})
	require.NoError(t, err)
	var werr error
	for i := 0; werr == nil && i < 1e6; i++ {
		werr = s.Write(formats.Entry{Loc: fmt.Sprintf("https://example.com/page/%d", i)})
	}
	require.ErrorIs(t, werr, errDiskFull, "Write fails before the end")
	require.ErrorIs(t, s.Close(), errDiskFull)
	s.Abort()

	goroutines := runtime.NumGoroutine()
	s, err = output.NewStream(&failingWriter{left: 0}, output.StreamOptions{Format: xml.Format, Gzip: true})
	require.NoError(t, err)
	require.NoError(t, s.Write(formats.Entry{Loc: "https://example.com/"}))
	s.Abort() // without Close: its goroutine ends
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > goroutines; {
		require.True(t, time.Now().Before(deadline), "%d goroutines, %d before", runtime.NumGoroutine(), goroutines)
		time.Sleep(time.Millisecond)
	}
}
