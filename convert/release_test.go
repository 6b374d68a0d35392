package convert_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/csv"
	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
	"github.com/feed2sitemap/feed2sitemap/internal/crafted"
)

// localInputs writes the documents as files and returns them as local
// inputs, as the command names them.
func localInputs(t *testing.T, docs ...[]byte) []convert.Input {
	t.Helper()
	dir := t.TempDir()
	inputs := make([]convert.Input, len(docs))
	for i, doc := range docs {
		path := filepath.Join(dir, fmt.Sprintf("part-%d.xml.gz", i))
		require.NoError(t, os.WriteFile(path, doc, 0o644))
		inputs[i] = convert.Input{Name: path, Path: path, Open: func() (io.ReadCloser, error) { return os.Open(path) }}
	}
	return inputs
}

// smallSitemap returns a gzipped sitemap of n URLs, the first numbered
// first.
func smallSitemap(first, n int) []byte { return gz([]byte(sitemapOf(first, n))) }

// sitemapOf returns a sitemap of n URLs, the first numbered first.
func sitemapOf(first, n int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, "<url><loc>https://a.example/p%d</loc></url>\n", i)
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

// drainSource reads src to its end and returns the locs it gave.
func drainSource(t *testing.T, src *convert.Source) []string {
	t.Helper()
	var locs []string
	for {
		e, err := src.Next()
		if err == io.EOF {
			return locs
		}
		require.NoError(t, err)
		locs = append(locs, e.Loc)
	}
}

// Many inputs waiting for their turn hold no buffers: the heap Open
// leaves, and the peak of the reading, do not grow with their number.
func TestOpenManyInputsHeapBounded(t *testing.T) {
	const parts, per = 300, 20
	docs := make([][]byte, parts)
	for i := range docs {
		docs[i] = smallSitemap(i*per, per)
	}
	inputs := localInputs(t, docs...)

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	fds := openFiles()
	src, err := convert.Open(inputs, convert.ReadOptions{}, nil)
	require.NoError(t, err)
	if fds >= 0 {
		// Nor file descriptors: the waiting inputs are closed, so that
		// more inputs than the process may hold open can be read.
		assert.Less(t, openFiles()-fds, 8, "files open after opening %d inputs", parts)
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	held := int64(ms.HeapAlloc) - int64(before)
	// Some hundreds of KiB an input when each holds its reader: tens
	// of MiB for 300.
	assert.Less(t, held, int64(8<<20), "heap held after opening %d inputs", parts)
	locs := drainSource(t, src)
	require.NoError(t, src.Close())
	require.Len(t, locs, parts*per)
	for i, loc := range locs {
		require.Equal(t, fmt.Sprintf("https://a.example/p%d", i), loc)
	}
	stats := src.Inputs()
	require.Len(t, stats, parts)
	for _, st := range stats {
		assert.Equal(t, "xml", st.Format)
		assert.Equal(t, per, st.Read)
		assert.Zero(t, st.Warnings)
	}

	cost := crafted.Measure(1, func() {
		src, err := convert.Open(inputs, convert.ReadOptions{}, nil)
		require.NoError(t, err)
		assert.Len(t, drainSource(t, src), parts*per)
		src.Close()
	})
	// Some MiB, sampled: more under load, as the collector lags; about
	// 85 MiB when each input holds its reader until its turn.
	assert.Less(t, cost.Peak, uint64(48<<20), "peak heap reading %d inputs: %v", parts, cost)
}

// warnings records the warnings an Observer is told of.
type warnings struct{ got []string }

func (w *warnings) Warning(pe *formats.ParseError) { w.got = append(w.got, pe.Error()) }
func (w *warnings) Dropped(convert.Drop)           {}
func (w *warnings) Progressed(int)                 {}

// An input whose reader gave warnings when built is not opened again:
// its warnings are told once, in their place.
func TestOpenWarnedInputWarnsOnce(t *testing.T) {
	junk := gz([]byte("Warning: x in y.php on line 3\n" + sitemapOf(2, 2)))
	inputs := localInputs(t, smallSitemap(0, 2), junk, smallSitemap(4, 2))
	var w warnings
	src, err := convert.Open(inputs, convert.ReadOptions{}, &w)
	require.NoError(t, err)
	require.Len(t, w.got, 1)
	assert.Contains(t, w.got[0], "bytes of text before the XML declaration ignored")
	assert.Len(t, drainSource(t, src), 6)
	require.NoError(t, src.Close())
	assert.Len(t, w.got, 1)
	stats := src.Inputs()
	assert.Equal(t, []int{0, 1, 0}, []int{stats[0].Warnings, stats[1].Warnings, stats[2].Warnings})
}

// An input changed between its recognition and its turn fails the
// reading with an error that says so.
func TestOpenInputChangedBeforeItsTurn(t *testing.T) {
	for name, change := range map[string]func(path string) error{
		"rewritten": func(path string) error { return os.WriteFile(path, smallSitemap(0, 50), 0o644) },
		"removed":   os.Remove,
		"replaced": func(path string) error {
			if err := os.WriteFile(path+".new", smallSitemap(2, 2), 0o644); err != nil {
				return err
			}
			return os.Rename(path+".new", path)
		},
	} {
		t.Run(name, func(t *testing.T) {
			inputs := localInputs(t, smallSitemap(0, 2), smallSitemap(2, 2))
			src, err := convert.Open(inputs, convert.ReadOptions{}, nil)
			require.NoError(t, err)
			defer src.Close()
			require.NoError(t, change(inputs[1].Path))
			for range 2 {
				_, err := src.Next()
				require.NoError(t, err)
			}
			_, err = src.Next()
			require.Error(t, err)
			if name != "removed" {
				assert.EqualError(t, err, inputs[1].Name+": changed while the inputs before it were read; run again")
			}
		})
	}
}

// openFiles returns how many files the process holds open, or -1 where
// that is not known (no /proc).
func openFiles() int {
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(fds)
}

// Inputs of every readable format, each released once recognized and
// opened again at its turn, give what each gives read alone (where it is
// the first input, never released): the same entries, formats, counts and
// warnings, in order; a gzipped copy and a copy read from a stream (no
// Path, never released) among them.
func TestReleasedInputsOfEveryFormat(t *testing.T) {
	root := filepath.Join("..", "testdata")
	paths := []string{
		filepath.Join(root, "example", "sitemap.xml"),
		filepath.Join(root, "example", "blog.rss"),
		filepath.Join(root, "example", "sitemap.txt"),
		filepath.Join(root, "example", "crawl.csv"),
		filepath.Join(root, "merge", "news.rss"),
		filepath.Join(root, "corpus", "crawlercommons__atom.xml"),
		filepath.Join(root, "corpus", "feedparser__example.json"),
		filepath.Join(root, "corpus", "crawlercommons__sitemap-robots.txt"),
		filepath.Join("..", "formats", "feed", "testdata", "feeds", "atom_zoneless_dates.atom"),
	}
	var inputs []convert.Input
	for _, p := range paths {
		inputs = append(inputs, convert.Input{Name: p, Path: p, Open: func() (io.ReadCloser, error) { return os.Open(p) }})
	}
	data, err := os.ReadFile(paths[1])
	require.NoError(t, err)
	inputs = append(inputs, localInputs(t, gz(data))...)
	inputs = append(inputs, convert.Input{Name: "stream", Open: func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(sitemapOf(0, 3))), nil
	}})

	type read struct {
		entries  []formats.Entry
		stats    []convert.InputStats
		warnings []string
	}
	readAll := func(inputs []convert.Input) read {
		var w warnings
		src, err := convert.Open(inputs, convert.ReadOptions{}, &w)
		require.NoError(t, err)
		var r read
		for {
			e, err := src.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			r.entries = append(r.entries, e)
		}
		require.NoError(t, src.Close())
		r.stats, r.warnings = src.Inputs(), w.got
		return r
	}
	var alone read
	for _, in := range inputs {
		r := readAll([]convert.Input{in})
		alone.entries = append(alone.entries, r.entries...)
		alone.stats = append(alone.stats, r.stats...)
		alone.warnings = append(alone.warnings, r.warnings...)
	}
	together := readAll(inputs)
	assert.Equal(t, alone.entries, together.entries)
	assert.Equal(t, alone.stats, together.stats)
	assert.Equal(t, alone.warnings, together.warnings)
	formatsRead := map[string]bool{}
	for _, st := range together.stats {
		formatsRead[st.Format] = true
	}
	assert.Len(t, formatsRead, 5, "xml, feed, text, csv and robots: %v", formatsRead)
}

// Inputs read one after another give their readers' buffers to the next
// (formats.Release): those only recognized, waiting for their turn, and
// those read to their end, gzipped or not, XML or text, small or read
// ahead in many chunks, one damaged half-way. Every input reads its own
// entries, whole and in order. The tests run with bufpool.Check, which
// fills a buffer given back with poison, so that one read after it was
// given back shows.
func TestReleasedBuffersServeTheNextInput(t *testing.T) {
	text := func(first, n int) (string, []string) {
		var b strings.Builder
		locs := make([]string, n)
		for i := range locs {
			locs[i] = fmt.Sprintf("https://a.example/t%d", first+i)
			b.WriteString(locs[i] + "\n")
		}
		return b.String(), locs
	}
	sitemapLocs := func(first, n int) []string {
		locs := make([]string, n)
		for i := range locs {
			locs[i] = fmt.Sprintf("https://a.example/p%d", first+i)
		}
		return locs
	}
	given := bufpool.Given()
	for round := range 3 {
		base := round * 100000
		smallText, smallLocs := text(base+30000, 10)
		bigText, bigLocs := text(base+40000, 5000)
		damaged := gz([]byte(sitemapOf(base+60000, 6000)))
		damaged = damaged[:len(damaged)/2]
		docs := [][]byte{
			smallSitemap(base, 5),                // gzipped, small
			gz([]byte(sitemapOf(base+10, 4000))), // gzipped, read ahead
			[]byte(sitemapOf(base+20000, 3000)),  // plain
			[]byte(smallText),                    // a text list
			gz([]byte(bigText)),                  // gzipped, read ahead
			damaged,                              // gzip cut half-way
		}
		var want []string
		want = append(want, sitemapLocs(base, 5)...)
		want = append(want, sitemapLocs(base+10, 4000)...)
		want = append(want, sitemapLocs(base+20000, 3000)...)
		want = append(want, smallLocs...)
		want = append(want, bigLocs...)

		src, err := convert.Open(localInputs(t, docs...), convert.ReadOptions{}, nil)
		require.NoError(t, err)
		got := drainSource(t, src)
		require.NoError(t, src.Close())
		require.GreaterOrEqual(t, len(got), len(want), "round %d", round)
		require.Equal(t, want, got[:len(want)], "round %d", round)
		// The damaged input gives the entries before the damage.
		kept := got[len(want):]
		assert.Greater(t, len(kept), 1000, "round %d: entries kept of the damaged input", round)
		assert.Equal(t, sitemapLocs(base+60000, len(kept)), kept, "round %d", round)
	}
	assert.Greater(t, bufpool.Given(), given+50, "buffers given back")
}
