package textenc_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// decodeAs reads in with the transport's charset, and returns the text,
// the encoding the reader names, and the problems reported.
func decodeAs(t *testing.T, in []byte, charset string) (string, string, []*textenc.Problem) {
	t.Helper()
	var problems []*textenc.Problem
	r := textenc.NewReader(iotest.HalfReader(bytes.NewReader(in)), textenc.Options{
		Charset: charset,
		Report:  func(p *textenc.Problem) { problems = append(problems, p) },
	})
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(out), r.Encoding(), problems
}

// TestHTTPCharsetOfUndeclaredFeed: a Russian city paper's RSS in KOI8-R
// with no XML declaration, served as "application/rss+xml; charset=koi8-r",
// is read in KOI8-R, without a problem; without the server's charset it is
// still taken as windows-1252 (the fallback for undeclared bytes that are
// not UTF-8), with its warning.
func TestHTTPCharsetOfUndeclaredFeed(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "koi8r_feed_without_declaration.rss"))
	require.NoError(t, err)
	got, enc, problems := decodeAs(t, in, "koi8-r")
	assert.Empty(t, problems)
	assert.Equal(t, "koi8-r", enc)
	assert.Contains(t, got, "<title>Мост через Каму откроют в мае</title>")
	assert.Contains(t, got, "<link>https://zarechye.example/новости/ярмарка</link>")

	got, enc, problems = decodeAs(t, in, "")
	assert.Equal(t, "", enc)
	require.Len(t, problems, 1)
	assert.ErrorIs(t, problems[0], textenc.ErrUndeclaredLegacy)
	assert.NotContains(t, got, "Мост")
}

// TestHTTPCharsetDecidesOverDeclaration: a feed whose template declares
// ISO-8859-1 while its CMS writes UTF-8, served with "charset=utf-8", is
// read as the server says (RFC 7303, 3.2: the charset parameter is
// authoritative for XML media types), the declaration rewritten to UTF-8;
// without the server's charset the declaration is obeyed. A byte order mark
// decides over both.
func TestHTTPCharsetDecidesOverDeclaration(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "utf8_feed_declared_latin1.rss"))
	require.NoError(t, err)
	got, enc, problems := decodeAs(t, in, "UTF-8")
	assert.Empty(t, problems)
	assert.Equal(t, "", enc, "UTF-8")
	assert.Contains(t, got, `<?xml version="1.0" encoding="UTF-8"?>`)
	assert.Contains(t, got, "<title>Café “Le Zinc”</title>")
	assert.Contains(t, got, "https://lezinc.example/menu/crêpes")

	got, enc, _ = decodeAs(t, in, "")
	assert.Equal(t, "ISO-8859-1", enc, "the declaration, without a charset from the server")
	assert.Contains(t, got, "CafÃ©")

	got, enc, problems = decodeAs(t, append([]byte{0xEF, 0xBB, 0xBF}, in...), "koi8-r")
	assert.Empty(t, problems)
	assert.Equal(t, "", enc, "a UTF-8 byte order mark over the server's charset and the declaration")
	assert.Contains(t, got, `<?xml version="1.0" encoding="UTF-8"?>`)
	assert.Contains(t, got, "<title>Café “Le Zinc”</title>")
}

// TestHTTPCharsetUnknown: a charset no one knows is reported and ignored.
func TestHTTPCharsetUnknown(t *testing.T) {
	got, enc, problems := decodeAs(t, []byte("https://a.example/caf\xe9\n"), "x-klingon")
	require.Len(t, problems, 2)
	assert.Contains(t, problems[0].Error(), `unknown charset "x-klingon" in the Content-Type ignored`)
	assert.ErrorIs(t, problems[1], textenc.ErrUndeclaredLegacy)
	assert.Equal(t, "", enc)
	assert.Equal(t, "https://a.example/café\n", got)
}
