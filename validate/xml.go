package validate

import (
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/nsscope"
)

// maxDepth is how deep elements may nest (libxml2's default limit too).
const maxDepth = 256

// maxText is how many bytes of an element's text are kept; longer text is
// only counted.
const maxText = 16 << 10

// frame is an open element.
type frame struct {
	def        *elemDef // nil: content not checked
	ns, name   string   // namespace and name as written (prefix included)
	raw        string   // the tag as written, for the end tag check
	line, col  int
	pi, count  int // position in def.seq and occurrences there
	text       []byte
	runes      int  // the characters of the text, once cut
	cut        bool // the text is longer than maxText
	bindings   int  // namespace bindings this element declared
	textWarned bool
}

// urlState is what is known of the url (or sitemap) element being read.
type urlState struct {
	loc        string // absolute URL, "" when missing or invalid
	key        string // its normal form
	hash       uint64 // the hash of key
	line, col  int
	images     int
	alternates int
	selfLink   bool
	hasNews    bool
}

// videoState is what is known of the video being read.
type videoState struct{ content, player bool }

// xmlCheck is the state of an XML document being checked.
type xmlCheck struct {
	stack    []frame
	ns       nsscope.Scope     // the namespace declarations in scope
	seenAttr map[xml.Name]bool // for the duplicate check of many attributes
	rootSeen bool
	rootDone bool
	coreNS   string // the namespace of the document's sitemap elements
	index    bool
	entries  int
	url      *urlState // nil outside a url or sitemap element; else &urlBuf
	urlBuf   urlState
	video    *videoState
	attrs    []xml.Attr // the attributes of the element being started
	seen     seenURL    // the URL checkSeen saw last
	locBuf   []byte     // the page's loc, reused from url to url (keepLoc)
	field    frame      // the field being checked whole (see doc.field)
	// The default namespace in scope, when defaultKnown (see resolve).
	defaultNS    string
	defaultKnown bool
}

// seenURL is a URL checkSeen saw, with its normal form and the hash of
// that, which the XML check uses again, and the length of the prefix of
// the normal form that is its normalize.ScopeKey (0 when unknown), as
// normalize's URLScope gives them.
type seenURL struct {
	loc, key string
	hash     uint64
	scope    int
}

// checkXML checks an XML sitemap or index (or XML of another kind, which
// root-element reports): the XML reader reads it, giving its tokens to
// the rules (xmlEvents).
func (d *doc) checkXML(r io.Reader) {
	if d.v.xmlElsewhere {
		// An Observation's tokens are checked; the text is read through
		// for the rules of its characters.
		io.Copy(io.Discard, r)
		return
	}
	d.x = &xmlCheck{}
	ev := &xmlEvents{d: d}
	rd := sitemapxml.NewObservedReader(r, formats.ReadOptions{Source: d.src.Name}, ev)
	for !ev.done {
		if _, err := rd.Next(); err != nil {
			return
		}
	}
}

// xmlEvents gives the tokens of the XML reader to the rules: it is the
// check's sitemapxml.Observer.
type xmlEvents struct {
	d    *doc
	done bool // the check stopped, or the document ended
}

// StartElement checks a start tag.
func (e *xmlEvents) StartElement(name xml.Name, attrs []xml.Attr, line, col int) bool {
	e.done = !e.d.startElement(name, attrs, line, col)
	return !e.done
}

// EndElement checks an end tag.
func (e *xmlEvents) EndElement(name xml.Name, line, col int) bool {
	e.done = !e.d.endElement(name, line, col)
	return !e.done
}

// keepLoc returns a copy of s, the loc of the url being read, which is
// all that keeps it (the url's state, the URL checkSeen saw last): the
// copy is in one buffer, reused from url to url, so that a page's loc
// costs no allocation. It is valid until the next url's loc is kept, and
// must not be handed out (see NormalForm).
func (x *xmlCheck) keepLoc(s string) string {
	x.locBuf = append(x.locBuf[:0], s...)
	return textView(x.locBuf)
}

// NormalForm returns the normal form of loc under the always-on rules
// alone, and the length of its prefix that is its normalize.ScopeKey (0
// when unknown), as (*normalize.Options)(nil).URLScope(loc) returns them,
// when the check computed them for loc as the url's loc it read last; ok
// is false otherwise. A converter that reads the document (convert
// --strict) takes them instead of computing them again. The key is loc
// itself or a string of its own, never the check's copy of the loc
// (keepLoc), which the next url's overwrites.
func (e *xmlEvents) NormalForm(loc string) (key string, scope int, ok bool) {
	x := e.d.x
	if x == nil || x.seen.key == "" || x.seen.loc != loc {
		return "", 0, false
	}
	if x.seen.key == x.seen.loc {
		return loc, x.seen.scope, true
	}
	return strings.Clone(x.seen.key), x.seen.scope, true
}

// SkipsSpace says that white space between the children of an entry has
// nothing to check (sitemapxml.SpaceObserver): the entries, url and
// sitemap, hold only elements, and their text is checked only when it is
// not white space (charData).
func (e *xmlEvents) SkipsSpace() {}

// CharData checks text.
func (e *xmlEvents) CharData(text []byte, line, col int) { e.d.charData(text, line, col) }

// ProcInst checks a processing instruction.
func (e *xmlEvents) ProcInst(target string, offset int64, line, col int) {
	if target == "xml" && offset > 0 {
		// As xmllint: white space, a comment or text before it
		// (a PHP warning) make the document not well-formed.
		e.d.reportAt(ruleXMLSyntax, line, col, "the XML declaration is not at the start of the document; only a byte order mark may come before it")
	}
}

// Directive checks a declaration.
func (e *xmlEvents) Directive(text []byte, line, col int) {
	if strings.HasPrefix(strings.TrimSpace(string(text)), "DOCTYPE") {
		e.d.reportAt(ruleDoctype, line, col, "a DOCTYPE declaration (its entities are not expanded)")
	}
}

// End checks the end of the document, or reports the error that stopped
// the reading.
func (e *xmlEvents) End(err error, line, col int) {
	e.done = true
	d := e.d
	switch {
	case err == nil:
		d.xmlEOF()
	case d.stopped:
	case errors.Is(err, sitemapxml.ErrLongTag):
		d.reportAt(ruleXMLSyntax, line, col, "%v; checking stopped here", err)
	default:
		msg := err.Error()
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			msg = se.Msg
		}
		d.reportAt(ruleXMLSyntax, line, col, "not well-formed XML: %s; checking stopped here", msg)
	}
}

// xmlEOF checks the end of the document.
func (d *doc) xmlEOF() {
	x := d.x
	if d.stopped {
		return
	}
	if !x.rootSeen {
		d.reportAt(ruleXMLSyntax, 0, 0, "no root element")
		return
	}
	if n := len(x.stack); n > 0 {
		f := x.stack[n-1]
		d.reportAt(ruleXMLSyntax, f.line, f.col, "the document ends inside <%s>", f.raw)
		return
	}
	if x.entries > formats.MaxURLs {
		what := "URLs"
		if x.index {
			what = "sitemaps"
		}
		d.reportAt(ruleTooManyURLs, 0, 0, "%d %s, more than %d", x.entries, what, formats.MaxURLs)
	}
	if d.news > formats.MaxNews {
		d.reportAt(ruleNewsCount, 0, 0, "%d URLs with news:news, more than 1,000", d.news)
	}
	d.info.URLs = x.entries
}

// resolve returns the namespace of a prefix, and whether it is declared.
func (x *xmlCheck) resolve(prefix string) (string, bool) {
	switch prefix {
	case "xml":
		return nsXML, true
	case "xmlns":
		return "", true
	case "":
		// Asked of nearly every element: looked up again only when the
		// declarations in scope changed.
		if !x.defaultKnown {
			x.defaultNS, _ = x.ns.Lookup("")
			x.defaultKnown = true
		}
		return x.defaultNS, true
	}
	if ns, ok := x.ns.Lookup(prefix); ok {
		return ns, true
	}
	return "", false
}

// nsChanged says that the declarations in scope changed.
func (x *xmlCheck) nsChanged() { x.defaultKnown = false }

// duplicateAttr returns the first attribute of attrs named as one before
// it, and false when there is none: pair by pair for a few attributes,
// with a set for more, so that the check is linear.
func (x *xmlCheck) duplicateAttr(attrs []xml.Attr) (xml.Name, bool) {
	if len(attrs) < 2 {
		return xml.Name{}, false
	}
	if len(attrs) <= 16 {
		for i, a := range attrs {
			for _, b := range attrs[:i] {
				if a.Name == b.Name {
					return a.Name, true
				}
			}
		}
		return xml.Name{}, false
	}
	if x.seenAttr == nil {
		x.seenAttr = map[xml.Name]bool{}
	}
	defer clear(x.seenAttr)
	for _, a := range attrs {
		if x.seenAttr[a.Name] {
			return a.Name, true
		}
		x.seenAttr[a.Name] = true
	}
	return xml.Name{}, false
}

func rawName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// startElement handles a start tag; false stops the check.
func (d *doc) startElement(name xml.Name, attrs []xml.Attr, line, col int) bool {
	t := xml.StartElement{Name: name, Attr: attrs}
	x := d.x
	if len(x.stack) >= maxDepth {
		d.reportAt(ruleXMLSyntax, line, col, "elements nested more than %d deep; checking stopped here", maxDepth)
		return false
	}
	if x.rootDone {
		d.reportAt(ruleXMLSyntax, line, col, "a second root element <%s>; checking stopped here", rawName(t.Name))
		return false
	}
	raw := rawName(t.Name)
	f := frame{raw: raw, name: raw, line: line, col: col}
	if name, dup := x.duplicateAttr(t.Attr); dup {
		d.reportAt(ruleXMLSyntax, line, col, "attribute %s given twice; checking stopped here", rawName(name))
		return false
	}
	for _, a := range t.Attr {
		switch {
		case a.Name.Space == "" && a.Name.Local == "xmlns":
			x.ns.Push("", a.Value)
			f.bindings++
		case a.Name.Space == "xmlns":
			x.ns.Push(a.Name.Local, a.Value)
			f.bindings++
		}
	}
	if f.bindings > 0 {
		x.nsChanged()
	}
	if x.ns.Len() > sitemapxml.MaxNamespaces {
		// What is kept of them stays bounded however deep they pile up.
		d.reportAt(ruleXMLSyntax, line, col, "more than %d namespace declarations in scope; checking stopped here", sitemapxml.MaxNamespaces)
		return false
	}
	ns, ok := x.resolve(t.Name.Space)
	if !ok {
		d.reportAt(ruleXMLSyntax, line, col, "the prefix %s of <%s> is not declared; checking stopped here", t.Name.Space, f.raw)
		return false
	}
	f.ns = ns
	for _, a := range t.Attr {
		if a.Name.Space != "" && a.Name.Space != "xmlns" {
			if _, ok := x.resolve(a.Name.Space); !ok {
				d.reportAt(ruleXMLSyntax, line, col, "the prefix %s of attribute %s is not declared; checking stopped here", a.Name.Space, rawName(a.Name))
				return false
			}
		}
	}
	var parent *frame
	if n := len(x.stack); n > 0 {
		parent = &x.stack[n-1]
	}
	switch {
	case parent == nil:
		x.rootSeen = true
		f.def = d.rootDef(t.Name.Local, ns, line, col)
	case parent.def == nil:
	default:
		f.def = d.child(parent, t.Name.Local, ns, f.raw, line, col)
	}
	d.open(&f, t.Attr)
	return true
}

// open checks the attributes of the element f, whose declaration is
// known, and opens it.
func (d *doc) open(f *frame, attrs []xml.Attr) {
	x := d.x
	d.checkDecl(f.def, attrs, f.raw, f.line, f.col)
	if n := len(x.stack); n < cap(x.stack) {
		f.text = x.stack[:n+1][n].text[:0] // the buffer of the last element closed at this depth
	}
	x.stack = append(x.stack, *f)
	top := &x.stack[len(x.stack)-1]
	if top.def != nil && top.def.start != nil {
		x.attrs = attrs
		top.def.start(d, top)
	}
}

// checkDecl checks an element of declaration def (nil: not checked) for
// its attributes and deprecation.
func (d *doc) checkDecl(def *elemDef, attrs []xml.Attr, raw string, line, col int) {
	if def != nil && (len(attrs)+len(def.attrs) > 0 || def.deprecated) {
		d.checkDeclared(def, attrs, raw, line, col) // inlined: most elements have nothing to check
	}
}

// checkDeclared is checkDecl of an element that has attributes, or whose
// declaration has attributes or is deprecated.
func (d *doc) checkDeclared(def *elemDef, attrs []xml.Attr, raw string, line, col int) {
	if len(attrs) > 0 || len(def.attrs) > 0 {
		d.checkAttrs(def, attrs, raw, line, col)
	}
	if def.deprecated {
		d.reportAt(ruleDeprecatedTag, line, col, "<%s> is deprecated; search engines ignore it", raw)
	}
}

// rootDef checks the root element and returns its declaration.
func (d *doc) rootDef(local, ns string, line, col int) *elemDef {
	x := d.x
	var def *elemDef
	switch local {
	case "urlset":
		def = defURLSet
		d.info.Format = "xml"
	case "sitemapindex":
		def = defSitemapIndex
		d.info.Format = "index"
		x.index = true
		if d.parentKind == parentIndex {
			d.reportAt(ruleIndexNested, line, col, "this sitemap index is listed by the index %s; its sitemaps are not checked", d.info.Parent)
		}
	default:
		d.info.Format = "xml"
		d.reportAt(ruleRootElement, line, col, "the root element is <%s>, not urlset or sitemapindex", local)
		return nil
	}
	x.coreNS = ns
	if ns != nsSitemap {
		what := "no namespace"
		if ns != "" {
			what = "the namespace " + ns
		}
		d.reportAt(ruleNamespace, line, col, "<%s> is in %s, not %s", local, what, nsSitemap)
	}
	return def
}

// child matches a child element against its parent's content model and
// returns its declaration (nil when it is not checked further).
func (d *doc) child(p *frame, local, ns, raw string, line, col int) *elemDef {
	x := d.x
	def := p.def
	if def.value != nil || def.seq == nil {
		d.reportMsg(ruleElementOrder, line, col, "<"+p.name+"> may not hold elements, but holds <"+raw+">")
		return nil
	}
	// target: the element is in its parent's namespace; other: the
	// ##other wildcard takes it.
	target := ns == p.ns
	other := !target && ns != "" && ns != x.coreNS && ns != nsSitemap
	for j := p.pi; j < len(def.seq); j++ {
		q := &def.seq[j]
		if !q.matches(local, target, other) {
			continue
		}
		if j == p.pi && p.count > 0 {
			if q.max != 0 && p.count >= q.max {
				continue // a repeat: the next particles may take it
			}
			p.count++
		} else {
			if j > p.pi+1 || j == p.pi+1 && p.count < def.seq[p.pi].min {
				d.missingBetween(p, j, line, col)
			}
			p.pi, p.count = j, 1
		}
		if q.any {
			return d.wildcard(local, ns, raw, line, col)
		}
		return q.def
	}
	// No particle from here on takes it.
	for j := 0; j < p.pi || j == p.pi && p.count > 0; j++ {
		if q := def.seq[j]; !q.any && q.matches(local, target, other) {
			if j == p.pi {
				d.reportMsg(ruleElementOrder, line, col, "<"+raw+"> is repeated in <"+p.name+">")
			} else {
				d.reportMsg(ruleElementOrder, line, col, "<"+raw+"> must come before <"+particleName(def.seq[p.pi])+"> in <"+p.name+">")
			}
			return nil
		}
	}
	switch {
	case target && !knownName(p, local), ns == "":
		d.reportMsg(ruleElementUnknown, line, col, "<"+raw+"> is not an element of <"+p.name+">")
	case target || ns == x.coreNS || ns == nsSitemap:
		d.reportMsg(ruleElementOrder, line, col, "<"+raw+"> is not allowed in <"+p.name+">")
	default:
		d.reportMsg(ruleElementOrder, line, col, "<"+raw+"> is not allowed after <"+particleName(def.seq[p.pi])+"> in <"+p.name+">")
	}
	return nil
}

// matches reports whether the particle q takes an element named local,
// in its parent's namespace (target) or one the ##other wildcard takes
// (other).
func (q *particle) matches(local string, target, other bool) bool {
	if q.any {
		return other
	}
	return target && q.def.name == local
}

// particleName names a particle in messages.
func particleName(q particle) string {
	if q.any {
		return "extension elements"
	}
	return q.def.name
}

// missingBetween reports the required particles skipped from p's current
// position up to (not including) particle j.
func (d *doc) missingBetween(p *frame, j, line, col int) {
	for k := p.pi; k < j; k++ {
		q := p.def.seq[k]
		have := 0
		if k == p.pi {
			have = p.count
		}
		if have < q.min {
			d.reportMissing(p, q, line, col)
		}
	}
}

func (d *doc) reportMissing(p *frame, q particle, line, col int) {
	r := p.def.missing
	if r == nil {
		r = ruleElementOrder
	}
	d.reportAt(r, line, col, "<%s> has no <%s>", p.name, particleName(q))
}

// wildcard returns the declaration of an element a ##other wildcard
// accepts: a global element of an extension schema (none in an index).
func (d *doc) wildcard(local, ns, raw string, line, col int) *elemDef {
	if !d.x.index {
		if def := globals[ns][local]; def != nil {
			return def
		}
	}
	if d.x.index {
		d.reportMsg(ruleElementUnknown, line, col, "<"+raw+"> (namespace "+ns+") is not declared by the sitemap index schema")
	} else {
		d.reportMsg(ruleElementUnknown, line, col, "<"+raw+"> (namespace "+ns+") is not declared by the sitemap or extension schemas")
	}
	return nil
}

// checkAttrs checks an element's attributes against its declaration.
func (d *doc) checkAttrs(def *elemDef, attrs []xml.Attr, raw string, line, col int) {
	seen := 0
	for _, a := range attrs {
		if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
			continue
		}
		if a.Name.Space != "" {
			ns, _ := d.x.resolve(a.Name.Space)
			if ns == nsXSI || def.anyAttr {
				continue
			}
			d.reportAt(ruleAttribute, line, col, "attribute %s is not allowed on <%s>", rawName(a.Name), raw)
			continue
		}
		if def.anyAttr {
			continue
		}
		var ad *attrDef
		for i := range def.attrs {
			if def.attrs[i].name == a.Name.Local {
				ad = &def.attrs[i]
			}
		}
		switch {
		case ad == nil:
			d.reportAt(ruleAttribute, line, col, "attribute %s is not allowed on <%s>", a.Name.Local, raw)
			continue
		case ad.check != nil && !ad.check(a.Value):
			d.reportAt(ruleExtensionValue, line, col, "attribute %s=%q of <%s> is not a valid value", a.Name.Local, clip(a.Value), raw)
		}
		if ad.deprecated {
			d.reportAt(ruleDeprecatedTag, line, col, "attribute %s of <%s> is deprecated; search engines ignore it", a.Name.Local, raw)
		}
		if ad.required {
			seen++
		}
	}
	for _, ad := range def.attrs {
		if ad.required && !hasAttr(attrs, ad.name) {
			d.reportAt(ruleAttribute, line, col, "<%s> needs the attribute %s", raw, ad.name)
		}
	}
}

func hasAttr(attrs []xml.Attr, name string) bool {
	for _, a := range attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return true
		}
	}
	return false
}

// attr returns the value of an unqualified attribute.
func attr(attrs []xml.Attr, name string) (string, bool) {
	for _, a := range attrs {
		if a.Name.Space == "" && a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

// charData handles text.
func (d *doc) charData(t []byte, line, col int) {
	x := d.x
	n := len(x.stack)
	if n == 0 {
		if !onlySpace(t) {
			d.reportAt(ruleXMLSyntax, line, col, "text outside the root element")
		}
		return
	}
	f := &x.stack[n-1]
	if f.def == nil {
		return
	}
	if f.def.value == nil {
		if !f.textWarned && !onlySpace(t) {
			f.textWarned = true
			d.reportAt(ruleElementOrder, line, col, "text in <%s>, which holds only elements", f.name)
		}
		return
	}
	switch {
	case f.cut:
		f.runes += utf8.RuneCount(t)
	case len(f.text)+len(t) <= maxText:
		f.text = append(f.text, t...) // runeCount counts them when asked
	default:
		// From here on the text is longer than what is kept of it: its
		// characters are counted as they come.
		f.cut = true
		f.runes = utf8.RuneCount(f.text) + utf8.RuneCount(t)
		f.text = append(f.text, t[:maxText-len(f.text)]...)
	}
}

// runeCount returns the number of characters of the element's text, all
// of it, kept or not.
func (f *frame) runeCount() int {
	if f.cut {
		return f.runes
	}
	return utf8.RuneCount(f.text)
}

// onlySpace reports whether t is only XML white space.
func onlySpace(t []byte) bool {
	for _, c := range t {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// endElement handles an end tag; false stops the check.
func (d *doc) endElement(name xml.Name, line, col int) bool {
	x := d.x
	n := len(x.stack)
	raw := rawName(name)
	if n == 0 || x.stack[n-1].raw != raw {
		want := "no open element"
		if n > 0 {
			want = "</" + x.stack[n-1].raw + "> expected"
		}
		d.reportAt(ruleXMLSyntax, line, col, "</%s> does not close an open element (%s); checking stopped here", raw, want)
		return false
	}
	f := &x.stack[n-1]
	if def := f.def; def != nil {
		switch {
		case def.value == nil:
		case def.transient:
			def.value(d, f, textView(f.text))
		default:
			def.value(d, f, string(f.text))
		}
		if def.seq != nil {
			d.missingBetween(f, len(def.seq), f.line, f.col)
		}
		if def.end != nil {
			def.end(d, f)
		}
	}
	if f.bindings > 0 {
		x.ns.PopTo(x.ns.Len() - f.bindings)
		x.nsChanged()
	}
	x.stack = x.stack[:n-1]
	if n == 1 {
		x.rootDone = true
	}
	return true
}

// textView returns the text b holds as a string without copying it: the
// string is valid while b is not changed, so it must not be kept
// (elemDef.transient).
func textView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
