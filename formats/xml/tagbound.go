package xml

import (
	"bytes"
	"io"

	"github.com/feed2sitemap/feed2sitemap/internal/reason"
)

// tagBound passes XML through, failing with ErrLongTag as soon as a start
// or end tag runs longer than MaxTag bytes. It follows the markup byte by
// byte, across reads: comments, CDATA sections, processing instructions
// and declarations are skipped, and a '>' in a quoted attribute value does
// not end a tag.
type tagBound struct {
	r     io.Reader
	state tagState
	n     int     // bytes of the tag so far, or of "<!" matched
	quote byte    // the quote of the attribute value in a tagQuote state
	last  [2]byte // the two bytes before, for "-->", "]]>" and "?>"
	err   error
}

type tagState uint8

const (
	tagText    tagState = iota
	tagLT               // after '<'
	tagIn               // in a start or end tag
	tagQuote            // in a quoted attribute value
	tagBang             // after "<!", telling a comment, CDATA or declaration
	tagComment          // until "-->"
	tagCDATA            // until "]]>"
	tagPI               // until "?>"
	tagDecl             // a declaration (DOCTYPE), until '>'
)

func (t *tagBound) Read(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	n, err := t.r.Read(p)
	for i := 0; i < n; i++ {
		// The bytes that change nothing but t.last in text and in a
		// tag are passed over here: no state reads t.last before it is
		// set in that state (after "<!", or reset).
		switch t.state {
		case tagText:
			j := bytes.IndexByte(p[i:n], '<')
			if j < 0 {
				return n, err
			}
			i += j
		case tagIn:
			if c := p[i]; c != '>' && c != '"' && c != '\'' && t.n < MaxTag {
				t.n++
				continue
			}
		}
		if !t.step(p[i]) {
			t.err = reason.Of(ErrLongTag)
			return i, t.err
		}
	}
	return n, err
}

// step follows one byte; false when a tag runs too long.
func (t *tagBound) step(c byte) bool {
	prev := t.last
	t.last = [2]byte{prev[1], c}
	switch t.state {
	case tagText:
		if c == '<' {
			t.state, t.n = tagLT, 1
		}
	case tagLT:
		switch c {
		case '!':
			t.state, t.n = tagBang, 0
		case '?':
			t.state = tagPI
			t.last = [2]byte{}
		default:
			t.state, t.n = tagIn, 2
		}
	case tagIn, tagQuote:
		t.n++
		if t.n > MaxTag {
			return false
		}
		switch {
		case t.state == tagQuote:
			if c == t.quote {
				t.state = tagIn
			}
		case c == '"' || c == '\'':
			t.state, t.quote = tagQuote, c
		case c == '>':
			t.state = tagText
		}
	case tagBang:
		const comment, cdata = "--", "[CDATA["
		switch {
		case t.n < len(comment) && c == comment[t.n] && (t.n == 0 || t.last[0] == '-'):
			t.n++
			if t.n == len(comment) {
				t.state = tagComment
				t.last = [2]byte{}
			}
		case t.n < len(cdata) && c == cdata[t.n]:
			t.n++
			if t.n == len(cdata) {
				t.state = tagCDATA
				t.last = [2]byte{}
			}
		case c == '>':
			t.state = tagText
		default:
			t.state = tagDecl
		}
	case tagComment:
		if c == '>' && prev == [2]byte{'-', '-'} {
			t.state = tagText
		}
	case tagCDATA:
		if c == '>' && prev == [2]byte{']', ']'} {
			t.state = tagText
		}
	case tagPI:
		if c == '>' && prev[1] == '?' {
			t.state = tagText
		}
	case tagDecl:
		if c == '>' {
			t.state = tagText
		}
	}
	return true
}
