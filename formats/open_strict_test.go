package formats_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/unicode"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// The protocol wants UTF-8: strict opening refuses an input in another
// encoding where it starts, as validate's encoding rule does; lenient
// opening decodes it without a word, as it always did.
func TestOpenStrictNotUTF8(t *testing.T) {
	utf16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte("https://a.example/\n"))
	require.NoError(t, err)
	var warned []string
	locs, _, err := readAll(t, utf16, formats.OpenOptions{ReadOptions: formats.ReadOptions{
		Warn: func(pe *formats.ParseError) { warned = append(warned, pe.Error()) }}})
	require.NoError(t, err)
	assert.Equal(t, []string{"https://a.example/"}, locs)
	assert.Empty(t, warned)

	_, _, err = readAll(t, utf16, formats.OpenOptions{ReadOptions: formats.ReadOptions{Strict: true}})
	var pe *formats.ParseError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, 1, pe.Line)
	assert.Contains(t, pe.Error(), "in:1:1: not encoded in UTF-8: the input is encoded in UTF-16")
}

// A document over the protocol's limit is an error of strict reading,
// as of validate's too-large rule, whatever cap the caller set; lenient
// reading keeps the caller's cap.
func TestOpenStrictCapsAtProtocolLimit(t *testing.T) {
	line := []byte("https://a.example/" + strings.Repeat("a", 2000) + "\n") // fewer URLs than MaxURLs
	big := gz(bytes.Repeat(line, formats.MaxBytes/len(line)+1))
	for _, max := range []int64{0, 2 * formats.MaxBytes} {
		_, _, err := readAll(t, big, formats.OpenOptions{MaxBytes: max, ReadOptions: formats.ReadOptions{Strict: true}})
		assert.ErrorIs(t, err, formats.ErrTooLarge, "cap %d", max)
	}
	_, _, err := readAll(t, big, formats.OpenOptions{})
	assert.NoError(t, err)
}
