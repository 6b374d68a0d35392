package feed

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// The fast scan.
//
// slowScan reads the document with encoding/xml, which allocates every
// token and reads a byte at a time through a reader: it took as long as a
// third of gofeed's own parse. fastScan reads the documents feeds are
// made of, a subset of XML, with a scanner of its own that only looks for
// the tags, and hands what it finds to the same scanner state (start,
// end, closeItem) with the same names, attributes, offsets and lines, so
// that its scan is the one slowScan would make. At anything outside the
// subset it gives up, and slowScan reads the document from the start: the
// subset is what encoding/xml certainly reads without an error, so that
// the fast scan never has to say where or why a document is damaged.
//
// The subset: text of valid UTF-8 characters that XML allows, without
// "]]>", whose '&' each start an entity reference (a name of ASCII letters,
// digits, '_', '.' and '-' that starts with a letter or '_') or a
// character reference of an allowed character, ending with ';'; comments
// without "--" but the one that ends them; CDATA sections of allowed
// characters; processing instructions (an XML declaration only of version
// 1.0, in UTF-8); start tags whose names are ASCII (at most one ':', not
// first or last) and whose attributes are each name="value" or
// name='value', their values text without '<' and, for xml:lang and type
// (which the scan reads), without '&'; end tags that close the element
// open, by the same name; after the root element, only white space,
// comments and processing instructions. Not in it: a DOCTYPE or other
// declaration, a document without a root element, or one that ends before
// its root element does.

// fastScan scans the input as slowScan does, when it is in the subset;
// false when it is not.
func fastScan(in *input) (*scan, bool) {
	f := &fastScanner{in: in, sc: newScanner(in.Len()), line: 1, names: map[string]xml.Name{}}
	if !f.run() {
		return nil, false
	}
	return f.sc.s, true
}

// fastScanner is the state of a fast scan.
type fastScanner struct {
	in *input
	sc *scanner
	// end is the offset just after the last token read.
	end int
	// line is the line of the byte at lineOff.
	line, lineOff int
	// blk is the block of the input that starts at offset blkStart, the
	// last one looked at.
	blk      []byte
	blkStart int
	attrs    []xml.Attr          // the attributes of the element read, reused
	names    map[string]xml.Name // the names read, by their bytes (maxNames at most)
}

// run reads the whole input and reports whether it is in the subset.
func (f *fastScanner) run() bool {
	s, n := f.sc.s, f.in.Len()
	off := 0
	for off < n {
		after := s.root != "" && len(f.sc.stack) == 0
		if c, _ := f.byteAt(off); c != '<' {
			end := f.indexByte(off, '<')
			if end < 0 {
				end = n
			}
			text := f.view(off, end)
			if after && len(bytes.TrimSpace(text)) > 0 || !after && (!validText(text, true) || bytes.Contains(text, []byte("]]>"))) {
				return false
			}
			off = end
			continue
		}
		next := f.view(off, min(off+len("<![CDATA["), n))
		var ok bool
		switch {
		case bytes.HasPrefix(next, []byte("<!--")):
			off, ok = f.comment(off)
		case bytes.HasPrefix(next, []byte("<?")):
			off, ok = f.procInst(off)
		case after:
			return false
		case bytes.HasPrefix(next, []byte("<![CDATA[")):
			off, ok = f.cdata(off)
		case bytes.HasPrefix(next, []byte("</")):
			off, ok = f.endTag(off)
		case bytes.HasPrefix(next, []byte("<!")):
			return false
		default:
			off, ok = f.startTag(off)
		}
		if !ok {
			return false
		}
		f.end = off
	}
	return s.root != "" && len(f.sc.stack) == 0
}

// pos returns the line just after the last token read, as the decoder's
// InputPos does, and no column: the scanner asks for the line of items
// only.
func (f *fastScanner) pos() (int, int) {
	f.in.each(f.lineOff, f.end, func(p []byte) bool {
		f.line += bytes.Count(p, []byte("\n"))
		return true
	})
	f.lineOff = f.end
	return f.line, 0
}

// byteAt returns the byte at offset p; false past the end.
func (f *fastScanner) byteAt(p int) (byte, bool) {
	if p < f.blkStart || p >= f.blkStart+len(f.blk) {
		if p >= f.in.Len() {
			return 0, false
		}
		i := f.in.block(p)
		f.blk, f.blkStart = f.in.blocks[i], f.in.starts[i]
	}
	return f.blk[p-f.blkStart], true
}

// indexByte returns the offset of the first c from offset p on; -1 when
// there is none.
func (f *fastScanner) indexByte(p int, c byte) int {
	if p >= f.blkStart && p < f.blkStart+len(f.blk) {
		if i := bytes.IndexByte(f.blk[p-f.blkStart:], c); i >= 0 {
			return p + i
		}
	}
	return f.in.index(p, c)
}

// view returns bytes a to b, which must be in the input.
func (f *fastScanner) view(a, b int) []byte {
	if a >= f.blkStart && b <= f.blkStart+len(f.blk) {
		return f.blk[a-f.blkStart : b-f.blkStart]
	}
	return f.in.slice(a, b)
}

// find returns the offset of the first sep from offset p on; -1 when there
// is none.
func (f *fastScanner) find(p int, sep string) int {
	for {
		i := f.indexByte(p, sep[0])
		if i < 0 || i+len(sep) > f.in.Len() {
			return -1
		}
		if string(f.view(i, i+len(sep))) == sep {
			return i
		}
		p = i + 1
	}
}

// space returns the offset of the first byte from p on that is not XML
// white space.
func (f *fastScanner) space(p int) int {
	for {
		switch c, _ := f.byteAt(p); c {
		case ' ', '\t', '\n', '\r':
			p++
		default:
			return p
		}
	}
}

// comment reads the comment at off and returns the offset after it.
func (f *fastScanner) comment(off int) (int, bool) {
	dashes := f.find(off+len("<!--"), "--")
	if dashes < 0 {
		return 0, false
	}
	if c, _ := f.byteAt(dashes + 2); c != '>' {
		return 0, false
	}
	return dashes + 3, true
}

// cdata reads the CDATA section at off and returns the offset after it.
func (f *fastScanner) cdata(off int) (int, bool) {
	start := off + len("<![CDATA[")
	end := f.find(start, "]]>")
	if end < 0 || !validText(f.view(start, end), false) {
		return 0, false
	}
	return end + 3, true
}

// xmlDeclContent matches what the XML declaration may say in the subset:
// version 1.0, in UTF-8 (prepare made it say so when it named another
// encoding).
var xmlDeclContent = regexp.MustCompile(`^version=(?:"1\.0"|'1\.0')(?:[ \t\r\n]+encoding=(?:"(?i:utf-8)"|'(?i:utf-8)'))?(?:[ \t\r\n]+standalone=(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\r\n]*$`)

// procInst reads the processing instruction at off and returns the offset
// after it.
func (f *fastScanner) procInst(off int) (int, bool) {
	target, p, ok := f.name(off + 2)
	if !ok {
		return 0, false
	}
	p = f.space(p)
	end := f.find(p, "?>")
	if end < 0 {
		return 0, false
	}
	if target.Space == "" && target.Local == "xml" && !xmlDeclContent.Match(f.view(p, end)) {
		return 0, false
	}
	return end + 2, true
}

// endTag reads the end tag at off, which must close the element open, and
// returns the offset after it.
func (f *fastScanner) endTag(off int) (int, bool) {
	name, p, ok := f.name(off + 2)
	if !ok {
		return 0, false
	}
	p = f.space(p)
	if c, _ := f.byteAt(p); c != '>' {
		return 0, false
	}
	sc := f.sc
	if len(sc.stack) == 0 || sc.stack[len(sc.stack)-1] != name {
		return 0, false
	}
	f.end = p + 1
	return f.end, f.closed(name)
}

// closed hands the scanner the end of the element named name, which is the
// one open, at f.end.
func (f *fastScanner) closed(name xml.Name) bool {
	if err := f.sc.end(name, f.pos); err != nil {
		return false
	}
	if f.sc.closedItem {
		f.sc.closeItem(f.end)
	}
	return true
}

// startTag reads the start tag at off and returns the offset after it.
func (f *fastScanner) startTag(off int) (int, bool) {
	name, p, ok := f.name(off + 1)
	if !ok {
		return 0, false
	}
	attrs := f.attrs[:0]
	empty := false
	for {
		p = f.space(p)
		c, ok := f.byteAt(p)
		if !ok {
			return 0, false
		}
		if c == '/' {
			if c, _ := f.byteAt(p + 1); c != '>' {
				return 0, false
			}
			p, empty = p+2, true
			break
		}
		if c == '>' {
			p++
			break
		}
		a := xml.Attr{}
		if a.Name, p, ok = f.name(p); !ok {
			return 0, false
		}
		p = f.space(p)
		if c, _ := f.byteAt(p); c != '=' {
			return 0, false
		}
		p = f.space(p + 1)
		quote, _ := f.byteAt(p)
		if quote != '"' && quote != '\'' {
			return 0, false
		}
		end := f.indexByte(p+1, quote)
		if end < 0 {
			return 0, false
		}
		v := f.view(p+1, end)
		if bytes.IndexByte(v, '<') >= 0 || !validText(v, true) {
			return 0, false
		}
		if a.Name.Space == "xml" && a.Name.Local == "lang" || a.Name.Local == "type" {
			// Read by the scan: as the decoder gives it, when it has no
			// reference to decode.
			if bytes.IndexByte(v, '&') >= 0 || bytes.IndexByte(v, '\r') >= 0 {
				return 0, false
			}
			a.Value = string(v)
		}
		attrs = append(attrs, a)
		p = end + 1
	}
	f.attrs = attrs
	f.end = p
	if err := f.sc.start(xml.StartElement{Name: name, Attr: attrs}, off, f.pos); err != nil {
		return 0, false
	}
	if empty && !f.closed(name) {
		return 0, false
	}
	return p, true
}

// name reads the name at p, and returns it and the offset after it.
func (f *fastScanner) name(p int) (xml.Name, int, bool) {
	start := p
	colon := -1
	for ; ; p++ {
		c, ok := f.byteAt(p)
		if !ok || c >= utf8.RuneSelf {
			return xml.Name{}, 0, false
		}
		if !isNameByte(c) {
			break
		}
		if c == ':' {
			if colon >= 0 {
				return xml.Name{}, 0, false
			}
			colon = p - start
		}
	}
	raw := f.view(start, p)
	if len(raw) == 0 || !isNameStart(raw[0]) || colon == len(raw)-1 {
		return xml.Name{}, 0, false
	}
	if n, ok := f.names[string(raw)]; ok {
		return n, p, true
	}
	key := string(raw)
	n := xml.Name{Local: key}
	if colon > 0 {
		n = xml.Name{Space: key[:colon], Local: key[colon+1:]}
	}
	if len(f.names) < maxNames {
		f.names[key] = n
	}
	return n, p, true
}

// maxNames is how many names a fast scan keeps to read again without
// allocating them: a feed uses a few dozen.
const maxNames = 1024

// isNameByte reports whether c may be in a name, as encoding/xml reads
// names (ASCII only).
func isNameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-'
}

// isNameStart reports whether c may start a name in the subset.
func isNameStart(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_'
}

// validText reports whether t, the text of an element or an attribute
// value (refs: its references are decoded) or a CDATA section, is text
// encoding/xml reads without an error: characters XML allows, and each '&'
// a reference the subset knows. (Text must not hold "]]>" either.)
func validText(t []byte, refs bool) bool {
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '&' && refs:
			n := reference(t[i:])
			if n == 0 {
				return false
			}
			i += n
		case c < utf8.RuneSelf:
			// prepare made every C0 control but tab, LF and CR a space.
			i++
		default:
			r, size := utf8.DecodeRune(t[i:])
			if r == utf8.RuneError && size == 1 || !vocab.IsXMLChar(r) {
				return false
			}
			i += size
		}
	}
	return true
}

// reference returns the length of the reference t starts with, ';'
// included; 0 when it is not one the subset knows.
func reference(t []byte) int {
	end := bytes.IndexByte(t, ';')
	if end < 2 {
		return 0
	}
	ref := t[1:end]
	if ref[0] == '#' {
		digits, base := ref[1:], 10
		if len(digits) > 0 && digits[0] == 'x' {
			digits, base = digits[1:], 16
		}
		if len(digits) == 0 || len(digits) > 6 {
			return 0
		}
		r := 0
		for _, c := range digits {
			var d int
			switch {
			case '0' <= c && c <= '9':
				d = int(c - '0')
			case base == 16 && 'a' <= c && c <= 'f':
				d = int(c-'a') + 10
			case base == 16 && 'A' <= c && c <= 'F':
				d = int(c-'A') + 10
			default:
				return 0
			}
			r = r*base + d
		}
		if r > utf8.MaxRune || !vocab.IsXMLChar(rune(r)) {
			return 0
		}
		return end + 1
	}
	if !isNameStart(ref[0]) {
		return 0
	}
	for _, c := range ref {
		if !isNameByte(c) || c == ':' {
			return 0
		}
	}
	return end + 1
}
