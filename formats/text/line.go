package text

import (
	"bytes"
	"unicode"
)

// LineKind is what a line of a text sitemap holds.
type LineKind uint8

// The kinds of line ParseLine tells apart.
const (
	// LineBlank is empty or white space: skipped.
	LineBlank LineKind = iota
	// LineComment starts with '#' after any white space, whatever its
	// length: skipped.
	LineComment
	// LineURL holds a URL, which the reader checks with formats.ParseLoc.
	LineURL
	// LineTooLong is longer than MaxLineLength and no comment: skipped
	// with a warning (an error in strict mode).
	LineTooLong
)

// ParseLine tells what a line of a text sitemap holds, as
// textlines.Reader returns it (long set when it was cut to its first
// MaxLineLength bytes). For a LineURL it returns the value without
// surrounding white space (Unicode white space, as bytes.TrimSpace
// trims) and where it starts in line. The reader and
// package validate both take lines by it, so that they agree on every
// line.
func ParseLine(line []byte, long bool) (kind LineKind, value []byte, at int) {
	if !long && len(line) > 0 && isPrintASCII(line[0]) && line[0] != '#' && isPrintASCII(line[len(line)-1]) {
		return LineURL, line, 0 // the common case: no space around it
	}
	trimmed := bytes.TrimLeftFunc(line, unicode.IsSpace)
	switch {
	case len(trimmed) > 0 && trimmed[0] == '#':
		return LineComment, nil, 0
	case long:
		return LineTooLong, nil, 0
	}
	value = bytes.TrimRightFunc(trimmed, unicode.IsSpace)
	if len(value) == 0 {
		return LineBlank, nil, 0
	}
	return LineURL, value, len(line) - len(trimmed)
}

// isPrintASCII reports whether c is a printable ASCII character other than
// space: a whole rune that is no white space.
func isPrintASCII(c byte) bool { return c > ' ' && c < 0x7f }
