package xml

import (
	"bufio"
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Bare '&' and undeclared entities.
//
// In lenient mode encoding/xml keeps an '&' that starts no predefined
// entity or character reference as it is, with what follows it, and says
// nothing: ?a=1&b=2 and &nbsp; reach the handlers as text like any other.
// The fast path knows such an '&' when it scans it; the general path finds
// it in the input bytes of the text token (rawText), with the rules
// encoding/xml decodes references by (refLen). Both hand the handlers the
// first one of each text token as a looseAmp, so the warnings are the
// same whichever path reads.

// looseAmp is the first bare '&' (or undeclared entity) of a text: its
// line and column in the document, and what of it a warning quotes. ref
// is "" when the text has none.
type looseAmp struct {
	line, col int
	ref       string
}

// maxRefShown is how many bytes of a bare '&' and what follows it a
// warning quotes at most.
const maxRefShown = 24

// looseRef returns what a warning quotes of the bare '&' at the start of
// s: the '&', a '#', the name characters after them and the ';' that ends
// them, at most maxRefShown bytes and never part of a character. s runs
// at least to the end of the text.
func looseRef(s []byte) string {
	n := 1
	if n < len(s) && s[n] == '#' {
		n++
	}
	for n < len(s) && n < maxRefShown && isNameByte(s[n]) {
		n++
	}
	if n < len(s) && n < maxRefShown && s[n] == ';' {
		n++
	}
	for n < len(s) && n > 1 && !utf8.RuneStart(s[n]) {
		n-- // cut at the limit inside a character
	}
	return string(s[:n])
}

// refLen returns the length of the reference after an '&' at the start of
// rest when encoding/xml decodes it (a predefined entity, or a character
// reference to a code point up to U+10FFFF), or 0 when it keeps the '&'
// as it is. rest runs to the end of the text.
func refLen(rest []byte) int {
	if len(rest) > 0 && rest[0] == '#' {
		i, base := 1, 10
		if i < len(rest) && rest[i] == 'x' {
			i, base = 2, 16
		}
		start := i
		for i < len(rest) && isDigit(rest[i], base) {
			i++
		}
		if i == len(rest) || rest[i] != ';' {
			return 0
		}
		n, err := strconv.ParseUint(string(rest[start:i]), base, 64)
		if err != nil || n > unicode.MaxRune {
			return 0
		}
		return i + 1
	}
	for _, name := range [...]string{"amp;", "lt;", "gt;", "quot;", "apos;"} {
		if len(rest) >= len(name) && string(rest[:len(name)]) == name {
			return len(name)
		}
	}
	return 0
}

// isDigit reports whether c is a digit in base 10 or 16.
func isDigit(c byte, base int) bool {
	return '0' <= c && c <= '9' || base == 16 && ('a' <= c && c <= 'f' || 'A' <= c && c <= 'F')
}

// firstLooseAmp returns the index of the first '&' in raw, the input bytes
// of a text, that encoding/xml keeps as it is, or -1.
func firstLooseAmp(raw []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '&')
		if j < 0 {
			return -1
		}
		i += j
		n := refLen(raw[i+1:])
		if n == 0 {
			return i
		}
		i += 1 + n
	}
}

// rawText is the input of the general path's decoder in lenient mode. It
// keeps the input bytes of the token being read while they may be those
// of a text token, that is, while they do not start with '<': from the
// start of the token to the '<' after it (which the decoder reads and
// backs out), never more than MaxTextLength and a byte, which boundedText
// ensures.
type rawText struct {
	r    *bufio.Reader
	n    int64 // bytes read
	last byte  // the last byte read
	text []byte
	off  bool // the token being read starts with '<': text is not kept
}

// ReadByte reads a byte for the decoder.
func (t *rawText) ReadByte() (byte, error) {
	c, err := t.r.ReadByte()
	if err == nil {
		t.record(c)
	}
	return c, err
}

// Read reads for the decoder, which reads a byte at a time through
// ReadByte; Read is there because the decoder asks its input to be an
// io.Reader too.
func (t *rawText) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	for _, c := range p[:n] {
		t.record(c)
	}
	return n, err
}

func (t *rawText) record(c byte) {
	t.n++
	t.last = c
	if t.off {
		return
	}
	if len(t.text) == 0 && c == '<' {
		t.off = true
		return
	}
	t.text = append(t.text, c)
}

// begin starts keeping the bytes of a token, which starts at offset of
// the decoder's input. A byte before it the decoder read and backed out
// (the '<' after a text) starts the token.
func (t *rawText) begin(offset int64) {
	if t == nil {
		return
	}
	t.text, t.off = t.text[:0], false
	if offset < t.n {
		t.record(t.last)
		t.n--
	}
}

// looseAmp returns the first bare '&' of the character data just read,
// which started at line and column, if it is a text token (not a CDATA
// section). A nil rawText (strict mode) finds none.
func (t *rawText) looseAmp(line, col int) looseAmp {
	if t == nil || t.off {
		return looseAmp{}
	}
	i := firstLooseAmp(t.text)
	if i < 0 {
		return looseAmp{}
	}
	if nl := bytes.LastIndexByte(t.text[:i], '\n'); nl >= 0 {
		line += bytes.Count(t.text[:nl+1], []byte{'\n'})
		col = i - nl
	} else {
		col += i
	}
	return looseAmp{line: line, col: col, ref: looseRef(t.text[i:])}
}
