package xml

import (
	"bytes"
	"encoding/xml"
	"strings"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// The fast path's prolog and root element: the XML declaration, names,
// attributes and the characters XML allows.

// isASCIIName reports whether name is an ASCII letter or '_' followed by
// ASCII letters, digits, '_', '-' and '.': a valid XML name.
func isASCIIName(name []byte) bool {
	for i, c := range name {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		case i > 0 && ('0' <= c && c <= '9' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return len(name) > 0
}

// xmlDeclOK reports whether c, the content of an XML declaration, is made
// of version, encoding and standalone pseudo-attributes with plain values,
// separated by space, with version 1.0.
func xmlDeclOK(c []byte) bool {
	for len(c) > 0 {
		eq := bytes.IndexByte(c, '=')
		if eq < 0 || eq+1 == len(c) {
			return false
		}
		name, quote := string(c[:eq]), c[eq+1]
		if name != "version" && name != "encoding" && name != "standalone" || quote != '"' && quote != '\'' {
			return false
		}
		v := c[eq+2:]
		end := bytes.IndexByte(v, quote)
		if end < 0 {
			return false
		}
		for _, ch := range v[:end] {
			if !('a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || ch == '.' || ch == '_' || ch == '-') {
				return false
			}
		}
		if name == "version" && string(v[:end]) != "1.0" {
			return false
		}
		c = v[end+1:]
		if len(c) > 0 && !isSpace(c[0]) {
			return false
		}
		c = bytes.TrimLeft(c, " \t\r\n")
	}
	return true
}

// prolog scans the document up to the end of the root start tag and, when
// it is in the subset, processes the root start tag. It never moves the
// hand-over point before that: the general path can always take over
// from the first byte.
func (s *scanner) prolog(r *Reader) (scanStatus, error) {
	b := s.buf
	p := 0
	s.pis = s.pis[:0]
	bom := "\xef\xbb\xbf"
	if len(b) < len(bom) && strings.HasPrefix(bom, string(b)) {
		return scanMore, nil
	}
	if bytes.HasPrefix(b, []byte(bom)) {
		p = len(bom)
	}
	for {
		p = s.space(p)
		if len(b)-p < 4 {
			return scanMore, nil
		}
		if b[p] != '<' {
			return scanOdd, nil
		}
		var st scanStatus
		switch {
		case b[p+1] == '?':
			p, st = s.procInst(p)
		case string(b[p:p+4]) == "<!--":
			p, st = s.comment(p)
		default:
			return s.rootStart(r, p)
		}
		if st != scanOK {
			return st, nil
		}
	}
}

// rootStart scans the root start tag at buf[p] and, when it is in the
// subset, processes it.
func (s *scanner) rootStart(r *Reader, p int) (scanStatus, error) {
	b := s.buf
	line, col := s.line, s.col(p)
	q, st := s.name(p + 1)
	if st != scanOK {
		return st, nil
	}
	root := lookupElem(b[p+1 : q])
	if root != elemURLSet && root != elemSitemapIndex {
		return scanOdd, nil
	}
	tag := append(s.rootTag[:0], '<')
	tag = append(tag, elemNames[root]...)
	space := ""
	decls := 0
	var attrs []xml.Attr // for the observer
	for {
		q = s.space(q)
		if q == len(b) {
			return scanMore, nil
		}
		if b[q] == '>' {
			q++
			break
		}
		// An attribute: name="value".
		n, st := s.name(q)
		if st != scanOK {
			return st, nil
		}
		name := b[q:n]
		if !isAttrName(name) {
			return scanOdd, nil
		}
		q = s.space(n)
		if q == len(b) {
			return scanMore, nil
		}
		if b[q] != '=' {
			return scanOdd, nil
		}
		q = s.space(q + 1)
		if q == len(b) {
			return scanMore, nil
		}
		quote := b[q]
		if quote != '"' && quote != '\'' {
			return scanOdd, nil
		}
		end := bytes.IndexByte(b[q+1:], quote)
		if end < 0 {
			return scanMore, nil
		}
		value := b[q+1 : q+1+end]
		xmlns := string(name) == "xmlns" || bytes.HasPrefix(name, []byte("xmlns:"))
		if !attrValueOK(value, xmlns) {
			return scanOdd, nil
		}
		s.newlines(q+1, q+1+end)
		q += end + 2
		if s.observed {
			attrs = append(attrs, rawAttr(name, value))
		}
		if xmlns {
			if decls++; decls > MaxNamespaces {
				return scanOdd, nil // the general path's error
			}
			// Only namespace declarations matter to the general path.
			tag = append(tag, ' ')
			tag = append(tag, name...)
			tag = append(tag, '=', '"')
			tag = append(tag, value...)
			tag = append(tag, '"')
			if string(name) == "xmlns" {
				space = string(value)
			}
		}
	}
	if isExtension(space) {
		return scanOdd, nil
	}
	if space == Namespace {
		space = Namespace // the same string, compared by its pointer first
	}
	s.rootTag = append(tag, ">\n"...)
	s.root, s.ns = root, space
	s.entry = elemURL
	if root == elemSitemapIndex {
		s.entry = elemSitemap
	}
	s.p = q
	s.commit()
	s.inRoot = true
	s.observePIs(r)
	if r.obs != nil && !r.obs.StartElement(xml.Name{Local: elemNames[root]}, attrs, line, col) {
		r.obs = nil
	}
	return scanOK, r.start(xml.Name{Space: space, Local: elemNames[root]}, nil, line, col)
}

// isAttrName reports whether name is a plain ASCII name with at most one
// colon, inside it.
func isAttrName(name []byte) bool {
	local := name
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		if !isASCIIName(name[:i]) {
			return false
		}
		local = name[i+1:]
	}
	return isASCIIName(local)
}

// attrValueOK reports whether value, an attribute value without its
// quotes, is in the subset: valid characters and no '<' or '&'; for a
// namespace declaration, printable ASCII without quotes, so that it can be
// copied as it is into the synthetic root tag.
func attrValueOK(v []byte, xmlns bool) bool {
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case c == '<' || c == '&':
			return false
		case xmlns && (c < ' ' || c >= 0x7f || c == '"' || c == '\''):
			return false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(v[i:])
			if r == utf8.RuneError && size == 1 || !vocab.IsXMLChar(r) {
				return false
			}
			i += size
			continue
		case c < ' ' && c != '\t' && c != '\n' && c != '\r':
			return false
		}
		i++
	}
	return true
}

// rawAttr returns the attribute name="value" of a root start tag in the
// subset as encoding/xml's RawToken gives it: the name split at its colon
// and the value's line ends normalized.
func rawAttr(name, value []byte) xml.Attr {
	a := xml.Attr{Name: xml.Name{Local: string(name)}, Value: string(value)}
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		a.Name = xml.Name{Space: string(name[:i]), Local: string(name[i+1:])}
	}
	if strings.IndexByte(a.Value, '\r') >= 0 {
		a.Value = strings.ReplaceAll(strings.ReplaceAll(a.Value, "\r\n", "\n"), "\r", "\n")
	}
	return a
}
