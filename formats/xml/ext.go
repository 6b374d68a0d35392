package xml

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
	"github.com/feed2sitemap/feed2sitemap/internal/nsscope"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// Extension elements and foreign elements.
//
// A child element of an entry in a namespace other than the sitemap's is
// captured whole, as a list of tokens, and interpreted when it ends: an
// image:image, video:video, news:news, xhtml:link or mobile:mobile the
// model can hold goes into the entry's formats.Extensions; anything else
// (an element of a namespace the reader does not understand, or an
// extension element with a child, attribute or repetition the model has no
// field for) is kept verbatim, as self-contained XML text, in
// Extensions.Foreign. In a sitemap index, every such element is foreign.
// Only the general path captures: extension and foreign elements are
// outside the fast path's subset.

// The namespaces of the extensions the writer declares.
const (
	ImageNamespace  = extschema.ImageSpace
	VideoNamespace  = extschema.VideoSpace
	NewsNamespace   = extschema.NewsSpace
	XHTMLNamespace  = extschema.XHTMLSpace
	MobileNamespace = extschema.MobileSpace
)

// maxCapture is how many bytes of extension and foreign elements one entry
// may hold; the elements past it are dropped with a warning.
const maxCapture = MaxTextLength

// xmlNamespace is the namespace the xml: prefix is bound to.
const xmlNamespace = "http://www.w3.org/XML/1998/namespace"

// nsBinding is a namespace declaration: xmlns:prefix="uri", or
// xmlns="uri" for an empty prefix.
type nsBinding struct{ prefix, uri string }

// ctok is a captured token.
type ctok struct {
	kind      ctokKind
	name      xml.Name // of an element (namespace canonical), or a PI's target
	prefix    string   // the element's prefix in the document
	attrs     []cattr  // the element's attributes, without declarations
	data      string   // text, comment or PI instruction
	line, col int
}

// cattr is a captured attribute.
type cattr struct {
	name   xml.Name
	prefix string // for an attribute in a namespace
	value  string
}

type ctokKind uint8

const (
	ctokStart ctokKind = iota
	ctokEnd
	ctokText
	ctokComment
	ctokProcInst
)

// extension namespaces: each canonical URI, with the variants read as it.
var extensionSpaces = map[string]string{}

func init() {
	for _, ns := range []string{ImageNamespace, VideoNamespace, NewsNamespace, XHTMLNamespace, MobileNamespace} {
		rest := strings.TrimPrefix(ns, "http://")
		for _, v := range []string{ns, ns + "/", "https://" + rest, "https://" + rest + "/", extensionPrefixes[ns]} {
			extensionSpaces[v] = ns
		}
	}
}

// sitemapSpaces are the namespaces of the sitemap elements themselves.
var sitemapSpaces = map[string]bool{
	Namespace: true,
	"http://www.google.com/schemas/sitemap/0.84": true,
	"http://www.google.com/schemas/sitemap/0.9":  true,
}

// isCaptured reports whether an element of an entry in namespace space is
// captured: it is in an extension's namespace, or in a declared namespace
// other than the sitemap's.
func (r *Reader) isCaptured(space string) bool {
	if space == "" || space == r.rootSpace || sitemapSpaces[space] {
		return false
	}
	_, ext := extensionSpaces[space]
	return ext || strings.Contains(space, ":")
}

// declare takes the namespace declarations among attrs into scope.
func (r *Reader) declare(attrs []xml.Attr) {
	for _, a := range attrs {
		switch {
		case a.Name.Space == "xmlns":
			r.ns.Push(a.Name.Local, a.Value)
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			r.ns.Push("", a.Value)
		}
	}
}

// prefixOf returns the prefix bound to uri in the current scope, the
// innermost one; for an attribute only a non-empty one. ok is false when
// there is none.
func (r *Reader) prefixOf(uri string, attr bool) (prefix string, ok bool) {
	return r.ns.PrefixOf(uri, attr)
}

// beginCapture starts capturing the element at the current depth.
func (r *Reader) beginCapture(name xml.Name, attrs []xml.Attr, line, col int) {
	r.capDepth, r.capLine, r.capCol = r.depth, line, col
	r.capToks = r.capToks[:0]
	r.captureStart(name, attrs, line, col)
}

// captureStart captures a start element.
func (r *Reader) captureStart(name xml.Name, attrs []xml.Attr, line, col int) {
	t := ctok{kind: ctokStart, name: name, line: line, col: col}
	n := len(name.Local) + 8
	if name.Space != "" {
		if ns, ok := extensionSpaces[name.Space]; ok {
			t.name.Space = ns
		}
		if p, ok := r.prefixOf(name.Space, false); ok {
			t.prefix = p
		} else if !strings.Contains(name.Space, ":") {
			t.prefix = name.Space // an undeclared prefix
		}
	}
	for _, a := range attrs {
		if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
			continue
		}
		ca := cattr{name: a.Name, value: a.Value}
		if a.Name.Space != "" && a.Name.Space != xmlNamespace {
			ca.prefix, _ = r.prefixOf(a.Name.Space, true)
		}
		n += len(a.Name.Local) + len(a.Value) + 8
		t.attrs = append(t.attrs, ca)
	}
	r.captureSized(t, n)
}

// capture captures a text, comment or PI token of the element being
// captured; outside one, it does nothing.
func (r *Reader) capture(t ctok) {
	if r.capDepth > 0 {
		r.captureSized(t, len(t.data)+8)
	}
}

func (r *Reader) captureSized(t ctok, n int) {
	if r.capOver || r.capBytes+n > maxCapture {
		r.capOver = true
		return
	}
	r.capBytes += n
	r.capToks = append(r.capToks, t)
}

// endCapture captures the end of the element at depth d and, when it ends
// the captured element, interprets what was captured.
func (r *Reader) endCapture(d int) error {
	r.capture(ctok{kind: ctokEnd})
	if d != r.capDepth {
		return nil
	}
	r.capDepth = 0
	if r.capHead {
		return r.endHead()
	}
	if r.capOver {
		if r.capWarned {
			return nil
		}
		r.capWarned = true
		return r.warnf(r.capLine, r.capCol, false, "extension and foreign elements past %d MiB in one <%s> ignored", maxCapture>>20, r.entryName)
	}
	root, _ := buildNode(r.capToks, 0)
	if r.ext == nil {
		r.ext = &formats.Extensions{}
	}
	ok, err := r.interpret(root)
	if err != nil {
		return err
	}
	if !ok {
		// (In an index, the schema knows no extension: anything goes.)
		if why := unsafeVerbatim(root); why != "" && r.kind != formats.KindSitemap {
			return r.warnf(root.t.line, root.t.col, false, "<%s> dropped: %s; kept as it is, it would make the written sitemap invalid",
				root.qname(), why)
		}
		r.ext.Foreign = append(r.ext.Foreign, serialize(r.capToks))
		r.ext.ForeignAt = append(r.ext.ForeignAt, r.ext.Items())
	}
	return nil
}

// placeForeign ends the places of x's foreign elements, counted as they
// were read (Extensions.ForeignAt): none when every one came after all
// the extension items, the common case, which needs no place.
func placeForeign(x *formats.Extensions) {
	if x == nil || x.ForeignAt == nil {
		return
	}
	items := x.Items()
	for _, at := range x.ForeignAt {
		if at < items {
			return
		}
	}
	x.ForeignAt = nil
}

// isHead reports whether an element directly under the root in namespace
// space is a document-level foreign element, kept whole: it is in a
// declared namespace that is neither the sitemap's nor an extension's
// (ResourceSync's rs:md and rs:ln). An extension element there is outside
// every schema and stays an unknown element, ignored.
func (r *Reader) isHead(space string) bool {
	_, ext := extensionSpaces[space]
	return !ext && r.isCaptured(space)
}

// beginHead starts capturing a document-level foreign element, within the
// budget all of them share (maxCapture, as one entry's).
func (r *Reader) beginHead(name xml.Name, attrs []xml.Attr, line, col int) {
	r.capHead, r.capBytes, r.capOver = true, r.headBytes, false
	r.beginCapture(name, attrs, line, col)
}

// endHead keeps the document-level foreign element just captured.
func (r *Reader) endHead() error {
	r.capHead, r.headBytes = false, r.capBytes
	if r.capOver {
		if r.headWarned {
			return nil
		}
		r.headWarned = true
		return r.warnf(r.capLine, r.capCol, false, "foreign elements past %d MiB directly in <%s> ignored", maxCapture>>20, r.rootName)
	}
	r.head = append(r.head, serialize(r.capToks))
	return nil
}

// Head returns the foreign elements read so far directly under the root
// element, outside every entry (ResourceSync's rs:md and rs:ln), in
// document order, each verbatim, self-contained XML (formats.ExtraReader).
func (r *Reader) Head() []string { return r.head }

// LeftOut returns 0: a sitemap lists every entry it holds
// (formats.ExtraReader).
func (r *Reader) LeftOut() int { return 0 }

// unsafeVerbatim says why the element n, which the model cannot hold,
// cannot be kept verbatim either, or "" when it can: the schemas validate
// an element of an extension namespace against that extension's schema,
// so only what it accepts may be written. An element in an image, video,
// news or mobile namespace is not kept (the model holds every valid one
// but a second news:news or mobile:mobile); an xhtml:link only when it is
// empty, its attributes are the link's own and its href and hreflang are
// valid. (An element of a namespace no schema knows, a PageMap, is kept:
// search engines read them, though the official schemas' strict wildcards
// refuse them.)
func unsafeVerbatim(n *cnode) string {
	switch n.t.name.Space {
	case ImageNamespace, VideoNamespace, NewsNamespace, MobileNamespace:
		return "it is not as its extension's schema defines it, or is a second one"
	case XHTMLNamespace:
		if n.t.name.Local != "link" || len(n.kids) > 0 || uri.TrimSpace(strings.Join(n.text, "")) != "" {
			return "an XHTML element other than an empty link"
		}
		for _, at := range n.t.attrs {
			v := strings.Join(strings.Fields(at.value), " ")
			switch {
			case at.name.Space != "":
				return fmt.Sprintf("attribute %s:%s", at.name.Space, at.name.Local)
			case at.name.Local == "href":
				if p := uri.AnyURIProblem(v); p != "" {
					return "href " + p
				}
			case at.name.Local == "hreflang":
				if !vocab.IsLanguage(v) {
					return fmt.Sprintf("hreflang %q is not a language tag", clip([]byte(v)))
				}
			case !contains([]string{"rel", "rev", "media", "type", "title", "charset"}, at.name.Local):
				return fmt.Sprintf("attribute %s", at.name.Local)
			}
		}
	}
	return ""
}

// cnode is a captured element, as a tree.
type cnode struct {
	t    *ctok
	kids []*cnode
	text []string // its own text
}

// buildNode builds the tree of the element whose start token is toks[i]
// and returns it with the index after its end token.
func buildNode(toks []ctok, i int) (*cnode, int) {
	n := &cnode{t: &toks[i]}
	for i++; i < len(toks); {
		switch toks[i].kind {
		case ctokStart:
			var k *cnode
			k, i = buildNode(toks, i)
			n.kids = append(n.kids, k)
			continue
		case ctokEnd:
			return n, i + 1
		case ctokText:
			n.text = append(n.text, toks[i].data)
		}
		i++
	}
	return n, i
}

// attr returns the value of the attribute name.
func (n *cnode) attr(name string) string {
	for _, a := range n.t.attrs {
		if a.name.Local == name && a.name.Space == "" {
			return a.value
		}
	}
	return ""
}

// onlySpace reports whether the element has no text but space of its own
// and no attribute.
func (n *cnode) onlySpace() bool {
	return len(n.t.attrs) == 0 && uri.TrimSpace(strings.Join(n.text, "")) == ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// serialize writes captured tokens as self-contained XML: every element
// carries the namespace declarations its name and attributes need that no
// element around it (within the tokens) made, xmlns="" included for an
// element in no namespace.
func serialize(toks []ctok) string {
	var b strings.Builder
	var scope nsscope.Scope
	var marks, starts []int
	gen := 0
	bound := func(prefix, uri string) bool {
		// When nothing in the tokens binds prefix, it is declared, even
		// the empty default namespace (xmlns=""), since the document the
		// element is written into may have another default.
		u, ok := scope.Lookup(prefix)
		return ok && u == uri
	}
	for i := range toks {
		t := &toks[i]
		switch t.kind {
		case ctokStart:
			marks, starts = append(marks, scope.Len()), append(starts, i)
			b.WriteByte('<')
			if t.prefix != "" {
				b.WriteString(t.prefix)
				b.WriteByte(':')
			}
			b.WriteString(t.name.Local)
			var decls []nsBinding
			if !bound(t.prefix, t.name.Space) {
				decls = append(decls, nsBinding{t.prefix, t.name.Space})
				scope.Push(t.prefix, t.name.Space)
			}
			var attrs []byte
			for _, a := range t.attrs {
				attrs = append(attrs, ' ')
				switch {
				case a.name.Space == xmlNamespace:
					attrs = append(attrs, "xml:"...)
				case a.name.Space != "":
					p := a.prefix
					if p == "" || p == "xml" || p == "xmlns" {
						gen++
						p = "ns" + strconv.Itoa(gen)
					}
					if !bound(p, a.name.Space) {
						decls = append(decls, nsBinding{p, a.name.Space})
						scope.Push(p, a.name.Space)
					}
					attrs = append(attrs, p...)
					attrs = append(attrs, ':')
				}
				attrs = append(attrs, a.name.Local...)
				attrs = append(attrs, `="`...)
				attrs = appendEscapedXML(attrs, a.value, true)
				attrs = append(attrs, '"')
			}
			for _, d := range decls {
				b.WriteString(" xmlns")
				if d.prefix != "" {
					b.WriteByte(':')
					b.WriteString(d.prefix)
				}
				b.WriteString(`="`)
				b.Write(appendEscapedXML(nil, d.uri, true))
				b.WriteByte('"')
			}
			b.Write(attrs)
			if i+1 < len(toks) && toks[i+1].kind == ctokEnd {
				b.WriteString("/>")
				continue
			}
			b.WriteByte('>')
		case ctokEnd:
			j := len(marks) - 1
			s := &toks[starts[j]]
			scope.PopTo(marks[j])
			marks, starts = marks[:j], starts[:j]
			if i > 0 && toks[i-1].kind == ctokStart {
				continue // written as an empty-element tag
			}
			b.WriteString("</")
			if s.prefix != "" {
				b.WriteString(s.prefix)
				b.WriteByte(':')
			}
			b.WriteString(s.name.Local)
			b.WriteByte('>')
		case ctokText:
			b.Write(appendEscapedXML(nil, t.data, false))
		case ctokComment:
			if !strings.Contains(t.data, "--") && !strings.HasSuffix(t.data, "-") {
				b.WriteString("<!--")
				b.WriteString(t.data)
				b.WriteString("-->")
			}
		case ctokProcInst:
			if t.name.Local != "" && !strings.EqualFold(t.name.Local, "xml") && !strings.Contains(t.data, "?>") {
				b.WriteString("<?")
				b.WriteString(t.name.Local)
				if t.data != "" {
					b.WriteByte(' ')
					b.WriteString(t.data)
				}
				b.WriteString("?>")
			}
		}
	}
	return b.String()
}

// appendEscapedXML appends s to b escaped as XML text, or as an attribute
// value when attr is set, so that an XML reader reads s back: the five
// special characters, a carriage return (which a reader would turn into a
// line feed) and, in attributes, tabs and line feeds (which a reader would
// turn into spaces) are escaped; characters XML cannot hold (most control
// characters, invalid UTF-8) are replaced by U+FFFD.
func appendEscapedXML(b []byte, s string, attr bool) []byte {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		r, size := escapes[c], 1
		switch {
		case r != "":
		case c >= 0x80:
			rn, n := utf8.DecodeRuneInString(s[i:])
			size = n
			if (rn != utf8.RuneError || n > 1) && vocab.IsXMLChar(rn) {
				i += n
				continue
			}
			r = "\uFFFD"
		case c == '\r':
			r = "&#xD;"
		case attr && c == '\n':
			r = "&#xA;"
		case attr && c == '\t':
			r = "&#x9;"
		case c < 0x20 && c != '\n' && c != '\t':
			r = "\uFFFD"
		default:
			i++
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, r...)
		i += size
		last = i
	}
	return append(b, s[last:]...)
}
