package text_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats/text"
)

func TestParseLine(t *testing.T) {
	for _, tt := range []struct {
		line  string
		long  bool
		kind  text.LineKind
		value string
		at    int
	}{
		{"", false, text.LineBlank, "", 0},
		{" \t\u00a0", false, text.LineBlank, "", 0},
		{"# a comment", false, text.LineComment, "", 0},
		{"  #indented", false, text.LineComment, "", 0},
		{"#" + strings.Repeat("a", 100), true, text.LineComment, "", 0}, // a comment whatever its length
		{strings.Repeat(" ", 100), true, text.LineTooLong, "", 0},       // blank as far as it was read
		{"https://a.example/" + strings.Repeat("a", 100), true, text.LineTooLong, "", 0},
		{"https://a.example/", false, text.LineURL, "https://a.example/", 0},
		{"  https://a.example/ \t", false, text.LineURL, "https://a.example/", 2},
		{"\u00a0https://a.example/", false, text.LineURL, "https://a.example/", 2},
		{"https://a.example/#frag", false, text.LineURL, "https://a.example/#frag", 0},
	} {
		kind, value, at := text.ParseLine([]byte(tt.line), tt.long)
		assert.Equal(t, tt.kind, kind, "%.40q", tt.line)
		assert.Equal(t, tt.value, string(value), "%.40q", tt.line)
		assert.Equal(t, tt.at, at, "%.40q", tt.line)
	}
}

// A comment line is a comment whatever its length: skipped without a
// warning, in strict mode too, as validate takes it.
func TestLongCommentLine(t *testing.T) {
	in := []byte("https://a.example/1\n#" + strings.Repeat("x", 70000) + "\nhttps://a.example/2\n")
	for _, strict := range []bool{false, true} {
		locs, warnings, err := read(t, in, strict)
		require.NoError(t, err)
		assert.Empty(t, warnings)
		assert.Equal(t, []string{"https://a.example/1", "https://a.example/2"}, locs)
	}
}

// A URL that breaks the URI grammar as written is repaired when reading
// leniently and refused in strict mode, as validate's loc-syntax and
// loc-escaping rules refuse it.
func TestStrictRefusesUnescapedURL(t *testing.T) {
	for in, repaired := range map[string]string{
		"https://a.example/a b":   "https://a.example/a%20b",
		"https://a.example/café":  "https://a.example/caf%C3%A9",
		"https://a.example/100%":  "https://a.example/100%25",
		"https://a.example/[1]":   "https://a.example/%5B1%5D",
		"https://a.example/a<b>":  "https://a.example/a%3Cb%3E",
		"https://a.example/a#b#c": "https://a.example/a#b%23c",
	} {
		locs, warnings, err := read(t, []byte(in+"\n"), false)
		require.NoError(t, err, in)
		assert.Empty(t, warnings, in)
		assert.Equal(t, []string{repaired}, locs, in)
		_, _, err = read(t, []byte(in+"\n"), true)
		assert.Error(t, err, in)
	}
	locs, _, err := read(t, []byte("https://a.example/a%20b?q=1#top\n"), true)
	require.NoError(t, err)
	assert.Equal(t, []string{"https://a.example/a%20b?q=1#top"}, locs)
}
