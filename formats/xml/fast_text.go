package xml

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// The fast path's character data: text, entity and character references,
// and CDATA sections.

// plainText marks the bytes text passes on as they are, with nothing to
// check: printable ASCII but '<', '&' and '>', and tab.
var plainText = func() (t [256]bool) {
	for c := ' '; c < 0x7f; c++ {
		t[c] = c != '<' && c != '&' && c != '>'
	}
	t['\t'] = true
	return
}()

// plainWord reports whether the 8 bytes of x are all printable ASCII but
// '<', '&' and '>' (in plainText, tab aside). Each test is exact as to
// whether some byte is caught, if not as to which.
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	lt, amp, gt := x^('<'*ones), x^('&'*ones), x^('>'*ones)
	// A byte of 0x7f or more, under 0x20, or 0 in lt, amp or gt sets its
	// high bit in one of the terms.
	return (x|(x+ones)|(x-0x20*ones)&^x|(lt-ones)&^lt|(amp-ones)&^amp|(gt-ones)&^gt)&highs == 0
}

// text scans character data from buf[p] to the next '<', decoding it as
// encoding/xml does, and adds it as a token when it is not empty.
func (s *scanner) text(p int) (int, scanStatus) {
	b := s.buf
	start, seg := p, p // seg: the start of the bytes not yet copied when decoding
	decoding := false
	from := len(s.scratch)
	amp := int32(0)
	line, col := s.line, s.col(p)
	for {
		for len(b)-p >= 8 && plainWord(binary.LittleEndian.Uint64(b[p:])) {
			p += 8
		}
		for p < len(b) && plainText[b[p]] {
			p++
		}
		if p == len(b) {
			return p, scanMore
		}
		if b[p] == '<' {
			switch {
			case decoding:
				s.scratch = append(s.scratch, b[seg:p]...)
				s.toks = append(s.toks, token{kind: tokScratch, amp: amp, line: line, col: col, a: int32(from), b: int32(len(s.scratch))})
			case p > start:
				s.toks = append(s.toks, token{kind: tokText, amp: amp, line: line, col: col, a: int32(start), b: int32(p)})
			}
			return p, scanOK
		}
		switch c := b[p]; {
		case c == '\n':
			if p > start && b[p-1] == '\r' {
				// The \r before it was already turned into \n.
				s.scratch = append(s.scratch, b[seg:p]...)
				seg = p + 1
			}
			s.newline(p)
			p++
		case c == '\r':
			decoding = true
			s.scratch = append(s.scratch, b[seg:p]...)
			s.scratch = append(s.scratch, '\n')
			p++
			seg = p
		case c == '>':
			if p-start >= 2 && b[p-1] == ']' && b[p-2] == ']' {
				return p, scanOdd // encoding/xml's "unescaped ]]> not in CDATA section"
			}
			p++
		case c == '&':
			out, n, st := s.entity(b[p+1:])
			if st != scanOK {
				return p, st
			}
			if n == 0 {
				// Kept as it is, with a warning about the first.
				if amp == 0 {
					s.amps = append(s.amps, looseAmp{line: s.line, col: s.col(p), ref: looseRef(b[p:])})
					amp = int32(len(s.amps))
				}
				p++
				continue
			}
			decoding = true
			s.scratch = append(s.scratch, b[seg:p]...)
			s.scratch = utf8.AppendRune(s.scratch, out)
			p += 1 + n
			seg = p
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[p:])
			if r == utf8.RuneError && size == 1 && !utf8.FullRune(b[p:]) {
				return p, scanMore
			}
			if r == utf8.RuneError && size == 1 || !vocab.IsXMLChar(r) {
				return p, scanOdd
			}
			p += size
		default:
			return p, scanOdd // a control character or DEL
		}
	}
}

// entity decodes the entity or character reference after a '&', at the
// start of rest. It returns the character and the length of the
// reference after the '&', or a length of 0 when the '&' starts no
// reference and is kept as it is (in lenient mode; it is an error in
// strict mode).
func (s *scanner) entity(rest []byte) (rune, int, scanStatus) {
	for _, e := range [...]struct {
		name string
		r    rune
	}{{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}} {
		if len(rest) < len(e.name) {
			if strings.HasPrefix(e.name, string(rest)) {
				return 0, 0, scanMore
			}
		} else if string(rest[:len(e.name)]) == e.name {
			return e.r, len(e.name), scanOK
		}
	}
	if len(rest) == 0 {
		return 0, 0, scanMore
	}
	if rest[0] != '#' {
		if s.strict {
			return 0, 0, scanOdd
		}
		return 0, 0, scanOK
	}
	i, base := 1, rune(10)
	if i < len(rest) && rest[i] == 'x' {
		i, base = 2, 16
	}
	var n rune
	start := i
	for ; i < len(rest); i++ {
		c := rest[i]
		var d rune
		switch {
		case '0' <= c && c <= '9':
			d = rune(c - '0')
		case base == 16 && 'a' <= c && c <= 'f':
			d = rune(c-'a') + 10
		case base == 16 && 'A' <= c && c <= 'F':
			d = rune(c-'A') + 10
		default:
			d = -1
		}
		if d < 0 {
			break
		}
		if i-start == 8 {
			return 0, 0, scanOdd
		}
		n = n*base + d
	}
	if i == len(rest) {
		return 0, 0, scanMore
	}
	if rest[i] != ';' || i == start || !vocab.IsXMLChar(n) {
		return 0, 0, scanOdd
	}
	return n, i + 1, scanOK
}

// cdata scans a CDATA section at buf[p], which starts with "<![CDATA[",
// and adds its text as a token.
func (s *scanner) cdata(p int) (int, scanStatus) {
	b := s.buf
	start := p + 9
	line, col := s.line, s.col(p)
	i := bytes.Index(b[start:], []byte("]]>"))
	if i < 0 {
		return p, scanMore
	}
	end := start + i
	cr := false
	for q := start; q < end; {
		c := b[q]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[q:end])
			if r == utf8.RuneError && size == 1 || !vocab.IsXMLChar(r) {
				return p, scanOdd
			}
			q += size
			continue
		case c == '\n':
			s.newline(q)
		case c == '\r':
			cr = true
		case c < ' ' && c != '\t':
			return p, scanOdd
		}
		q++
	}
	if !cr {
		if end > start {
			s.toks = append(s.toks, token{kind: tokText, line: line, col: col, a: int32(start), b: int32(end)})
		}
		return end + 3, scanOK
	}
	from := len(s.scratch)
	for q := start; q < end; q++ {
		switch c := b[q]; {
		case c == '\r':
			s.scratch = append(s.scratch, '\n')
		case c == '\n' && q > start && b[q-1] == '\r':
		default:
			s.scratch = append(s.scratch, c)
		}
	}
	s.toks = append(s.toks, token{kind: tokScratch, line: line, col: col, a: int32(from), b: int32(len(s.scratch))})
	return end + 3, scanOK
}
