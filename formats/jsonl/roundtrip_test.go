package jsonl_test

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/jsonl"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
)

// doc is what a reader gave of one input.
type doc struct {
	format   *formats.Format
	entries  []formats.Entry
	head     []string
	warnings []*formats.ParseError
	err      error
}

// read reads b through formats.Open.
func read(t testing.TB, b []byte, opts formats.ReadOptions) doc {
	t.Helper()
	var d doc
	opts.Warn = func(pe *formats.ParseError) { d.warnings = append(d.warnings, pe) }
	r, f, err := formats.Open(bytes.NewReader(b), formats.OpenOptions{ReadOptions: opts})
	if err != nil {
		d.err = err
		return d
	}
	d.format = f
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			d.err = err
			break
		}
		d.entries = append(d.entries, e)
	}
	if h, ok := r.(formats.ExtraReader); ok {
		d.head = h.Head()
	}
	return d
}

// write writes entries in format f.
func write(t testing.TB, f *formats.Format, entries []formats.Entry, o formats.WriteOptions) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := f.NewWriter(&buf, o)
	for _, e := range entries {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// xmlOptions are the options XML is written with for the entries of a
// document: the extensions they use, its head, and an index when its root
// is one.
func xmlOptions(raw []byte, d doc) formats.WriteOptions {
	o := formats.WriteOptions{Head: d.head}
	for _, e := range d.entries {
		o.Uses |= e.Ext.Uses()
	}
	s := sniff.Of(raw)
	o.Index = s.Root == "sitemapindex" || len(d.entries) > 0 && d.entries[0].Kind == formats.KindSitemap
	return o
}

// checkRoundTrip checks that XML read, written as JSON Lines, read back
// strictly and written as XML gives the bytes XML written directly gives.
func checkRoundTrip(t *testing.T, raw []byte) {
	direct := read(t, raw, formats.ReadOptions{Source: t.Name()})
	if direct.format != xml.Format {
		t.Skipf("not read as an XML sitemap (%v)", direct.err)
	}
	o := xmlOptions(raw, direct)
	want := write(t, xml.Format, direct.entries, o)

	lines := write(t, jsonl.Format, direct.entries, formats.WriteOptions{Head: direct.head})
	if len(lines) == 0 {
		require.Empty(t, direct.entries)
		return // an empty document: nothing to read back
	}
	back := read(t, lines, formats.ReadOptions{Source: "back.jsonl", Strict: true})
	require.NoError(t, back.err)
	require.Same(t, jsonl.Format, back.format)
	require.Empty(t, back.warnings)
	require.Len(t, back.entries, len(direct.entries))
	assert.Equal(t, direct.head, back.head)
	for i := range direct.entries {
		// The lines hold every field, dates at their precision and with
		// their offset; Equal says the instants are the same.
		assert.Equal(t, string(line(t, direct.entries[i])), string(line(t, back.entries[i])))
		assert.True(t, direct.entries[i].LastMod.Equal(back.entries[i].LastMod), "entry %d: lastmod", i)
	}
	got := write(t, xml.Format, back.entries, xmlOptions(raw, back))
	assert.Equal(t, string(want), string(got), "XML -> jsonl -> XML differs from XML -> XML")

	// Writing the entries read back as JSON Lines gives the same lines.
	assert.Equal(t, string(lines), string(write(t, jsonl.Format, back.entries, formats.WriteOptions{Head: back.head})))
}

// line is the line the format writes for e.
func line(t testing.TB, e formats.Entry) string {
	b, err := jsonl.NewEncoder(formats.WriteOptions{}).AppendEntry(nil, &e)
	require.NoError(t, err)
	return string(b)
}

// xmlFiles returns the XML files under dir, gzipped ones included, leaving
// out fuzz corpora.
func xmlFiles(t *testing.T, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "fuzz" {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".xml") || strings.HasSuffix(path, ".gz")) {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	return files
}

func runFiles(t *testing.T, files []string) {
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			raw, err := os.ReadFile(path)
			require.NoError(t, err)
			checkRoundTrip(t, raw)
		})
	}
}

// TestRoundTripXMLTestdata runs every XML input and golden of the XML
// format's tests through JSON Lines.
func TestRoundTripXMLTestdata(t *testing.T) {
	files := xmlFiles(t, filepath.Join("..", "xml", "testdata"))
	require.NotEmpty(t, files)
	runFiles(t, files)
}

// TestRoundTripCorpus runs the XML sitemaps of the project's corpus (those
// the XML format's tests read) through JSON Lines.
func TestRoundTripCorpus(t *testing.T) {
	var files []string
	for _, c := range corpus.Load(t, "urlset", "sitemapindex", "gz-urlset") {
		files = append(files, c.Path)
	}
	require.NotEmpty(t, files)
	runFiles(t, files)
}

// TestRoundTripSharedCorpus runs the XML files of ../shared/corpus through
// JSON Lines, when it is there.
func TestRoundTripSharedCorpus(t *testing.T) {
	dir := filepath.Join(testenv.RepoRoot(t), "..", "shared", "corpus")
	if _, err := os.Stat(dir); err != nil {
		testenv.Skip(t, "../shared/corpus is absent: the shared corpus's XML files are not run through JSON Lines")
	}
	runFiles(t, xmlFiles(t, dir))
}
