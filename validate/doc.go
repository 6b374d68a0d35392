package validate

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// maxCharFindings is how many invalid-utf8 or invalid-char findings one
// document reports before it only counts them.
const maxCharFindings = 10

// doc is the state of one document being checked.
type doc struct {
	v          *Validator
	src        Source
	id         uint32
	report     func(Finding)
	info       Document
	parentKind parentKind
	scope      *url.URL // the document's directory URL, or nil
	in         io.Reader
	stopped    bool  // the input ended early (too large, corrupt gzip, read error)
	readErr    error // a read error of the underlying reader
	followed   int

	charCount [2]int // invalid-utf8, invalid-char findings
	news      int
	hreflang  hreflangState
	x         *xmlCheck
}

func (v *Validator) newDoc(src Source, report func(Finding)) *doc {
	d := &doc{v: v, src: src, report: report, id: uint32(len(v.docs))}
	v.docs = append(v.docs, src.Name)
	d.info.Source = src.Name
	if src.URL != nil && (src.URL.Scheme == "http" || src.URL.Scheme == "https") && src.URL.Host != "" {
		dir := *src.URL
		dir.RawQuery, dir.Fragment, dir.RawFragment = "", "", ""
		if i := strings.LastIndexByte(dir.EscapedPath(), '/'); i >= 0 {
			p := dir.EscapedPath()[:i+1]
			dir.RawPath = ""
			if unesc, err := url.PathUnescape(p); err == nil {
				dir.Path = unesc
				dir.RawPath = p
			}
		} else {
			dir.Path, dir.RawPath = "/", ""
		}
		d.scope = &dir
	}
	return d
}

// reportAt reports a finding of rule at a position of the document.
func (d *doc) reportAt(r *Rule, line, col int, format string, args ...any) {
	d.report(Finding{Rule: r, Source: d.src.Name, Line: line, Column: col, Message: fmt.Sprintf(format, args...)})
}

// finish runs the checks made at the end of a document.
func (d *doc) finish() {
	for i, r := range []*Rule{ruleInvalidUTF8, ruleInvalidChar} {
		if n := d.charCount[i] - maxCharFindings; n > 0 {
			d.reportAt(r, 0, 0, "%d more like these not shown", n)
		}
	}
	d.hreflang.finish(d)
}

// decode returns the document as UTF-8 with invalid bytes and characters
// reported and replaced: a document in another encoding is reported once
// and transcoded.
func (d *doc) decode(raw io.Reader, head []byte) io.Reader {
	if enc := nonUTF8(head); enc != "" {
		d.reportAt(ruleEncoding, 1, 1, "the document is encoded in %s, not UTF-8", enc)
		raw = textenc.NewReader(raw, textenc.Options{})
	}
	if bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")) {
		io.CopyN(io.Discard, raw, 3) // the byte order mark; positions count from after it
	}
	if undeclared(head) {
		// As the readers do (formats.Open): bytes that are not UTF-8 are
		// windows-1252, so that the URLs checked are the URLs read.
		return textenc.NewReader(&charFilter{r: raw, d: d, line: 1, col: 1, legacy: true}, textenc.Options{})
	}
	return &charFilter{r: raw, d: d, line: 1, col: 1}
}

// undeclared reports whether a document declares no encoding: no byte
// order mark, no UTF-16 or UTF-32, no encoding in its XML declaration.
func undeclared(head []byte) bool {
	if nonUTF8(head) != "" || bytes.HasPrefix(head, []byte("\xEF\xBB\xBF")) {
		return false
	}
	head = bytes.TrimLeft(head, " \t\r\n")
	if !bytes.HasPrefix(head, []byte("<?xml")) {
		return true
	}
	end := bytes.Index(head, []byte("?>"))
	return end < 0 || !bytes.Contains(head[:end], []byte("encoding"))
}

// nonUTF8 returns the name of the encoding the start of a document uses
// when it is not UTF-8, or "".
func nonUTF8(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}), bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return "UTF-32"
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}), bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		return "UTF-16"
	case len(head) >= 4 && (head[0] == 0 || head[1] == 0) && (head[0] == '<' || head[1] == '<' || head[3] == '<' || head[2] == '<'):
		return "UTF-16 or UTF-32"
	}
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	if !bytes.HasPrefix(head, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(head, []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := string(head[:end])
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	if !strings.HasPrefix(rest, "=") {
		return ""
	}
	rest = strings.TrimLeft(rest[1:], " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	q := rest[0]
	rest = rest[1:]
	j := strings.IndexByte(rest, q)
	if j < 0 {
		return ""
	}
	enc := rest[:j]
	if strings.EqualFold(enc, "utf-8") || strings.EqualFold(enc, "utf8") {
		return ""
	}
	return enc
}

// charFilter passes UTF-8 text on, reporting invalid UTF-8 and characters
// XML forbids with their position and replacing each of their bytes with
// '?', so that positions after them stay right. When legacy (the document
// declares no encoding), bytes that are not UTF-8 are reported and passed
// on, for textenc to read as windows-1252.
type charFilter struct {
	r         io.Reader
	d         *doc
	carry     []byte
	line, col int
	eof       bool
	legacy    bool
}

func (c *charFilter) Read(p []byte) (int, error) {
	if len(p) < 8 {
		return 0, io.ErrShortBuffer
	}
	for {
		if c.eof && len(c.carry) == 0 {
			return 0, io.EOF
		}
		n := copy(p, c.carry)
		c.carry = c.carry[:0]
		if !c.eof {
			m, err := c.r.Read(p[n:])
			n += m
			if err != nil {
				c.eof = true
			}
		}
		// Keep an incomplete sequence at the end for the next read.
		keep := 0
		if !c.eof {
			for k := 1; k <= 3 && k <= n; k++ {
				if b := p[n-k]; b >= 0xC0 {
					if !utf8.FullRune(p[n-k : n]) {
						keep = k
					}
					break
				} else if b < 0x80 {
					break
				}
			}
		}
		out := p[:n-keep]
		c.carry = append(c.carry, p[n-keep:n]...)
		c.scan(out)
		if len(out) > 0 || c.eof {
			return len(out), nil
		}
	}
}

// scan checks and repairs b in place, keeping the position.
func (c *charFilter) scan(b []byte) {
	for i := 0; i < len(b); {
		ch := b[i]
		if ch < 0x80 {
			switch {
			case ch == '\n':
				c.line++
				c.col = 1
			case ch < 0x20 && ch != '\t' && ch != '\r':
				c.bad(1, "character U+%04X is not allowed in XML or text sitemaps", rune(ch))
				b[i] = '?'
				c.col++
			default:
				c.col++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1 && c.legacy:
			c.bad(0, "byte 0x%02X is not valid UTF-8 (no encoding is declared: read as windows-1252 %q, as the readers do)",
				ch, textenc.Windows1252(ch))
			size = 1
		case r == utf8.RuneError && size <= 1:
			c.bad(0, "byte 0x%02X is not valid UTF-8", ch)
			b[i] = '?'
			size = 1
		case r == 0xFFFE || r == 0xFFFF:
			c.bad(1, "character U+%04X is not allowed in XML", r)
			for k := range size {
				b[i+k] = '?'
			}
		}
		c.col += size
		i += size
	}
}

func (c *charFilter) bad(which int, format string, args ...any) {
	c.d.charCount[which]++
	if c.d.charCount[which] <= maxCharFindings {
		r := ruleInvalidUTF8
		if which == 1 {
			r = ruleInvalidChar
		}
		c.d.reportAt(r, c.line, c.col, format, args...)
	}
}
