package feed

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/mmcdole/gofeed/atom"
	"github.com/mmcdole/gofeed/rss"
	xpp "github.com/mmcdole/goxpp/v2"

	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// damage is a problem with the structure of a feed, found when parsing it
// and reported after the items read before it.
type damage struct {
	line, col int
	msg       string
	kind      damageKind
}

// damageKind says how damage is reported.
type damageKind uint8

const (
	// warned: the items are whole, something around them was ignored.
	warned damageKind = iota
	// cutShort: the document ends early; the items before the cut are
	// intact, and the error matches formats.ErrDamaged.
	cutShort
	// malformed: the document is broken in the middle; the error is not
	// formats.ErrDamaged, for what was read cannot be trusted.
	malformed
)

// scan is what a quick pass of the XML tokenizer found in a feed: its root,
// where its items are, and where it is damaged.
type scan struct {
	root      string     // local name of the root element, lower-cased
	rootLang  string     // xml:lang of the root element
	itemLines []int      // line of each item or entry element, in order
	itemLangs []langAttr // xml:lang in scope of each item or entry, in order
	// itemHTML says, for each Atom entry in order, which of its title,
	// summary and content are HTML by their type attribute.
	itemHTML []atomTypes
	// cut is the offset just after the last complete item or entry
	// before the damage, and closers the end tags of the elements still
	// open there; cut is 0 when there is none.
	cut     int
	closers []string
	// err is damage that stops gofeed: nil when there is none.
	err       error
	line, col int
	truncated bool // the damage is the end of the input
	inItem    bool // the input ended inside an item or entry
	// refused is set when err is a limit of guard.go the feed goes past:
	// the feed is refused whole.
	refused bool
	// spans are the offsets of the start and the end of each outermost
	// item or entry element, in order (see chunk.go).
	spans [][2]int
	// trailing is the line of content after the end of the root element,
	// which gofeed ignores; 0 when there is none. strayEnd is the end tag
	// that closed the root when it matched no open element.
	trailing, trailingCol int
	strayEnd              string
	strayLine, strayCol   int
}

// itemName returns the local name of the items of a feed whose root element
// has the local name root (lower-cased): "entry" for Atom, else "item".
func itemName(root string) string {
	if root == "feed" {
		return "entry"
	}
	return "item"
}

// rawName writes an element name as the document does.
func rawName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// scanXML finds what scan holds of the input: with fastScan when the
// document is in the subset of XML it knows, else with slowScan.
func scanXML(in *input) *scan {
	if s, ok := fastScan(in); ok {
		return s
	}
	return slowScan(in)
}

// slowScan tokenizes the input as gofeed's decoder does (not strict),
// without building anything, to check its depth, to know where the items
// are and how to close the document after the last complete one, and to
// find damage gofeed passes over in silence.
//
// It follows the decoder's recovery from a mismatched end tag: the tag
// closes the open element instead, and is then tried again on the element
// above, so that </description> closes an unclosed <br> and then the
// description. An end tag that matches no open element thus closes them all,
// root included, and gofeed stops there.
func slowScan(in *input) *scan {
	d := xml.NewDecoder(in.reader(0, in.Len()))
	d.Strict = false
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	sc := newScanner(in.Len())
	s := sc.s
	pos := d.InputPos
	for {
		after := s.root != "" && len(sc.stack) == 0
		var line, col int
		if after {
			line, col = d.InputPos() // where the next token starts
		}
		off := int(d.InputOffset())
		tok, err := d.RawToken()
		if after {
			// After the root element: gofeed reads no further.
			if err == io.EOF {
				return s
			}
			cd, isText := tok.(xml.CharData)
			switch tok.(type) {
			case xml.Comment, xml.ProcInst, xml.Directive:
				continue
			}
			if err == nil && isText && len(bytes.TrimSpace(cd)) == 0 {
				continue
			}
			s.trailing, s.trailingCol = line, col
			return s
		}
		if err != nil {
			if err == io.EOF && len(sc.stack) == 0 {
				return s
			}
			s.line, s.col = d.InputPos()
			s.err = err
			var syn *xml.SyntaxError
			if errors.As(err, &syn) {
				s.err = errors.New(syn.Msg) // the line is given apart
			}
			// The input is cut short when the tokenizer ran out of it, or
			// failed on its last bytes: a token cut in two ("<![CD").
			rest := min(int(d.InputOffset()), in.Len())
			if err == io.EOF || errors.As(err, &syn) && (strings.Contains(syn.Msg, "EOF") || in.spaceOnly(rest, in.Len())) {
				s.truncated = true
				s.inItem = sc.items > 0
			}
			return s
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := sc.start(t, off, pos); err != nil {
				s.line, s.col = d.InputPos()
				s.err, s.refused = err, true
				return s
			}
		case xml.EndElement:
			if err := sc.end(t.Name, pos); err != nil {
				s.line, s.col = d.InputPos()
				s.err = err
				return s
			}
			if sc.closedItem {
				sc.closeItem(int(d.InputOffset()))
			}
		}
	}
}

// scanner is the state of a scan, which slowScan and fastScan share: they
// hand it the elements of the document in order.
type scanner struct {
	s     *scan
	stack []xml.Name
	// langs is the xml:lang in scope of each open element below the root
	// (the root's is the feed's language).
	langs     []langAttr
	g         *guard
	items     int    // item or entry elements open
	itemTag   string // their local name
	itemDepth int    // depth of the innermost open item or entry
	// closedItem says the last end element closed an item or entry.
	closedItem bool
}

// newScanner returns the scanner of a document of size bytes.
func newScanner(size int) *scanner {
	return &scanner{s: &scan{}, g: newGuard(size)}
}

// start handles a start element that begins at offset off; pos gives the
// line and column just after its start tag. It returns the limit of
// guard.go the element goes past, if it does.
func (sc *scanner) start(t xml.StartElement, off int, pos func() (int, int)) error {
	s := sc.s
	opens := sc.items == 0 && sc.itemTag != "" && strings.EqualFold(t.Name.Local, sc.itemTag)
	if err := sc.g.start(t, sc.items > 0, opens); err != nil {
		return err
	}
	if opens {
		s.spans = append(s.spans, [2]int{off, -1})
	}
	lang, hasLang := xmlLang(t)
	if len(sc.stack) == 0 {
		s.root = strings.ToLower(t.Name.Local)
		s.rootLang = lang
		sc.itemTag = itemName(s.root)
		sc.langs = append(sc.langs, langAttr{})
	} else if hasLang {
		sc.langs = append(sc.langs, langAttr{value: lang, set: true})
	} else {
		sc.langs = append(sc.langs, sc.langs[len(sc.langs)-1])
	}
	if sc.items > 0 && len(sc.stack) == sc.itemDepth && s.root == "feed" {
		s.itemHTML[len(s.itemHTML)-1].set(t)
	}
	sc.stack = append(sc.stack, t.Name)
	if strings.EqualFold(t.Name.Local, sc.itemTag) {
		sc.items++
		sc.itemDepth = len(sc.stack)
		line, _ := pos()
		s.itemLines = append(s.itemLines, line)
		s.itemLangs = append(s.itemLangs, sc.langs[len(sc.langs)-1])
		s.itemHTML = append(s.itemHTML, atomTypes{})
	}
	return nil
}

// end handles an end element named name; pos gives the line and column
// just after its end tag. It sets closedItem when the element closes an
// item or entry, and returns an error when the tag is malformed.
func (sc *scanner) end(name xml.Name, pos func() (int, int)) error {
	s := sc.s
	sc.closedItem = false
	for len(sc.stack) > 0 {
		top := sc.stack[len(sc.stack)-1]
		if top.Local == name.Local && top.Space != name.Space {
			return fmt.Errorf("element <%s> closed by </%s>", rawName(top), rawName(name))
		}
		sc.stack = sc.stack[:len(sc.stack)-1]
		sc.langs = sc.langs[:len(sc.stack)]
		sc.g.end()
		if strings.EqualFold(top.Local, sc.itemTag) && sc.items > 0 {
			sc.items--
			sc.closedItem = true
		}
		if top.Local == name.Local {
			break
		}
		if len(sc.stack) == 0 {
			s.strayEnd = rawName(name)
			s.strayLine, s.strayCol = pos()
		}
	}
	return nil
}

// closeItem records that an item or entry was closed by an end tag that
// ends at offset cut: the last complete item is there, and so is the end
// of its span.
func (sc *scanner) closeItem(cut int) {
	s := sc.s
	s.cut = cut
	if n := len(s.spans); sc.items == 0 && n > 0 && s.spans[n-1][1] < 0 {
		s.spans[n-1][1] = s.cut // (a root named item has no span)
	}
	s.closers = s.closers[:0]
	for i := len(sc.stack) - 1; i >= 0; i-- {
		s.closers = append(s.closers, rawName(sc.stack[i]))
	}
}

// atomTypes says which text constructs of an Atom entry are HTML.
type atomTypes struct {
	title, summary, content bool
}

// set records whether t, a child element of an entry, is an HTML text
// construct: type "html", "xhtml" or an HTML media type (Atom 0.3). Only
// unprefixed elements (or atom:) count.
func (a *atomTypes) set(t xml.StartElement) {
	var typ string
	for _, at := range t.Attr {
		if at.Name.Local == "type" {
			typ = strings.ToLower(at.Value)
		}
	}
	isHTML := strings.Contains(typ, "html")
	if t.Name.Space != "" && t.Name.Space != "atom" {
		return // media:content, media:title…
	}
	switch strings.ToLower(t.Name.Local) {
	case "title":
		a.title = isHTML
	case "summary":
		a.summary = isHTML
	case "content":
		a.content = isHTML
	}
}

// langAttr is the xml:lang in scope of an element: set when it or an
// ancestor below the root has the attribute, whose value may be "" (the
// language is unknown, XML 1.0 2.12: not the feed's).
type langAttr struct {
	value string
	set   bool
}

// xmlLang returns the xml:lang attribute of an element, and whether it has
// one.
func xmlLang(t xml.StartElement) (string, bool) {
	for _, a := range t.Attr {
		if a.Name.Space == "xml" && a.Name.Local == "lang" {
			return uri.TrimSpace(a.Value), true
		}
	}
	return "", false
}

// xmlDecl matches an XML declaration, to make it declare UTF-8; it is
// looked for after the white space (as the regular expression \s knows
// it) that starts the document.
var xmlDecl = regexp.MustCompile(`^<\?xml[^>]*?\?>`)

// prepare makes the input, the reader's own, ready for gofeed, in place
// but for a declaration too short to rewrite where it stands: it declares
// UTF-8 (the content is UTF-8 already, whatever the declaration says) and
// replaces the C0 control characters XML forbids with spaces, as the
// decoding of formats.Open does (a separator: two URLs a vertical tab
// splits stay two), so that scanXML sees what gofeed sees.
func prepare(in *input) {
	// The declaration ends at the first '>', if it is there.
	start := in.skip(0, " \t\n\f\r")
	if end := in.index(start, '>'); end >= 0 {
		if m := xmlDecl.FindIndex(in.slice(start, end+1)); m != nil && bytes.Contains(in.slice(start, start+m[1]), []byte("encoding")) {
			const decl = `<?xml version="1.0" encoding="UTF-8"?>`
			if m[1] += start; m[1] >= len(decl) {
				// In place, the input being the reader's own: no copy of
				// a large feed.
				in.trimFront(m[1] - len(decl))
				in.put(0, []byte(decl))
			} else {
				in.trimFront(m[1])
				in.prepend([]byte(decl))
			}
		}
	}
	for _, blk := range in.blocks {
		for i, b := range blk {
			if b < 0x20 && b != '\t' && b != '\n' && b != '\r' {
				blk[i] = ' '
			}
		}
	}
}

// parseXML parses an RSS, RDF or Atom feed into r.items, salvaging the items
// of a damaged one.
func (r *Reader) parseXML(in *input) error {
	prepare(in)
	s := scanXML(in)
	if s.refused {
		return r.opts.Errorf(s.line, s.col, "%v", s.err)
	}
	var parse func(io.Reader) ([]item, meta, error)
	switch s.root {
	case "rss", "rdf":
		parse = parseRSS
	case "feed":
		parse = parseAtom
	case "":
		if s.err != nil {
			return r.opts.Errorf(s.line, s.col, "not a feed: %v", s.err)
		}
		return r.opts.Errorf(0, 0, "not a feed: XML with no root element")
	default:
		return r.opts.Errorf(0, 0, "not a feed: XML with root element <%s>", s.root)
	}
	items, m, err := r.parseChunked(in, s, parse)
	if err != nil {
		if s.err == nil {
			// Well-formed, but not as gofeed expects a feed.
			line, col := r.errPos(in, err)
			return r.opts.Errorf(line, col, "not a valid feed: %v", err)
		}
		if items, m, err = r.salvage(in, s, parse); err != nil {
			return err
		}
	}
	switch {
	case r.tail != nil:
	case s.trailing > 0 && s.strayEnd != "":
		// An end tag that matched nothing ended the feed early.
		r.tail = &damage{line: s.strayLine, col: s.strayCol, kind: malformed, msg: fmt.Sprintf(
			"malformed XML: end tag </%s> matches no open element and ends the feed; the %s before it were read",
			s.strayEnd, plural(len(items), "item"))}
	case s.trailing > 0:
		r.tail = &damage{line: s.trailing, col: s.trailingCol, msg: fmt.Sprintf(
			"content after the end of the <%s> element ignored", s.root)}
	}
	if len(s.itemLines) == len(items) || r.chunks != nil {
		fixItems(items, 0, s)
	}
	r.items = items
	r.base = r.resolveBase(m.self, m.links)
	r.lang = m.lang
	if r.lang == "" {
		r.lang = s.rootLang
	}
	return nil
}

// meta is what a feed says about itself that its items inherit.
type meta struct {
	links []string // the feed's own links, against which items resolve
	self  []string // the feed's self links, against which links resolve
	lang  string   // the feed's language
}

// salvage parses the items complete before the damage scan found. A feed
// cut short at the end gives its items, then an error that matches
// formats.ErrDamaged; one malformed in the middle gives its items, then an
// error that does not. One with no complete item gives the error at once.
func (r *Reader) salvage(in *input, s *scan, parse func(io.Reader) ([]item, meta, error)) ([]item, meta, error) {
	d := &damage{line: s.line, col: s.col, kind: malformed, msg: fmt.Sprintf("malformed XML: %v", s.err)}
	if s.truncated {
		d.kind = cutShort
		d.msg = "document cut short at the end"
		if s.inItem {
			d.msg += ", inside an item (dropped)"
		}
	}
	var items []item
	var m meta
	if s.cut > 0 {
		var closers strings.Builder
		for _, name := range s.closers {
			closers.WriteString("</" + name + ">")
		}
		items, m, _ = parse(io.MultiReader(in.reader(0, s.cut), strings.NewReader(closers.String())))
	}
	if len(items) == 0 {
		d.msg += ", before any complete item"
		return nil, meta{}, r.damageError(d)
	}
	if d.kind == cutShort {
		d.msg += fmt.Sprintf(", after %s", plural(len(items), "complete item"))
	} else {
		d.msg += fmt.Sprintf("; the %s before it were read", plural(len(items), "item"))
	}
	r.tail = d
	return items, m, nil
}

// damageError returns the error that reports d.
func (r *Reader) damageError(d *damage) error {
	err := r.opts.Errorf(d.line, d.col, "%s", d.msg)
	if d.kind == cutShort {
		return source.Damaged(err)
	}
	return err
}

// errPos finds the line and column of a gofeed error in the input, when it
// says.
func (r *Reader) errPos(in *input, err error) (int, int) {
	var syn *xml.SyntaxError
	if errors.As(err, &syn) {
		return syn.Line, 0
	}
	var exp *xpp.ExpectError
	if errors.As(err, &exp) {
		return in.position(exp.Offset)
	}
	return 0, 0
}

// parseRSS parses RSS 0.9x–2.0 or RDF and returns its items, its channel
// links and its language (<language>, else dc:language).
func parseRSS(doc io.Reader) ([]item, meta, error) {
	f, err := (&rss.Parser{}).Parse(doc)
	if err != nil {
		return nil, meta{}, err
	}
	items := make([]item, len(f.Items))
	for i, it := range f.Items {
		items[i] = rssItem(it)
	}
	m := meta{links: f.Links, lang: f.Language}
	if len(m.links) == 0 && f.Link != "" {
		m.links = []string{f.Link}
	}
	for _, l := range f.Extensions["atom"]["link"] {
		if strings.EqualFold(uri.TrimSpace(l.Attrs["rel"]), "self") {
			m.self = append(m.self, l.Attrs["href"])
		}
	}
	if dc := f.DublinCoreExt; m.lang == "" && dc != nil && len(dc.Language) > 0 {
		m.lang = dc.Language[0]
	}
	return items, m, nil
}

// parseAtom parses Atom 0.3 or 1.0 and returns its entries, the feed's
// alternate links and its xml:lang.
func parseAtom(doc io.Reader) ([]item, meta, error) {
	f, err := (&atom.Parser{}).Parse(doc)
	if err != nil {
		return nil, meta{}, err
	}
	items := make([]item, len(f.Entries))
	for i, e := range f.Entries {
		items[i] = atomEntry(e)
	}
	m := meta{lang: f.Language}
	for _, l := range f.Links {
		switch {
		case isAlternate(l.Rel):
			m.links = append(m.links, l.Href)
		case strings.EqualFold(uri.TrimSpace(l.Rel), "self"):
			m.self = append(m.self, l.Href)
		}
	}
	return items, m, nil
}

// parseJSON parses a JSON Feed into r.items (see jsonfeed.go).
func (r *Reader) parseJSON(data []byte) error {
	f, items, err := r.decodeJSONFeed(data)
	if err != nil {
		return err
	}
	r.items = make([]item, 0, len(items))
	for _, it := range items {
		if it.item == nil {
			r.items = append(r.items, item{why: "it is " + it.notObject + ", not an object"})
			continue
		}
		r.items = append(r.items, jsonItem(it.item))
	}
	r.base = r.resolveBase([]string{f.FeedURL}, []string{f.HomePageURL})
	r.lang = f.Language
	return nil
}

// plural returns "1 item", "2 items".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
