package source_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/unicode"

	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestLayersAndSize(t *testing.T) {
	text := []byte("https://a.example/\n")
	for layers := 0; layers <= source.MaxGzipLayers; layers++ {
		in := text
		for range layers {
			in = gz(in)
		}
		r, err := source.Open(bytes.NewReader(in), source.Options{})
		require.NoError(t, err)
		got, err := io.ReadAll(r)
		require.NoError(t, err)
		assert.Equal(t, text, got)
		assert.Equal(t, layers, r.Layers())
		assert.Equal(t, int64(len(text)), r.Bytes())
	}
	_, err := source.Open(bytes.NewReader(gz(gz(gz(gz(text))))), source.Options{})
	assert.ErrorIs(t, err, source.ErrGzipDepth)
}

func TestDamagedGzip(t *testing.T) {
	whole := gz([]byte(strings.Repeat("https://a.example/page\n", 5000)))
	_, err := source.Open(bytes.NewReader(append([]byte{0x1f, 0x8b, 9}, whole[3:]...)), source.Options{})
	var ge *source.GzipError
	require.ErrorAs(t, err, &ge, "a header that cannot be read fails Open")
	assert.True(t, ge.Header)

	r, err := source.Open(bytes.NewReader(whole[:len(whole)/2]), source.Options{})
	require.NoError(t, err)
	got, err := io.ReadAll(r)
	require.ErrorAs(t, err, &ge, "cut short: the error comes after what came before")
	assert.False(t, ge.Header)
	assert.Equal(t, int64(len(got)), ge.Offset)
	assert.Contains(t, ge.Error(), "corrupt gzip data: ")
	assert.NotEmpty(t, got)
}

func TestCap(t *testing.T) {
	for _, tt := range []struct {
		size int
		fail bool
	}{{99, false}, {100, false}, {101, true}} {
		in := gz(bytes.Repeat([]byte("a"), tt.size))
		r, err := source.Open(bytes.NewReader(in), source.Options{MaxBytes: 100})
		require.NoError(t, err)
		got, err := io.ReadAll(r)
		if !tt.fail {
			require.NoError(t, err)
			assert.Len(t, got, tt.size)
			continue
		}
		require.ErrorIs(t, err, source.ErrTooLarge)
		assert.LessOrEqual(t, len(got), 100)
		assert.Equal(t, int64(101), r.Bytes(), "counted to the byte after the cap")
	}
	// Drain counts without decoding, and says why the input ended.
	r, err := source.Open(bytes.NewReader(bytes.Repeat([]byte("a"), 500)), source.Options{MaxBytes: 100})
	require.NoError(t, err)
	assert.ErrorIs(t, r.Drain(), source.ErrTooLarge)
	assert.Equal(t, int64(101), r.Bytes())
}

func TestBinary(t *testing.T) {
	r, err := source.Open(bytes.NewReader([]byte("\x00\x01PNG data")), source.Options{})
	require.NoError(t, err)
	assert.True(t, r.Binary())
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Empty(t, got)

	utf16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte("https://a.example/\n"))
	require.NoError(t, err)
	r, err = source.Open(bytes.NewReader(utf16), source.Options{})
	require.NoError(t, err)
	assert.False(t, r.Binary(), "UTF-16 has NUL bytes and is text")
	assert.Equal(t, "UTF-16", r.Encoding())
}

// Strict opening fails on an input that is not in UTF-8, where it starts;
// lenient opening decodes it.
func TestStrictNotUTF8(t *testing.T) {
	for name, in := range map[string]string{
		"declared charset": `<?xml version="1.0" encoding="ISO-8859-1"?><urlset/>`,
		"unknown charset":  `<?xml version="1.0" encoding="bogus"?><urlset/>`,
		"utf-16":           "\xff\xfeh\x00t\x00t\x00p\x00",
	} {
		_, err := source.Open(strings.NewReader(in), source.Options{Strict: true})
		var p *textenc.Problem
		require.ErrorAs(t, err, &p, name)
		assert.ErrorIs(t, err, source.ErrNotUTF8, name)
		assert.Equal(t, 1, p.Line)
		r, err := source.Open(strings.NewReader(in), source.Options{})
		require.NoError(t, err, name)
		assert.NotEmpty(t, r.Encoding(), name)
	}
	for _, in := range []string{`<?xml version="1.0" encoding="utf-8"?><urlset/>`, "\xef\xbb\xbfhttps://a.example/", "https://a.example/"} {
		r, err := source.Open(strings.NewReader(in), source.Options{Strict: true})
		require.NoError(t, err, in)
		assert.Empty(t, r.Encoding(), in)
	}
}

// Each invalid character is reported where it is, in bytes; with Mark
// each of its bytes becomes '?', so that columns after it are unchanged.
func TestEachInvalidCharacter(t *testing.T) {
	var got []textenc.Invalid
	opts := source.Options{Text: textenc.Options{Mark: true, Each: func(c textenc.Invalid) { got = append(got, c) }}}
	r, err := source.Open(strings.NewReader("\xef\xbb\xbfok é\n\x01a\xffb\uFFFEc"), opts)
	require.NoError(t, err)
	text, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "ok é\n?a?b???c", string(text))
	assert.Equal(t, []textenc.Invalid{
		{Line: 2, Column: 1, Rune: 1},
		{Line: 2, Column: 3, Rune: -1, Byte: 0xff},
		{Line: 2, Column: 5, Rune: 0xFFFE},
	}, got)

	// An input that declares no encoding: bytes that are not UTF-8 are
	// windows-1252, each reported.
	got = nil
	r, err = source.Open(strings.NewReader("caf\xe9 \x93x\x94"), opts)
	require.NoError(t, err)
	text, err = io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, "café “x”", string(text))
	assert.Equal(t, []textenc.Invalid{
		{Line: 1, Column: 4, Rune: -1, Byte: 0xe9, Legacy: true},
		{Line: 1, Column: 6, Rune: -1, Byte: 0x93, Legacy: true},
		{Line: 1, Column: 8, Rune: -1, Byte: 0x94, Legacy: true},
	}, got)
}

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	_, err := source.Open(io.MultiReader(errReader{boom}), source.Options{})
	assert.ErrorIs(t, err, boom, "before any layer, Open returns the input's error")
	r, err := source.Open(io.MultiReader(strings.NewReader("https://a.example/\n"), errReader{boom}), source.Options{})
	require.NoError(t, err)
	_, err = io.ReadAll(r)
	assert.ErrorIs(t, err, boom)
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
