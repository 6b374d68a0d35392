package xml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
	"github.com/feed2sitemap/feed2sitemap/internal/nsscope"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// MaxDepth is how deep elements may nest; a deeper document is an error.
const MaxDepth = 64

// MaxTextLength is the longest run of input without a '<' the reader
// accepts, in bytes; a longer one (a huge text node) is an error, so that
// the XML decoder never buffers more than this.
const MaxTextLength = 4 << 20

// MaxNamespaces is how many namespace declarations may be in scope at
// once, over an element and all those around it; more is an error, so
// that what the reader keeps of them stays bounded however deep they pile
// up (a sitemap declares a handful, on its root).
const MaxNamespaces = 1000

// maxValue is how many bytes of one value (or of an entry's bare text) the
// reader keeps; the rest is dropped and the value treated as too long.
const maxValue = 16 << 10

// Format is the registered XML sitemap format.
var Format = formats.Register(&formats.Format{
	Name:        "xml",
	Description: "XML sitemap (urlset) or sitemap index (sitemapindex), sitemaps.org 0.9; any namespace or prefix when reading",
	Detect:      detect,
	NewReader:   func(r io.Reader, o formats.ReadOptions) formats.Reader { return NewReader(r, o) },
	NewEncoder:  func(o formats.WriteOptions) formats.Encoder { return NewEncoder(o) },
	Extensions:  []string{".xml"},
	Carries:     formats.ExtAll | formats.ExtForeign,
	Sitemap:     true,
	Index:       "xml",
	Tidy:        true,
	Scoped:      true,
	Nests:       true,
})

// detect accepts XML whose root element is urlset or sitemapindex, in any
// namespace.
func detect(prefix []byte) bool {
	s := sniff.Of(prefix)
	return s.Content == sniff.XML && (s.Root == "urlset" || s.Root == "sitemapindex")
}

// role is what an open element is to the reader.
type role uint8

const (
	roleSkip      role = iota // content ignored
	roleRoot                  // the urlset or sitemapindex
	roleEntry                 // the <url> or <sitemap> being read
	roleDeadEntry             // an entry rejected because another opened inside it
	roleField                 // loc, lastmod, changefreq or priority of the entry
	roleCapture               // an extension or foreign element of the entry, or inside one
)

// field is an entry's child element the reader keeps.
type field uint8

const (
	fieldLoc field = 1 << iota
	fieldLastMod
	fieldChangeFreq
	fieldPriority
)

func (f field) String() string {
	switch f {
	case fieldLoc:
		return "loc"
	case fieldLastMod:
		return "lastmod"
	case fieldChangeFreq:
		return "changefreq"
	}
	return "priority"
}

// Reader reads the entries of an XML sitemap or sitemap index.
type Reader struct {
	d    *xml.Decoder // the general path; nil while the fast scanner reads
	raw  *rawText     // the general path's input, in lenient mode; else nil
	fast *scanner     // the fast path; nil once the general path took over
	in   io.Reader    // what the reader reads, given back by Release
	opts formats.ReadOptions
	err  error // once set, Next returns it

	// The observing (see observe.go): obs is nil when the reader is not
	// observed, or no longer; observed says it was observed from the start.
	// In strict syntax, open holds the raw names of the open elements
	// after a sentinel; it is nil otherwise.
	obs      Observer
	fieldObs FieldObserver // obs, when it takes fields whole
	noSpace  bool          // obs is a SpaceObserver
	observed bool
	open     []xml.Name
	rules    func() error // the first error of the registered rules (see RegisterRules), or nil

	// Where the general path took over part-way (see handOver): the
	// decoder's input starts with a synthetic root start tag of prefixLen
	// bytes, after which its line 2 is line atLine of the document,
	// starting at column atCol. atLine is 0 when the decoder reads the
	// document from its first byte.
	atLine, atCol int
	prefixLen     int64
	handedAt      int64 // input offset where the general path took over; -1 if it did not

	kind      formats.Kind
	entryName string // "url" or "sitemap"
	wrongName string // the entry element of the other kind
	rootName  string
	rootSeen  bool
	rootDone  bool
	depth     int
	roles     [MaxDepth + 1]role
	entries   int // entries returned

	// The entry being read.
	entryDepth         int // 0 when none is open
	entryLine, entryCl int
	e                  formats.Entry
	seen               field // fields met so far
	dupLoc             bool
	locErr             error
	locLine, locCol    int
	field              field
	fieldLine, fieldCl int
	val                []byte
	valOver            bool
	bare               []byte
	bareOver           bool
	bareAmp            looseAmp // the first bare '&' of the bare text

	// A bare '&' was warned about in the text since the last start or end
	// element.
	ampWarned bool

	// Namespace declarations in scope: ns holds them in document order,
	// nsMark[d] how many were in scope before the element at depth d.
	ns        nsscope.Scope
	nsMark    [MaxDepth + 1]int
	rootSpace string // the root element's namespace

	// The extension data of the entry being read (see ext.go).
	ext       *formats.Extensions
	capDepth  int    // depth of the element being captured; 0 when none
	capToks   []ctok // its tokens
	capBytes  int    // bytes captured for the entry so far
	capOver   bool   // the entry's capture budget is spent
	capWarned bool   // and that was said
	capLine   int    // where the element being captured starts
	capCol    int
	imagesCut int // images dropped over formats.MaxImages

	// The document-level foreign elements (see ext.go).
	head       []string
	headBytes  int  // their capture budget spent so far
	capHead    bool // the element being captured is one of them
	headWarned bool // their budget was spent, and that was said

	// What was skipped, for the warnings.
	unknown       map[string]bool
	doctypeWarned bool
}

// NewReader returns a reader of the XML sitemap or sitemap index r, which
// must be UTF-8 (formats.Open decodes other charsets first), observed by
// opts.Observer when it is an Observer (see NewObservedReader).
func NewReader(r io.Reader, opts formats.ReadOptions) *Reader {
	o, _ := opts.Observer.(Observer)
	return newReader(r, opts, fastBufSize, o)
}

// newReader returns a reader, observed by o unless it is nil, that starts
// on the fast path with a buffer of bufSize bytes, or on the general path
// when bufSize is 0.
func newReader(r io.Reader, opts formats.ReadOptions, bufSize int, o Observer) *Reader {
	var rules func() error
	if o == nil && opts.Strict && registered != nil {
		o, rules = registered(opts)
	}
	rd := &Reader{in: r, opts: opts, val: make([]byte, 0, 256), handedAt: -1, obs: o, observed: o != nil, rules: rules}
	rd.fieldObs, _ = o.(FieldObserver)
	_, rd.noSpace = o.(SpaceObserver)
	if rd.syntaxStrict() {
		rd.open = make([]xml.Name, 1, 16)
	}
	if bufSize > 0 {
		rd.fast = newScanner(r, bufSize, rd.syntaxStrict())
		rd.fast.observed = rd.observed
	} else {
		rd.d, rd.raw = newDecoder(rd.bound(r, 0), rd.syntaxStrict())
		rd.handedAt = 0
	}
	return rd
}

// Release gives the buffers the reader and its input were built with
// back, for the readers made after it (formats.Releaser); it must not be
// used after. What it returned stays valid: the strings of its entries
// are copies.
func (r *Reader) Release() {
	if r.fast != nil {
		scanBuffers.Put(r.fast.buf)
		r.fast.buf, r.fast.src = nil, nil
		r.fast.err = bufpool.ErrReleased
	}
	if in, ok := r.in.(formats.Releaser); ok {
		in.Release()
	}
	r.in, r.fast, r.d, r.raw = nil, nil, nil, nil
	r.err = bufpool.ErrReleased
}

// Next returns the next entry, or io.EOF after the last one. Entries of a
// urlset have Kind formats.KindURL, those of a sitemap index
// formats.KindSitemap. Any other error, always a *formats.ParseError, ends
// the stream.
func (r *Reader) Next() (formats.Entry, error) {
	e, err := r.next()
	if r.rules != nil && (err == nil || err == io.EOF) {
		if rerr := r.rules(); rerr != nil {
			return r.fail(rerr)
		}
	}
	return e, err
}

// next is Next but for the registered rules.
func (r *Reader) next() (formats.Entry, error) {
	if r.err != nil {
		return formats.Entry{}, r.err
	}
	if r.fast != nil {
		e, handed, err := r.nextFast()
		switch {
		case handed:
			// Go on below, on the general path.
		case err == io.EOF:
			return formats.Entry{}, err
		case err != nil:
			return r.fail(err)
		default:
			r.entries++
			return e, nil
		}
	}
	for {
		line, col := r.inputPos()
		r.raw.begin(r.d.InputOffset())
		tok, err := r.token(line, col)
		if err != nil {
			return r.fail(r.readError(err, line, col))
		}
		if r.rootDone {
			if err := r.afterRoot(tok, line, col); err != nil {
				return r.fail(err)
			}
			continue
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := r.start(t.Name, t.Attr, line, col); err != nil {
				return r.fail(err)
			}
		case xml.EndElement:
			e, ok, err := r.end()
			if err != nil {
				return r.fail(err)
			}
			if ok {
				r.entries++
				return e, nil
			}
		case xml.CharData:
			if err := r.text(t, r.raw.looseAmp(line, col)); err != nil {
				return r.fail(err)
			}
		case xml.Comment:
			r.capture(ctok{kind: ctokComment, data: string(t)})
		case xml.ProcInst:
			r.capture(ctok{kind: ctokProcInst, name: xml.Name{Local: t.Target}, data: string(t.Inst)})
		case xml.Directive:
			if err := r.directive(t, line, col); err != nil {
				return r.fail(err)
			}
		}
	}
}

func (r *Reader) fail(err error) (formats.Entry, error) {
	r.err = err
	r.drain()
	return formats.Entry{}, err
}

func (r *Reader) warn(line, col int, skipped bool, err error) error {
	return r.opts.Warning(line, col, skipped, err)
}

func (r *Reader) warnf(line, col int, skipped bool, format string, args ...any) error {
	return r.opts.Warningf(line, col, skipped, format, args...)
}

// readError turns an error of the decoder into the error Next returns:
// io.EOF after a complete document, a *formats.ParseError otherwise.
func (r *Reader) readError(err error, line, col int) error {
	var syn *xml.SyntaxError
	switch {
	case err == io.EOF && r.rootDone:
		return io.EOF
	case err == io.EOF && !r.rootSeen:
		return r.opts.Errorf(line, col, "no root element: not a sitemap")
	case errors.As(err, &syn):
		if r.rootDone {
			// Garbage after the document: not worth failing for.
			if werr := r.warnf(line, col, false, "content after the root element ignored"); werr != nil {
				return werr
			}
			return io.EOF
		}
		line, col = r.inputPos()
		if syn.Msg == "unexpected EOF" {
			// Cut short: what came before is intact.
			return &formats.ParseError{Source: r.opts.Source, Line: line, Column: col, Err: source.Damaged(fmt.Errorf(
				"XML syntax error: unexpected EOF (document cut short?); reading stopped after %s", plural(r.entries, "entry", "entries")))}
		}
		return &formats.ParseError{Source: r.opts.Source, Line: line, Column: col,
			Err: fmt.Errorf("XML syntax error: %s; reading stopped after %s", syn.Msg, plural(r.entries, "entry", "entries"))}
	case err == io.EOF:
		return &formats.ParseError{Source: r.opts.Source, Line: line, Column: col, Err: source.Damaged(fmt.Errorf(
			"document ends inside <%s> (cut short?); reading stopped after %s", r.rootName, plural(r.entries, "entry", "entries")))}
	}
	line, col = r.inputPos()
	return &formats.ParseError{Source: r.opts.Source, Line: line, Column: col,
		Err: fmt.Errorf("reading stopped after %s: %w", plural(r.entries, "entry", "entries"), err)}
}

// afterRoot handles what follows the end of the root element: space,
// comments and processing instructions are fine; anything else ends the
// reading with a warning.
func (r *Reader) afterRoot(tok xml.Token, line, col int) error {
	switch t := tok.(type) {
	case xml.CharData:
		if len(bytes.TrimSpace(t)) == 0 {
			return nil
		}
	case xml.Comment, xml.ProcInst:
		return nil
	}
	if err := r.warnf(line, col, false, "content after the root element ignored"); err != nil {
		return err
	}
	return io.EOF
}

// directive handles a <!DOCTYPE> or other declaration. Nothing in it is
// expanded or fetched; entity declarations earn a warning.
func (r *Reader) directive(t xml.Directive, line, col int) error {
	if r.doctypeWarned || !bytes.Contains(t, []byte("<!ENTITY")) && !bytes.Contains(t, []byte("ENTITY ")) {
		return nil
	}
	r.doctypeWarned = true
	return r.warnf(line, col, false, "DOCTYPE entity declarations ignored (nothing is expanded)")
}

// start handles a start element at line and column. Both paths call it,
// with the element's name and attributes as encoding/xml gives them
// (namespaces resolved, namespace declarations among the attributes); the
// fast path never gives attributes.
func (r *Reader) start(name xml.Name, attrs []xml.Attr, line, col int) error {
	if r.depth == MaxDepth {
		return r.opts.Errorf(line, col, "elements nested more than %d deep", MaxDepth)
	}
	r.depth++
	d := r.depth
	r.roles[d] = roleSkip
	r.ampWarned = false
	r.nsMark[d] = r.ns.Len()
	if len(attrs) > 0 {
		r.declare(attrs)
		if r.ns.Len() > MaxNamespaces {
			return r.opts.Errorf(line, col, "more than %d namespace declarations in scope", MaxNamespaces)
		}
	}
	local := name.Local
	if r.capDepth > 0 && (r.capHead || local != r.entryName || !r.isCore(name.Space)) {
		r.roles[d] = roleCapture
		r.captureStart(name, attrs, line, col)
		return nil
	}
	if d == 1 {
		r.rootSpace = name.Space
		switch local {
		case "urlset":
			r.kind, r.entryName, r.wrongName = formats.KindURL, "url", "sitemap"
		case "sitemapindex":
			r.kind, r.entryName, r.wrongName = formats.KindSitemap, "sitemap", "url"
		default:
			return r.opts.Errorf(line, col, "root element <%s> is not <urlset> or <sitemapindex>", local)
		}
		r.rootName, r.rootSeen = local, true
		r.roles[1] = roleRoot
		return nil
	}
	if local == r.entryName && r.isCore(name.Space) {
		if r.entryDepth > 0 {
			// A missing end tag: the entry open so far is not trusted.
			for i := r.entryDepth + 1; i < d; i++ {
				if r.roles[i] == roleField || r.roles[i] == roleCapture {
					r.roles[i] = roleSkip
				}
			}
			r.capDepth = 0
			r.roles[r.entryDepth] = roleDeadEntry
			if err := r.warnf(r.entryLine, r.entryCl, true,
				"<%s> not closed before the next <%s> at line %d: entry rejected", local, local, line); err != nil {
				return err
			}
		}
		r.openEntry(d, line, col)
		return nil
	}
	switch parent := r.roles[d-1]; parent {
	case roleRoot:
		if local == r.wrongName && r.isCore(name.Space) {
			return r.warnf(line, col, true, "<%s> inside <%s> skipped: a sitemap cannot mix pages and child sitemaps", local, r.rootName)
		}
		if r.isHead(name.Space) {
			r.roles[d] = roleCapture
			r.beginHead(name, attrs, line, col)
			return nil
		}
		return r.other(name, line, col)
	case roleEntry, roleDeadEntry:
		if r.isCaptured(name.Space) {
			if parent == roleEntry {
				r.roles[d] = roleCapture
				r.beginCapture(name, attrs, line, col)
			}
			return nil
		}
		if isExtension(name.Space) || !r.isCore(name.Space) {
			// Named like a field, but another namespace's (or an
			// undeclared prefix's): not the field.
			return r.other(name, line, col)
		}
		f := fieldOf(local, r.kind)
		if f == 0 {
			return r.other(name, line, col)
		}
		if parent == roleDeadEntry {
			return nil
		}
		if r.seen&f != 0 {
			if f == fieldLoc {
				r.dupLoc = true
				return nil
			}
			return r.warnf(line, col, false, "second <%s> in one <%s> ignored", local, r.entryName)
		}
		r.seen |= f
		r.field, r.fieldLine, r.fieldCl = f, line, col
		r.val, r.valOver = r.val[:0], false
		r.roles[d] = roleField
	case roleField:
		return r.other(name, line, col)
	}
	return nil
}

// isCore reports whether an element in namespace space can be one of the
// sitemap's own elements (an entry, loc, lastmod…): it is in no namespace,
// the root element's or a sitemap namespace. An element in another
// namespace, or under a prefix not declared (which encoding/xml leaves as
// the namespace), is extension data whatever its local name, so that
// <x:loc xmlns:x="urn:other"> is never a second loc nor <x:url> an entry.
func (r *Reader) isCore(space string) bool {
	return space == "" || space == r.rootSpace || sitemapSpaces[space]
}

// fieldOf returns the field an element of an entry names, or 0.
func fieldOf(local string, k formats.Kind) field {
	switch local {
	case "loc":
		return fieldLoc
	case "lastmod":
		return fieldLastMod
	case "changefreq":
		if k == formats.KindURL {
			return fieldChangeFreq
		}
	case "priority":
		if k == formats.KindURL {
			return fieldPriority
		}
	}
	return 0
}

// openEntry starts reading an entry whose element opened at depth d.
func (r *Reader) openEntry(d, line, col int) {
	r.roles[d] = roleEntry
	r.entryDepth, r.entryLine, r.entryCl = d, line, col
	r.e = formats.Entry{Kind: r.kind}
	r.seen, r.dupLoc, r.locErr = 0, false, nil
	r.bare, r.bareOver, r.bareAmp = r.bare[:0], false, looseAmp{}
	r.ext, r.capBytes, r.capOver, r.capWarned, r.imagesCut = nil, 0, false, false, 0
}

// extensionPrefixes maps the namespaces of the sitemap extensions to the
// prefixes they are usually bound to. An undeclared prefix stands for
// itself.
var extensionPrefixes = map[string]string{
	"http://www.google.com/schemas/sitemap-image/1.1":  "image",
	"http://www.google.com/schemas/sitemap-video/1.1":  "video",
	"http://www.google.com/schemas/sitemap-news/0.9":   "news",
	"http://www.google.com/schemas/sitemap-mobile/1.0": "mobile",
	"http://www.w3.org/1999/xhtml":                     "xhtml",
	"image":                                            "image",
	"video":                                            "video",
	"news":                                             "news",
	"mobile":                                           "mobile",
	"xhtml":                                            "xhtml",
}

func isExtension(space string) bool {
	if space == "" || space == Namespace {
		return false
	}
	_, ok := extensionPrefixes[space]
	return ok
}

// other handles an element the reader does not keep: it is skipped with
// its content, counted when it is an extension and warned about once per
// name otherwise.
func (r *Reader) other(elem xml.Name, line, col int) error {
	parent := r.roles[r.depth-1]
	name := elem.Local
	if p, ok := extensionPrefixes[elem.Space]; ok && elem.Space != "" {
		name = p + ":" + name
	} else if !r.isCore(elem.Space) {
		name = elem.Space + ":" + name
	}
	if r.unknown[name] {
		return nil
	}
	if r.unknown == nil {
		r.unknown = map[string]bool{}
	}
	if len(r.unknown) >= 100 {
		return nil // enough said
	}
	r.unknown[name] = true
	in := r.rootName
	switch parent {
	case roleEntry, roleDeadEntry:
		in = r.entryName
	case roleField:
		in = r.field.String()
	}
	if parent == roleRoot && r.kind == formats.KindURL && r.entryLine == 0 && isExtensionTop(elem) {
		// The schema allows an extension's top element before the first
		// entry, where it belongs to no page: a note, not an error in
		// strict mode.
		r.opts.Note(line, col, fmt.Errorf("unknown element <%s> in <%s> ignored", name, in))
		return nil
	}
	return r.warnf(line, col, false, "unknown element <%s> in <%s> ignored", name, in)
}

// isExtensionTop reports whether elem is the top element of an extension
// (image:image, video:video...), which the schema's wildcard accepts in a
// urlset.
func isExtensionTop(elem xml.Name) bool {
	for _, x := range extschema.Extensions {
		if elem.Space == x.Space && elem.Local == x.Name {
			return true
		}
	}
	return false
}

// text handles character data, in which amp is the first bare '&' or
// undeclared entity, if any. Both paths call it with the text as
// encoding/xml gives it (references decoded, line ends normalized).
func (r *Reader) text(t xml.CharData, amp looseAmp) error {
	switch r.roles[r.depth] {
	case roleCapture:
		r.capture(ctok{kind: ctokText, data: string(t)})
		return r.warnAmp(amp)
	case roleField:
		r.val, r.valOver = appendBounded(r.val, t, r.valOver)
		return r.warnAmp(amp)
	case roleEntry:
		if r.depth == r.entryDepth {
			r.bare, r.bareOver = appendBounded(r.bare, t, r.bareOver)
			if r.bareAmp.ref == "" {
				r.bareAmp = amp
			}
		}
	}
	return nil
}

// warnAmp warns about the bare '&' or undeclared entity amp, if any,
// unless the text of the element being read already had one.
func (r *Reader) warnAmp(amp looseAmp) error {
	if amp.ref == "" || r.ampWarned {
		return nil
	}
	r.ampWarned = true
	return r.warnf(amp.line, amp.col, false, "bare \"&\" or undeclared entity kept as it is: %q (write &amp;)", amp.ref)
}

func appendBounded(b, t []byte, over bool) ([]byte, bool) {
	if over || len(b)+len(t) > maxValue {
		return b, true
	}
	return append(b, t...), false
}

// end handles an end element. It returns the entry when the element
// completes one.
func (r *Reader) end() (formats.Entry, bool, error) {
	d := r.depth
	role := r.roles[d]
	r.depth--
	r.ampWarned = false
	r.ns.PopTo(r.nsMark[d])
	switch role {
	case roleCapture:
		return formats.Entry{}, false, r.endCapture(d)
	case roleField:
		return formats.Entry{}, false, r.endField()
	case roleEntry:
		return r.endEntry()
	case roleRoot:
		r.rootDone = true
	}
	return formats.Entry{}, false, nil
}

// endField parses the value of the field just closed into the entry.
func (r *Reader) endField() error {
	f, line, col := r.field, r.fieldLine, r.fieldCl
	r.field = 0
	if f == fieldLoc {
		r.locLine, r.locCol = line, col
		if r.valOver {
			r.locErr = fmt.Errorf("<loc> skipped: %w", reason.Of(formats.ErrLocTooLong))
			return nil
		}
		loc, err := formats.ParseLoc(string(r.val), r.opts.Base)
		if err != nil {
			r.locErr = fmt.Errorf("<loc> skipped: %w", err)
			return nil
		}
		r.e.Loc = loc
		return nil
	}
	if r.valOver {
		return r.warnf(line, col, false, "<%s> ignored: value longer than %d bytes", f, maxValue)
	}
	switch f {
	case fieldLastMod:
		lm, err := vocab.ParseLastMod(r.val)
		if err != nil {
			// A date-time without a time zone (valid for the schema,
			// ambiguous for W3C Datetime) keeps its date.
			if d, ok := vocab.DateOfZoneless(string(r.val)); ok {
				// Valid for the schema, which validate only warns
				// about: a note, not an error in strict mode.
				r.e.LastMod = d
				r.opts.Note(line, col, fmt.Errorf("<lastmod> %q has no time zone: kept as the date %s", clip(r.val), d))
				return nil
			}
			return r.warn(line, col, false, fmt.Errorf("<lastmod> ignored: %w", err))
		}
		r.e.LastMod = lm
	case fieldChangeFreq:
		cf, ok := vocab.ParseChangeFreq(r.val)
		if !ok {
			return r.warnf(line, col, false, "<changefreq> ignored: %q is not always, hourly, daily, weekly, monthly, yearly or never", clip(r.val))
		}
		r.e.ChangeFreq = cf
	case fieldPriority:
		p, ok := vocab.ParsePriority(r.val)
		if !ok {
			return r.warnf(line, col, false, "<priority> ignored: %q is not a number from 0.0 to 1.0", clip(r.val))
		}
		r.e.Priority = p
	}
	return nil
}

// endEntry finishes the entry just closed: it returns it, or warns and
// skips it when it has no usable loc.
func (r *Reader) endEntry() (formats.Entry, bool, error) {
	r.entryDepth = 0
	name := r.entryName
	switch {
	case r.dupLoc:
		return formats.Entry{}, false, r.warnf(r.entryLine, r.entryCl, true,
			"<%s> with several <loc> skipped (missing </%s>?)", name, name)
	case r.seen&fieldLoc != 0:
		if r.locErr != nil {
			return formats.Entry{}, false, r.warn(r.locLine, r.locCol, true, r.locErr)
		}
	default:
		bare := uri.TrimSpace(string(r.bare))
		if bare == "" {
			return formats.Entry{}, false, r.warnf(r.entryLine, r.entryCl, true, "<%s> without <loc> skipped", name)
		}
		if err := r.warnf(r.entryLine, r.entryCl, false, "<%s> has no <loc>: its text is used as the URL", name); err != nil {
			return formats.Entry{}, false, err
		}
		if err := r.warnAmp(r.bareAmp); err != nil {
			return formats.Entry{}, false, err
		}
		if r.bareOver {
			return formats.Entry{}, false, r.warn(r.entryLine, r.entryCl, true, fmt.Errorf("<%s> skipped: %w", name, reason.Of(formats.ErrLocTooLong)))
		}
		loc, err := formats.ParseLoc(bare, r.opts.Base)
		if err != nil {
			return formats.Entry{}, false, r.warn(r.entryLine, r.entryCl, true, fmt.Errorf("<%s> skipped: %w", name, err))
		}
		r.e.Loc = loc
	}
	if r.imagesCut > 0 {
		if err := r.warnf(r.entryLine, r.entryCl, false, "%s over %d ignored", plural(r.imagesCut, "image", "images"), formats.MaxImages); err != nil {
			return formats.Entry{}, false, err
		}
	}
	if !r.ext.IsEmpty() {
		placeForeign(r.ext)
		r.e.Ext = r.ext
	}
	return r.e, true, nil
}

// clip shortens a value for a message.
func clip(b []byte) string {
	s := uri.TrimSpace(string(b))
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
