// Package termsafe escapes text that came from the network (an HTTP
// status reason, a body's excerpt, a URL an index lists) before it is
// printed, so that no control sequence reaches a terminal raw: ESC, CR,
// BEL and the other C0 controls, DEL, the C1 controls (U+0080 to U+009F,
// CSI among them), the bidirectional overrides and isolates (U+202A to
// U+202E, U+2066 to U+2069) and bytes that are not UTF-8 are written as
// Go escapes (\x1b, \r, \u202e, \xff). Everything else is left alone.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// unsafe reports whether the rune r (RuneError of size 1 for a byte that
// is not UTF-8) is escaped; newline and tab are kept when keepLines.
func unsafe(r rune, size int, keepLines bool) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return true
	case r == '\n' || r == '\t':
		return !keepLines
	case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// String returns s with every character that could drive a terminal
// escaped, newlines and tabs included; s itself when it has none.
func String(s string) string { return escape(s, false) }

func escape(s string, keepLines bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, size, keepLines) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case !unsafe(r, size, keepLines):
			b.WriteString(s[i : i+size])
		case size == 1 && r == utf8.RuneError || r < 0x80:
			switch s[i] {
			case '\r':
				b.WriteString(`\r`)
			case '\n':
				b.WriteString(`\n`)
			case '\t':
				b.WriteString(`\t`)
			default:
				fmt.Fprintf(&b, `\x%02x`, s[i])
			}
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += size
	}
	return b.String()
}

// Writer escapes what is written through it, as String does but keeping
// newlines and tabs: the standard error of a program that prints lines
// holding text from the network, or a report. A character split between
// two writes (by a bufio.Writer) is held until the next one; Flush writes
// what is held.
type Writer struct {
	w       io.Writer
	pending []byte // the start of a character cut off by the last Write
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p, escaped, and returns len(p) when all of it was written
// (or is held, the start of a character).
func (w *Writer) Write(p []byte) (int, error) {
	data := p
	if len(w.pending) > 0 {
		data = append(w.pending, p...)
		w.pending = nil
	}
	// The start of the last character, when it is cut short.
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	if _, err := io.WriteString(w.w, escape(string(data[:cut]), true)); err != nil {
		return 0, err
	}
	w.pending = append(w.pending, data[cut:]...)
	return len(p), nil
}

// Flush writes what is held of a character cut short, escaped.
func (w *Writer) Flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	_, err := io.WriteString(w.w, escape(string(w.pending), true))
	w.pending = nil
	return err
}

// Unwrap returns the writer under w when w is a Writer, else w: for the
// program's own control sequences (a progress line redrawn with CR).
func Unwrap(w io.Writer) io.Writer {
	if t, ok := w.(*Writer); ok {
		return t.w
	}
	return w
}

// JSON escapes, in a JSON text that encoding/json wrote, the characters
// it leaves raw that String escapes (the C1 controls and the
// bidirectional controls), as \u escapes, which JSON reads back as the
// same characters. It returns b itself when there are none.
func JSON(b []byte) []byte {
	s := string(b)
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x80 && unsafe(r, size, true) {
			break
		}
		i += size
	}
	if i == len(s) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	out = append(out, s[:i]...)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x80 && unsafe(r, size, true) && !(r == utf8.RuneError && size == 1) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return out
}
