package formats_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
)

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func readAll(t *testing.T, in []byte, opts formats.OpenOptions) ([]string, *formats.Format, error) {
	t.Helper()
	if opts.Source == "" {
		opts.Source = "in"
	}
	r, f, err := formats.Open(bytes.NewReader(in), opts)
	if err != nil {
		return nil, nil, err
	}
	var locs []string
	for e, err := range formats.All(r) {
		if err != nil {
			return locs, f, err
		}
		locs = append(locs, e.Loc)
	}
	return locs, f, nil
}

func TestOpenGzipLayers(t *testing.T) {
	list := []byte("https://example.com/a\nhttps://example.com/b\n")
	for name, in := range map[string][]byte{
		"plain":  list,
		"gzip":   gz(list),
		"twice":  gz(gz(list)),
		"thrice": gz(gz(gz(list))),
	} {
		t.Run(name, func(t *testing.T) {
			locs, f, err := readAll(t, in, formats.OpenOptions{})
			require.NoError(t, err)
			assert.Equal(t, "text", f.Name)
			assert.Equal(t, []string{"https://example.com/a", "https://example.com/b"}, locs)
		})
	}
	_, _, err := readAll(t, gz(gz(gz(gz(list)))), formats.OpenOptions{})
	assert.ErrorContains(t, err, "gzip nested more than 3 deep")
}

func TestOpenBrokenGzip(t *testing.T) {
	var lines strings.Builder
	for i := range 5000 {
		lines.WriteString("https://example.com/page/")
		lines.WriteString(strings.Repeat("x", i%50))
		lines.WriteString("\n")
	}
	whole := gz([]byte(lines.String()))

	_, _, err := readAll(t, whole[:5], formats.OpenOptions{})
	assert.ErrorContains(t, err, "in: corrupt gzip data")

	locs, _, err := readAll(t, whole[:len(whole)/2], formats.OpenOptions{})
	require.Error(t, err, "a truncated stream is an error")
	assert.ErrorContains(t, err, "corrupt gzip data: unexpected EOF")
	var pe *formats.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Positive(t, pe.Line)
	assert.NotEmpty(t, locs, "entries before the damage are returned")

	bad := bytes.Clone(whole)
	bad[len(bad)-6] ^= 0xff // the CRC
	locs, _, err = readAll(t, bad, formats.OpenOptions{})
	assert.ErrorContains(t, err, "corrupt gzip data: gzip: invalid checksum")
	assert.Equal(t, 5000, len(locs), "the data is all there; the checksum fails at the end")

	locs, _, err = readAll(t, append(bytes.Clone(whole), "trailing garbage"...), formats.OpenOptions{})
	assert.ErrorContains(t, err, "corrupt gzip data")
	assert.Equal(t, 5000, len(locs))
}

func TestOpenUnusableInputs(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		is   error
		msg  string
	}{
		{"empty", nil, formats.ErrEmpty, "in: formats: empty input"},
		{"blank", []byte("\n\n  \n"), formats.ErrEmpty, "empty input"},
		{"empty gzip", gz(nil), formats.ErrEmpty, "empty input (empty gzip)"},
		{"html", []byte("<!DOCTYPE html>\n<html><body>Not found</body></html>"), formats.ErrUnknownFormat, "(looks like HTML)"},
		{"gzipped html", gz([]byte("<html><body>hi</body></html>")), formats.ErrUnknownFormat, "(looks like HTML)"},
		{"unrelated xml", []byte(`<?xml version="1.0"?><note><to>x</to></note>`), formats.ErrUnknownFormat, "(XML with root element <note>)"},
		{"unrelated json", []byte(`{"url": "https://example.com/"}`), formats.ErrUnknownFormat, "JSON that is not a JSON Feed"},
		{"prose", []byte("hello world\n"), formats.ErrUnknownFormat, `text whose first line is not a URL: "hello world"`},
		{"binary", []byte("\x89PNG\r\n\x1a\n\x00\x00"), formats.ErrUnknownFormat, "binary data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readAll(t, tt.in, formats.OpenOptions{})
			require.ErrorIs(t, err, tt.is)
			assert.ErrorContains(t, err, tt.msg)
			assert.True(t, strings.HasPrefix(err.Error(), "in: "), "the error names the input: %v", err)
		})
	}
}

func TestOpenFrom(t *testing.T) {
	// A list whose first line is not a URL is not recognized, but can be
	// read as text when asked; its bad line is then skipped with a warning.
	in := []byte("not a url\nhttps://example.com/\n")
	var warnings []string
	locs, f, err := readAll(t, in, formats.OpenOptions{From: "text", ReadOptions: formats.ReadOptions{
		Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) },
	}})
	require.NoError(t, err)
	assert.Equal(t, "text", f.Name)
	assert.Equal(t, []string{"https://example.com/"}, locs)
	assert.Equal(t, []string{`in:1:1: relative URL with no http(s) base to resolve it against: "not a url"`}, warnings)

	_, _, err = readAll(t, in, formats.OpenOptions{From: "nope"})
	assert.ErrorIs(t, err, formats.ErrNoFormat)
}

func TestOpenJunkBeforeDeclaration(t *testing.T) {
	// Text before <?xml is dropped with a warning; the document is then
	// recognized by its root (here an unrelated one, as no XML reader is
	// registered in this package's tests).
	var warnings []string
	_, _, err := readAll(t, []byte("Warning: x in y.php on line 3\n<?xml version=\"1.0\"?><note/>"), formats.OpenOptions{
		ReadOptions: formats.ReadOptions{Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }},
	})
	assert.ErrorContains(t, err, "root element <note>")
	assert.Equal(t, []string{"in:1:1: 30 bytes of text before the XML declaration ignored"}, warnings)
}

func TestRegistry(t *testing.T) {
	names := formats.Names()
	assert.IsNonDecreasing(t, names)
	assert.Contains(t, names, "text")
	assert.Contains(t, formats.ReaderNames(), "robots")
	assert.NotContains(t, formats.WriterNames(), "robots")
	assert.Equal(t, "text", formats.ForFileName("out/urls.TXT.gz").Name)
	assert.Nil(t, formats.ForFileName("sitemap"))
	assert.Panics(t, func() {
		formats.Register(&formats.Format{Name: "text", NewWriter: func(io.Writer, formats.WriteOptions) formats.Writer { return nil }})
	})
	assert.Panics(t, func() { formats.Register(&formats.Format{Name: "x"}) })
	assert.Panics(t, func() { formats.Register(nil) })
}
