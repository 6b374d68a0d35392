package text_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

// read reads a text sitemap through formats.Open and returns the locs and
// the warnings.
func read(t *testing.T, in []byte, strict bool) ([]string, []string, error) {
	t.Helper()
	var warnings []string
	r, f, err := formats.Open(bytes.NewReader(in), formats.OpenOptions{From: "text", ReadOptions: formats.ReadOptions{
		Source: "urls.txt",
		Strict: strict,
		Warn:   func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) },
	}})
	if err != nil {
		return nil, warnings, err
	}
	require.Equal(t, text.Format, f)
	var locs []string
	for e, err := range formats.All(r) {
		if err != nil {
			return locs, warnings, err
		}
		require.Equal(t, formats.KindURL, e.Kind)
		locs = append(locs, e.Loc)
	}
	return locs, warnings, nil
}

func TestReader(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []string
		warnings []string
	}{
		{"lf", "https://a.example/1\nhttps://a.example/2\n", []string{"https://a.example/1", "https://a.example/2"}, nil},
		{"no final newline", "https://a.example/1\nhttps://a.example/2", []string{"https://a.example/1", "https://a.example/2"}, nil},
		{"crlf", "https://a.example/1\r\nhttps://a.example/2\r\n", []string{"https://a.example/1", "https://a.example/2"}, nil},
		{"bom", "\ufeffhttps://a.example/1\n", []string{"https://a.example/1"}, nil},
		{"blank lines, comments and spaces", "\n# urls\n  https://a.example/1  \n\t\n#https://a.example/no\nhttps://a.example/2\t\n", []string{"https://a.example/1", "https://a.example/2"}, nil},
		{"raw ampersand kept", "http://www.example.com/catalog?item=12&desc=vacation_hawaii\n", []string{"http://www.example.com/catalog?item=12&desc=vacation_hawaii"}, nil},
		{"non-ascii encoded", "https://a.example/café\n", []string{"https://a.example/caf%C3%A9"}, nil},
		{"bad lines skipped by number", "https://a.example/1\n/relative\nftp://a.example/f\nhttps://a.example/2 https://a.example/3\nhttps://a.example/4\n",
			[]string{"https://a.example/1", "https://a.example/4"},
			[]string{
				`urls.txt:2:1: relative URL with no http(s) base to resolve it against: "/relative"`,
				`urls.txt:3:1: not an http or https URL: "ftp://a.example/f"`,
				`urls.txt:4:1: several URLs run together: "https://a.example/2 https://a.example/3"`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			locs, warnings, err := read(t, []byte(tt.in), false)
			require.NoError(t, err)
			assert.Equal(t, tt.want, locs)
			assert.Equal(t, tt.warnings, warnings)
		})
	}
}

func TestReaderStrict(t *testing.T) {
	locs, _, err := read(t, []byte("https://a.example/1\nnope\nhttps://a.example/2\n"), true)
	var pe *formats.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, 2, pe.Line)
	assert.Equal(t, []string{"https://a.example/1"}, locs)
}

// TestStrictTooManyURLs reads a list of 50,001 URL lines, one of them
// invalid, among comments and blank lines: strict reading stops at the
// URL line past the protocol's limit (valid or not, as validate's
// too-many-urls counts them), with an error that names the limit; lenient
// reading reads them all, without a warning of its own (convert counts
// what it reads).
func TestStrictTooManyURLs(t *testing.T) {
	var b strings.Builder
	b.WriteString("# a list\n\n")
	for i := range formats.MaxURLs {
		fmt.Fprintf(&b, "https://a.example/%d\n", i)
		if i == 10 {
			b.WriteString("# a comment\n\n")
		}
	}
	atLimit := b.String()
	locs, _, err := read(t, []byte(atLimit), true)
	require.NoError(t, err, "50,000 URLs are within the limit")
	assert.Equal(t, formats.MaxURLs, len(locs))

	for _, last := range []string{"https://a.example/last\n", "nope\n"} {
		locs, _, err = read(t, []byte(atLimit+last), true)
		var pe *formats.ParseError
		require.ErrorAs(t, err, &pe, last)
		assert.Equal(t, "urls.txt: more than 50000 entries: over the protocol's limit for one file", pe.Error())
		assert.Equal(t, formats.MaxURLs, len(locs), "the entries before it are read")

		locs, warnings, err := read(t, []byte(atLimit+last), false)
		require.NoError(t, err)
		assert.Equal(t, formats.MaxURLs+1-len(warnings), len(locs), last)
		assert.Len(t, warnings, strings.Count(last, "nope"))
	}
}

func TestReaderLongLine(t *testing.T) {
	in := "https://a.example/1\nhttps://a.example/" + strings.Repeat("x", 1<<20) + "\nhttps://a.example/2\n"
	locs, warnings, err := read(t, []byte(in), false)
	require.NoError(t, err)
	assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, locs)
	assert.Equal(t, []string{"urls.txt:2:1: line longer than 16 KiB skipped"}, warnings)

	// The same at the very end, with no newline.
	locs, warnings, err = read(t, []byte("https://a.example/1\nhttps://a.example/"+strings.Repeat("x", 1<<20)), false)
	require.NoError(t, err)
	assert.Equal(t, []string{"https://a.example/1"}, locs)
	assert.Len(t, warnings, 1)
}

// TestReaderLineEndings reads a list whose lines end with CR only (old Mac
// exports), or with a mix of endings: every URL is found, and the warnings
// name the right lines, over-long line included.
func TestReaderLineEndings(t *testing.T) {
	long := "https://a.example/" + strings.Repeat("x", 100<<10)
	for _, eol := range []string{"\r", "\n", "\r\n"} {
		lines := []string{"# list", "https://a.example/1", "nope", long, "", "https://a.example/2"}
		in := []byte(strings.Join(lines, eol) + eol)
		for _, from := range []string{"", "text"} {
			var warnings []string
			r, f, err := formats.Open(bytes.NewReader(in), formats.OpenOptions{From: from, ReadOptions: formats.ReadOptions{
				Source: "urls.txt", Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }}})
			require.NoError(t, err)
			require.Equal(t, text.Format, f, "detected by content")
			var locs []string
			for e, err := range formats.All(r) {
				require.NoError(t, err)
				locs = append(locs, e.Loc)
			}
			assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, locs, "ending %q", eol)
			assert.Equal(t, []string{
				`urls.txt:3:1: relative URL with no http(s) base to resolve it against: "nope"`,
				"urls.txt:4:1: line longer than 16 KiB skipped",
			}, warnings, "ending %q", eol)
		}
	}
	// Mixed endings count one line per ending, CRLF being one.
	locs, warnings, err := read(t, []byte("https://a.example/1\r\rnope\r\n\nhttps://a.example/2\n\rnope\r"), false)
	require.NoError(t, err)
	assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, locs)
	assert.Equal(t, []string{
		`urls.txt:3:1: relative URL with no http(s) base to resolve it against: "nope"`,
		`urls.txt:7:1: relative URL with no http(s) base to resolve it against: "nope"`,
	}, warnings)
}

func TestReaderReadError(t *testing.T) {
	r := text.NewReader(io.MultiReader(strings.NewReader("https://a.example/1\nhttps://a.example/tru"), errReader{}), formats.ReadOptions{Source: "x"})
	e, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "https://a.example/1", e.Loc)
	_, err = r.Next()
	assert.EqualError(t, err, "x:2: disk on fire", "a line cut short by the error is not returned")
	_, err = r.Next()
	assert.EqualError(t, err, "x:2: disk on fire", "the error sticks")
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("disk on fire") }

func TestWriter(t *testing.T) {
	var buf bytes.Buffer
	w := text.NewWriter(&buf)
	require.NoError(t, w.Write(formats.Entry{Loc: "https://a.example/1"}))
	require.NoError(t, w.Write(formats.Entry{Loc: "https://a.example/2?a=1&b=2", Priority: mustPriority(0.4)}))
	require.NoError(t, w.Close())
	assert.Equal(t, "https://a.example/1\nhttps://a.example/2?a=1&b=2\n", buf.String())
}

func mustPriority(v float64) formats.Priority {
	p, _ := formats.NewPriority(v)
	return p
}

func TestRoundTrip(t *testing.T) {
	var entries []formats.Entry
	for i := range 100 {
		entries = append(entries, formats.Entry{Loc: fmt.Sprintf("https://a.example/page/%d?q=%d&r=ü", i, i)})
	}
	for i := range entries {
		entries[i].Loc, _ = formats.ParseLoc(entries[i].Loc, nil)
	}
	_, back := conformance.RoundTrip(t, text.Format, entries, formats.WriteOptions{})
	assert.Equal(t, entries, back)
}

// TestCorpus reads the corpus's text lists and checks the golden output of
// reading and writing them. A list over the protocol's 50,000 URLs is read
// without strict mode, and must give no warning: strict reading stops past
// the limit (TestStrictTooManyURLs).
func TestCorpus(t *testing.T) {
	for name, want := range map[string]int{
		"crawlercommons__sitemap.txt":          2,
		"crawlercommons__sitemap-with-bom.txt": 2,
		"crawlercommons__do-not-visit.txt":     1,
		"crawlercommons__sitemap.txt.gz":       5,
		"sitemapjs__cli-urls.txt":              2,
		"sitemapjs__cli-urls-2.txt":            2,
		"sitemapjs__short-list.txt":            1000,
		"sitemapjs__medium-list.txt.gz":        100000,
	} {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(filepath.Join(corpus.Dir(t), name))
			require.NoError(t, err)
			opts := formats.ReadOptions{Source: name, Strict: want <= formats.MaxURLs,
				Warn: func(pe *formats.ParseError) { t.Errorf("warning: %v", pe) }}
			r, f, err := formats.Open(bytes.NewReader(in), formats.OpenOptions{ReadOptions: opts})
			require.NoError(t, err)
			require.Equal(t, text.Format, f, "recognized by content")
			var out bytes.Buffer
			w := text.NewWriter(&out)
			n := 0
			for e, err := range formats.All(r) {
				require.NoError(t, err)
				require.NoError(t, w.Write(e))
				n++
			}
			require.NoError(t, w.Close())
			assert.Equal(t, want, n)
			if n <= 1000 {
				golden.Check(t, filepath.Join("testdata", "golden", name+".out"), out.Bytes())
			}
		})
	}
}

func FuzzReader(f *testing.F) {
	for _, name := range []string{"crawlercommons__sitemap.txt", "crawlercommons__sitemap-with-bom.txt", "sitemapjs__cli-urls.txt"} {
		b, err := os.ReadFile(filepath.Join(corpus.Dir(f), name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("https://a.example/\r\n#c\n\n /x \nhttps://b.example/é\x00\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, strict := range []bool{false, true} {
			r := text.NewReader(bytes.NewReader(in), formats.ReadOptions{Source: "fuzz", Strict: strict})
			for i := 0; ; i++ {
				e, err := r.Next()
				if err != nil {
					break
				}
				if !strings.HasPrefix(e.Loc, "http://") && !strings.HasPrefix(e.Loc, "https://") {
					t.Fatalf("entry %d: %q is not an http(s) URL", i, e.Loc)
				}
				if i > len(in) {
					t.Fatal("more entries than input bytes")
				}
			}
		}
	})
}

func BenchmarkReader(b *testing.B) {
	var in bytes.Buffer
	for i := range 100000 {
		fmt.Fprintf(&in, "https://www.example.com/section/%d/article-%d.html\n", i%100, i)
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	for b.Loop() {
		r := text.NewReader(bytes.NewReader(in.Bytes()), formats.ReadOptions{})
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}

func BenchmarkWriter(b *testing.B) {
	e := formats.Entry{Loc: "https://www.example.com/section/42/article-123456.html"}
	b.SetBytes(int64(len(e.Loc) + 1))
	b.ReportAllocs()
	w := text.NewWriter(io.Discard)
	for b.Loop() {
		w.Write(e)
	}
	w.Close()
}
