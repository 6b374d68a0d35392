package vocab

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// TestIsXMLChar holds IsXMLChar to what encoding/xml reads as a character
// of text, at the edges of each range of the Char production; surrogates,
// which UTF-8 cannot hold, are no characters.
func TestIsXMLChar(t *testing.T) {
	for _, r := range []rune{0, 0x08, 0x09, 0x0A, 0x0B, 0x0D, 0x1F, 0x20, 0x7F, 0xD7FF, 0xE000,
		0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x10FFFF} {
		d := xml.NewDecoder(strings.NewReader("<a>" + string(r) + "</a>"))
		var err error
		for err == nil {
			_, err = d.Token()
		}
		if got, read := IsXMLChar(r), err == io.EOF; got != read {
			t.Errorf("IsXMLChar(%#x) = %v; encoding/xml reads it: %v (%v)", r, got, read, err)
		}
	}
	for _, r := range []rune{0xD800, 0xDFFF, 0x110000, -1} {
		if IsXMLChar(r) {
			t.Errorf("IsXMLChar(%#x) = true", r)
		}
	}
}
