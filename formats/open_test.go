package formats_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strconv"
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
	var names, readers, writers []string
	for _, f := range formats.Formats() {
		names = append(names, f.Name)
		if f.CanRead() {
			readers = append(readers, f.Name)
		}
		if f.CanWrite() {
			writers = append(writers, f.Name)
		}
	}
	assert.IsNonDecreasing(t, names)
	assert.Contains(t, names, "text")
	assert.Contains(t, readers, "robots")
	assert.NotContains(t, writers, "robots")
	assert.Equal(t, "text", formats.ForFileName("out/urls.TXT.gz").Name)
	assert.Nil(t, formats.ForFileName("sitemap"))
	assert.Panics(t, func() {
		formats.Register(&formats.Format{Name: "text", NewWriter: func(io.Writer, formats.WriteOptions) formats.Writer { return nil }})
	})
	assert.Panics(t, func() { formats.Register(&formats.Format{Name: "x"}) })
	assert.Panics(t, func() { formats.Register(nil) })
}

func TestOpenMaxBytes(t *testing.T) {
	list := []byte(strings.Repeat("https://example.com/page\n", 1000)) // 25,000 bytes
	xmlDoc := []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + strings.Repeat("<url><loc>https://example.com/page</loc></url>\n", 600) + "</urlset>\n")
	robots := []byte("User-agent: *\nDisallow:\n" + strings.Repeat("Sitemap: https://example.com/s.xml\n", 800))
	feed, err := os.ReadFile("../testdata/example/blog.rss")
	require.NoError(t, err)
	for name, in := range map[string][]byte{
		"feed gzip":          gz(feed),
		"text":               list,
		"text gzip":          gz(list),
		"text gzip twice":    gz(gz(list)),
		"xml":                xmlDoc,
		"xml gzip":           gz(xmlDoc),
		"robots gzip thrice": gz(gz(gz(robots))),
	} {
		t.Run(name, func(t *testing.T) {
			size := int64(len(list))
			switch {
			case bytes.Equal(in, xmlDoc) || bytes.Equal(in, gz(xmlDoc)):
				size = int64(len(xmlDoc))
			case strings.HasPrefix(name, "robots"):
				size = int64(len(robots))
			case strings.HasPrefix(name, "feed"):
				size = int64(len(feed))
			}
			// Exactly at the cap: read whole.
			_, _, err := readAll(t, in, formats.OpenOptions{MaxBytes: size})
			require.NoError(t, err)
			// One byte under: an error naming the source and the cap, never
			// a silent cut.
			_, _, err = readAll(t, in, formats.OpenOptions{MaxBytes: size - 1})
			require.ErrorIs(t, err, formats.ErrTooLarge)
			assert.Regexp(t, `^in(:\d+)*: (reading stopped after \d+ entries: )?formats: input too large: more than the cap of `+
				strconv.FormatInt(size-1, 10)+` bytes \(counted decompressed\); stopped rather than read part of it$`, err.Error())
			assert.NotErrorIs(t, err, formats.ErrDamaged, "a capped input is not kept in part")
			// A cap smaller than what is sniffed fails in Open itself.
			_, _, err = readAll(t, in, formats.OpenOptions{MaxBytes: 10})
			require.ErrorIs(t, err, formats.ErrTooLarge)
		})
	}
}

func TestOpenGzipBomb(t *testing.T) {
	// 64 MiB of URL lines gzipped twice is about 30 KB; read under a cap
	// of 1 MiB it stops at the cap.
	line := []byte("https://example.com/a-page-of-the-bomb\n")
	var raw bytes.Buffer
	zw := gzip.NewWriter(&raw)
	for i := 0; i < 64<<20/len(line); i++ {
		zw.Write(line)
	}
	zw.Close()
	bomb := gz(raw.Bytes())
	require.Less(t, len(bomb), 1<<20)
	read := 0
	r, _, err := formats.Open(bytes.NewReader(bomb), formats.OpenOptions{MaxBytes: 1 << 20, ReadOptions: formats.ReadOptions{Source: "bomb.gz"}})
	require.NoError(t, err)
	for {
		_, err = r.Next()
		if err != nil {
			break
		}
		read++
	}
	require.ErrorIs(t, err, formats.ErrTooLarge)
	assert.Contains(t, err.Error(), "bomb.gz")
	assert.LessOrEqual(t, read, 1<<20/len(line))
	assert.Greater(t, read, 0)
}
