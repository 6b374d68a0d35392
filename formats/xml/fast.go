package xml

import (
	"bytes"
	"encoding/xml"
	"io"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
)

// The fast path.
//
// encoding/xml is general and slow: it allocates every token and goes
// through the input a byte at a time. Generated sitemaps are all alike, so
// the Reader reads them with a scanner of its own that knows only a small,
// well-formed subset of XML, and hands the document over to encoding/xml
// (the general path) the moment it meets anything else. Both paths drive
// the same handlers (Reader.start, text and end) with the same element
// names, the same text and the same positions, so what reaches the caller
// (entries, warnings, errors, and their lines and columns) is the same
// whichever path reads.
//
// The subset: an optional byte order mark; space, comments and processing
// instructions before and after the root element (an XML declaration
// with version 1.0 only); an unprefixed <urlset> or <sitemapindex> root
// with well-formed attributes whose default namespace is not an
// extension's; between entries, space, comments and processing
// instructions; entries <url> in a
// urlset and <sitemap> in an index, with attribute-free unprefixed
// children loc and lastmod (and changefreq and priority in a urlset),
// each holding only text, comments and CDATA sections; text of valid
// characters with the five predefined entities and numeric character
// references of valid characters (in lenient mode also '&' that starts no
// entity, which encoding/xml keeps as it is and the handlers warn about:
// see amp.go); end tags that match their start tags exactly.
//
// The scanner works on whole items: the root start tag with everything
// before it, one entry, one comment, or the root end tag with everything
// after it. It reads an item into its buffer and checks it entirely
// before the handlers see any of it, so an item is either processed
// whole by the fast path or not at all. Before an item, everything before
// it has been processed and nothing after it has: that is the hand-over
// point. At the first item outside the subset, at an item that does not
// fit in the buffer (an entry of more than 64 KiB, say), at the end of
// the input or at a read error before the document is complete, the
// general path takes over at the start of that item:
//
//   - Before the root element is done, the general path simply reads the
//     document from its first byte (the buffer still holds all of it that
//     was read).
//   - Inside the root element, the general path reads a synthetic root
//     start tag with the root's namespace declarations (all of the
//     context encoding/xml keeps), a newline, then the document from the
//     hand-over point on, and the Reader's state is that of a root element
//     just opened, with the count of entries returned so far: that is the
//     state the general path would be in there, since nothing in the
//     subset leaves any other trace (no unknown element, extension or
//     DOCTYPE, no entry left open). Positions
//     are corrected by where the hand-over point is (Reader.inputPos), and
//     the bound on text without markup continues counting from the last
//     '<' before the hand-over point, so that the limits, the errors and
//     the positions are those the general path would have reported had it
//     read from the start.
//
// The general path never hands back. Memory stays bounded: the buffer has
// a fixed size, and the general path has its limits.

// fastBufSize is the size of the fast scanner's buffer: no item the fast
// path reads is longer.
const fastBufSize = 64 << 10

// A run of text without a '<' in what the fast path reads spans at most
// the end of one item and the space before the next: less than two
// buffers, so the fast path never reads past MaxTextLength. This fails to
// compile if the buffer grows too big for that.
const _ = uint(MaxTextLength - 2*fastBufSize)

// scanStatus is the outcome of scanning an item.
type scanStatus uint8

const (
	scanOK   scanStatus = iota
	scanMore            // the item goes on past the end of the buffered input
	scanOdd             // the item is outside the subset: hand over
)

// elem is an element the fast path knows.
type elem uint8

const (
	elemNone elem = iota
	elemURL
	elemSitemap
	elemLoc
	elemLastMod
	elemChangeFreq
	elemPriority
	elemURLSet
	elemSitemapIndex
)

var elemNames = [...]string{"", "url", "sitemap", "loc", "lastmod", "changefreq", "priority", "urlset", "sitemapindex"}

// startTags and endTags are the plain tags of the elements: <name> and
// </name>, which the scanner looks for first.
var startTags, endTags = func() (start, end [len(elemNames)]string) {
	for i, name := range elemNames {
		start[i], end[i] = "<"+name+">", "</"+name+">"
	}
	return
}()

// lookupElem returns the element named name, or elemNone.
func lookupElem(name []byte) elem {
	switch string(name) {
	case "url":
		return elemURL
	case "sitemap":
		return elemSitemap
	case "loc":
		return elemLoc
	case "lastmod":
		return elemLastMod
	case "changefreq":
		return elemChangeFreq
	case "priority":
		return elemPriority
	case "urlset":
		return elemURLSet
	case "sitemapindex":
		return elemSitemapIndex
	}
	return elemNone
}

// tokKind is the kind of a token of an entry.
type tokKind uint8

const (
	tokStart        tokKind = iota // start element el at line, col
	tokEnd                         // end element el at line, col
	tokText                        // text buf[a:b] at line, col
	tokScratch                     // text scratch[a:b] at line, col
	tokField                       // start element el at line, col, text buf[a:b], end element
	tokFieldScratch                // the same with text scratch[a:b]
)

// token is one token of the entry the scanner checked, to be given to the
// Reader's handlers.
type token struct {
	kind      tokKind
	el        elem
	amp       int32 // of a text: 1 + the index in amps of its first bare '&'; 0 if none
	line, col int
	a, b      int32 // offsets in the buffer or the scratch, both small
}

// procInst is a processing instruction the scanner met, for the
// observer.
type procInst struct {
	target    string
	offset    int64
	line, col int
}

// observePIs gives the processing instructions of the item just processed
// to the Reader's observer.
func (s *scanner) observePIs(r *Reader) {
	for _, pi := range s.pis {
		if r.obs != nil {
			r.obs.ProcInst(pi.target, pi.offset, pi.line, pi.col)
		}
	}
	s.pis = s.pis[:0]
}

// scanner is the fast path's state.
type scanner struct {
	src      io.Reader
	err      error // what src returned last; no more reads once set
	strict   bool
	observed bool // the Reader is observed

	buf  []byte // the input from offset base on; cap(buf) is fixed
	base int64

	// The scanning position: buf[p] is at line, lineStart the offset of
	// that line's first byte.
	p         int
	line      int
	lineStart int64

	// The hand-over point: everything before buf[mark] is processed. The
	// last '<' before it is at offset lastLT (-1 when none).
	mark          int
	markLine      int
	markLineStart int64
	lastLT        int64

	inRoot  bool   // the root start tag is processed
	done    bool   // the document is read to its end
	entry   elem   // elemURL or elemSitemap
	root    elem   // elemURLSet or elemSitemapIndex
	ns      string // the root's default namespace
	rootTag []byte // the synthetic root start tag and newline

	toks    []token
	pis     []procInst // the processing instructions of the item, when observed
	scratch []byte
	amps    []looseAmp // the bare '&' of the texts among toks
	refills int        // times an item was scanned again after fill, for tests
}

func newScanner(src io.Reader, size int, strict bool) *scanner {
	var buf []byte
	if size == scanBuffers.Size {
		buf = scanBuffers.Get()
	} else {
		buf = make([]byte, 0, size)
	}
	return &scanner{src: src, strict: strict, buf: buf, line: 1, markLine: 1, lastLT: -1}
}

// scanBuffers is the pool of the scanners' buffers (Reader.Release).
var scanBuffers = bufpool.Bytes{Size: fastBufSize}

// fill reads more input into the buffer, keeping buf[mark:]. It reports
// false when there is nothing new to scan: after the end of the input or
// a read error was met, or when the buffer is full. (Meeting the end is
// new: an item may be complete only there.)
//
// An item that goes on past the buffered input is scanned again from its
// start, so fill reads at least as much as is pending (or 512 bytes):
// however small the reads of src, an item is scanned a few times at most.
func (s *scanner) fill() bool {
	if s.err != nil {
		return false
	}
	if s.mark > 0 {
		n := copy(s.buf, s.buf[s.mark:])
		s.buf = s.buf[:n]
		s.base += int64(s.mark)
		s.p -= s.mark
		s.mark = 0
	}
	if len(s.buf) == cap(s.buf) {
		return false
	}
	want := min(len(s.buf)+max(len(s.buf), 512), cap(s.buf))
	for empty := 0; len(s.buf) < want; {
		free := s.buf[len(s.buf):cap(s.buf)]
		n, err := s.src.Read(free)
		if n < 0 || n > len(free) {
			panic("xml: reader returned an invalid count from Read")
		}
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			s.err = err
			return true
		}
		if n > 0 {
			empty = 0
			continue
		}
		if empty++; empty == 100 {
			s.err = io.ErrNoProgress
			return true
		}
	}
	return true
}

// rest returns the input from the hand-over point on.
func (s *scanner) rest() io.Reader {
	buffered := bytes.NewReader(s.buf[s.mark:])
	switch s.err {
	case nil:
		return io.MultiReader(buffered, s.src)
	case io.EOF:
		return buffered
	}
	return io.MultiReader(buffered, errReader{s.err})
}

// errReader returns its error.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// col returns the column of buf[p].
func (s *scanner) col(p int) int { return int(s.base+int64(p)-s.lineStart) + 1 }

// newline records that buf[p] is a newline.
func (s *scanner) newline(p int) {
	s.line++
	s.lineStart = s.base + int64(p) + 1
}

// newlines records the newlines of buf[from:to].
func (s *scanner) newlines(from, to int) {
	for {
		i := bytes.IndexByte(s.buf[from:to], '\n')
		if i < 0 {
			return
		}
		s.newline(from + i)
		from += i + 1
	}
}

// commit makes buf[p] the hand-over point: everything before it is
// processed.
func (s *scanner) commit() {
	if i := bytes.LastIndexByte(s.buf[s.mark:s.p], '<'); i >= 0 {
		s.lastLT = s.base + int64(s.mark+i)
	}
	s.mark, s.markLine, s.markLineStart = s.p, s.line, s.lineStart
}

// nextFast reads on with the fast path. It returns the next entry, or an
// error (io.EOF at the end), or handed true when it handed the document
// over to the general path, which reads on.
func (r *Reader) nextFast() (e formats.Entry, handed bool, err error) {
	s := r.fast
	if s.done {
		return formats.Entry{}, false, io.EOF
	}
	for {
		s.p, s.line, s.lineStart = s.mark, s.markLine, s.markLineStart
		var st scanStatus
		if !s.inRoot {
			st, err = s.prolog(r)
		} else {
			var ok bool
			e, ok, st, err = s.item(r)
			if ok {
				return e, false, nil
			}
		}
		if err != nil {
			return formats.Entry{}, false, err
		}
		if s.done {
			return formats.Entry{}, false, io.EOF
		}
		switch {
		case st == scanOdd, st == scanMore && !s.fill():
			r.handOver()
			return formats.Entry{}, true, nil
		case st == scanMore:
			s.refills++
		}
	}
}

// handOver hands the reading over to the general path at the hand-over
// point.
func (r *Reader) handOver() {
	s := r.fast
	r.fast = nil
	r.handedAt = s.base + int64(s.mark)
	if !s.inRoot {
		// Nothing was processed yet, and the buffer holds the document
		// from its first byte.
		r.d, r.raw = newDecoder(r.bound(s.rest(), 0), s.strict)
		return
	}
	run := int(r.handedAt - s.lastLT - 1)
	r.d, r.raw = newDecoder(io.MultiReader(bytes.NewReader(s.rootTag), r.bound(s.rest(), run)), s.strict)
	r.prefixLen = int64(len(s.rootTag))
	r.atLine, r.atCol = s.markLine, int(r.handedAt-s.markLineStart)+1
	r.depth = 0 // the synthetic root start tag opens the root again
}

// isSpace reports whether c is XML white space.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// space skips XML white space from buf[p].
func (s *scanner) space(p int) int {
	b := s.buf
	for p < len(b) && isSpace(b[p]) {
		if b[p] == '\n' {
			s.newline(p)
		}
		p++
	}
	return p
}

// isNameByte reports whether encoding/xml takes c as part of a name.
func isNameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-' || c >= utf8.RuneSelf
}

// name returns the end of the name that starts at buf[p], as encoding/xml
// delimits names.
func (s *scanner) name(p int) (int, scanStatus) {
	b := s.buf
	for p < len(b) && isNameByte(b[p]) {
		p++
	}
	if p == len(b) {
		return p, scanMore
	}
	return p, scanOK
}

// tagEnd scans the end of a start tag without attributes at buf[p]: space
// then '>' or "/>". It returns the position after it, and whether the
// element is empty.
func (s *scanner) tagEnd(p int) (int, bool, scanStatus) {
	b := s.buf
	p = s.space(p)
	if p == len(b) {
		return p, false, scanMore
	}
	switch b[p] {
	case '>':
		return p + 1, false, scanOK
	case '/':
		if p+1 == len(b) {
			return p, false, scanMore
		}
		if b[p+1] == '>' {
			return p + 2, true, scanOK
		}
	}
	return p, false, scanOdd
}

// endTag scans an end tag "</name>" at buf[p] and checks it closes el.
func (s *scanner) endTag(p int, el elem) (int, scanStatus) {
	q, st := s.matchName(p+2, elemNames[el])
	if st != scanOK {
		return q, st
	}
	q = s.space(q)
	if q == len(s.buf) {
		return q, scanMore
	}
	if s.buf[q] != '>' {
		return q, scanOdd
	}
	return q + 1, scanOK
}

// matchName checks that the name at buf[p] is name, as encoding/xml
// delimits names, and returns the position after it.
func (s *scanner) matchName(p int, name string) (int, scanStatus) {
	b := s.buf
	end := p + len(name)
	if end >= len(b) {
		return p, scanMore
	}
	if string(b[p:end]) != name || isNameByte(b[end]) {
		return p, scanOdd
	}
	return end, scanOK
}

// comment scans a comment at buf[p], which starts with "<!--". Like
// encoding/xml, it takes the first "--" as the end, which must be
// followed by '>'; the content is not checked.
func (s *scanner) comment(p int) (int, scanStatus) {
	b := s.buf
	i := bytes.Index(b[p+4:], []byte("--"))
	if i < 0 {
		return p, scanMore
	}
	end := p + 4 + i + 2
	if end == len(b) {
		return p, scanMore
	}
	if b[end] != '>' {
		return p, scanOdd
	}
	s.newlines(p, end)
	return end + 1, scanOK
}

// procInst scans a processing instruction at buf[p], which starts with
// "<?". Its target must be a plain ASCII name; the content of an XML
// declaration (target "xml") must be version="1.0" and encoding and
// standalone pseudo-attributes, which encoding/xml reads without a
// complaint (the encoding is already UTF-8 here).
func (s *scanner) procInst(p int) (int, scanStatus) {
	b := s.buf
	line, col := s.line, s.col(p)
	q, st := s.name(p + 2)
	if st != scanOK {
		return q, st
	}
	target := b[p+2 : q]
	if len(target) == 0 || !isASCIIName(target) {
		return q, scanOdd
	}
	q = s.space(q)
	i := bytes.Index(b[q:], []byte("?>"))
	if i < 0 {
		return q, scanMore
	}
	if string(target) == "xml" && (!xmlDeclOK(b[q:q+i]) || s.observed && s.base+int64(p) != 0) {
		// Not in the subset, or, for the observer, out of place.
		return q, scanOdd
	}
	s.newlines(q, q+i)
	if s.observed {
		s.pis = append(s.pis, procInst{string(target), s.base + int64(p), line, col})
	}
	return q + i + 2, scanOK
}

// item scans the next item inside the root element and processes it when
// it is in the subset. It returns an entry when the item gave one.
func (s *scanner) item(r *Reader) (e formats.Entry, ok bool, st scanStatus, err error) {
	b := s.buf
	s.pis = s.pis[:0]
	p := s.space(s.p)
	if len(b)-p < 2 {
		return e, false, scanMore, nil
	}
	if b[p] != '<' {
		return e, false, scanOdd, nil
	}
	switch b[p+1] {
	case '!':
		if len(b)-p < 4 {
			return e, false, scanMore, nil
		}
		if string(b[p:p+4]) != "<!--" {
			return e, false, scanOdd, nil
		}
		s.p, st = s.comment(p)
	case '?':
		s.p, st = s.procInst(p)
	case '/':
		return e, false, s.rootEnd(r, p), nil
	default:
		st = s.scanEntry(p)
		if st != scanOK {
			return e, false, st, nil
		}
		s.commit()
		e, ok, err = r.replay(s)
		return e, ok, scanOK, err
	}
	if st == scanOK {
		s.commit()
		s.observePIs(r)
	}
	return e, false, st, nil
}

// rootEnd scans the root end tag at buf[p] and everything after it, to
// the end of the input, which may hold only space, comments and
// processing instructions. When it does, it processes the end tag and
// marks the document done.
func (s *scanner) rootEnd(r *Reader, p int) scanStatus {
	line, col := s.line, s.col(p)
	q, st := s.endTag(p, s.root)
	if st != scanOK {
		return st
	}
	for {
		q = s.space(q)
		b := s.buf
		if q == len(b) {
			if s.err != io.EOF {
				// More to come, or a read error the general path reports.
				return scanMore
			}
			if r.obs != nil && !r.obs.EndElement(xml.Name{Local: elemNames[s.root]}, line, col) {
				r.obs = nil
			}
			r.end()
			s.done = true
			s.observePIs(r)
			r.endObservedAt(io.EOF, s.line, s.col(q))
			return scanOK
		}
		if len(b)-q < 4 {
			return scanMore
		}
		switch {
		case b[q] != '<':
			return scanOdd
		case b[q+1] == '?':
			q, st = s.procInst(q)
		case string(b[q:q+4]) == "<!--":
			q, st = s.comment(q)
		default:
			return scanOdd
		}
		if st != scanOK {
			return st
		}
	}
}

// field returns the child of an entry the fast path reads whose name
// starts at buf[p], going by its first two letters (matchName checks the
// rest).
func (s *scanner) field(p int) (elem, scanStatus) {
	if p+1 >= len(s.buf) {
		return elemNone, scanMore
	}
	el := elemNone
	switch s.buf[p] {
	case 'l':
		switch s.buf[p+1] {
		case 'o':
			el = elemLoc
		case 'a':
			el = elemLastMod
		}
	case 'c':
		el = elemChangeFreq
	case 'p':
		el = elemPriority
	}
	if (el == elemChangeFreq || el == elemPriority) && s.root != elemURLSet || el == elemNone {
		return elemNone, scanOdd
	}
	return el, scanOK
}

// scanEntry scans the entry whose start tag is at buf[p] into s.toks,
// and sets s.p after it.
func (s *scanner) scanEntry(p int) scanStatus {
	b := s.buf
	s.toks, s.scratch, s.amps = s.toks[:0], s.scratch[:0], s.amps[:0]
	s.toks = append(s.toks, token{kind: tokStart, el: s.entry, line: s.line, col: s.col(p)})
	q, empty, st := p+len(startTags[s.entry]), false, scanOK
	if tag := startTags[s.entry]; len(b)-p < len(tag) || string(b[p:p+len(tag)]) != tag {
		// Not the usual plain start tag.
		if q, st = s.matchName(p+1, elemNames[s.entry]); st != scanOK {
			return st
		}
		if q, empty, st = s.tagEnd(q); st != scanOK {
			return st
		}
	}
	if empty {
		s.toks = append(s.toks, token{kind: tokEnd, el: s.entry, line: s.line, col: s.col(q)})
		s.p = q
		return scanOK
	}
	open := elemNone // the field open, if any
	for {
		if q, st = s.text(q); st != scanOK {
			return st
		}
		// b[q] is '<'.
		if len(b)-q < 2 {
			return scanMore
		}
		switch b[q+1] {
		case '/':
			want := open
			if want == elemNone {
				want = s.entry
			}
			line, col := s.line, s.col(q)
			if tag := endTags[want]; len(b)-q >= len(tag) && string(b[q:q+len(tag)]) == tag {
				q += len(tag) // the usual plain end tag
			} else if q, st = s.endTag(q, want); st != scanOK {
				return st
			}
			if n := len(s.toks); open != elemNone && !s.observed && n >= 2 && s.toks[n-2].kind == tokStart &&
				(s.toks[n-1].kind == tokText || s.toks[n-1].kind == tokScratch) {
				// A field holding one text: one token for the three.
				f, t := &s.toks[n-2], &s.toks[n-1]
				f.kind, f.a, f.b, f.amp = tokField+t.kind-tokText, t.a, t.b, t.amp
				s.toks = s.toks[:n-1]
			} else {
				s.toks = append(s.toks, token{kind: tokEnd, el: want, line: line, col: col})
			}
			if open == elemNone {
				s.p = q
				return scanOK
			}
			open = elemNone
		case '!':
			if len(b)-q < 4 {
				return scanMore
			}
			if string(b[q:q+4]) == "<!--" {
				if q, st = s.comment(q); st != scanOK {
					return st
				}
				continue
			}
			if len(b)-q < 9 {
				return scanMore
			}
			if string(b[q:q+9]) != "<![CDATA[" {
				return scanOdd
			}
			if q, st = s.cdata(q); st != scanOK {
				return st
			}
		case '?':
			return scanOdd
		default:
			if open != elemNone {
				return scanOdd
			}
			el, st := s.field(q + 1)
			if st != scanOK {
				return st
			}
			s.toks = append(s.toks, token{kind: tokStart, el: el, line: s.line, col: s.col(q)})
			if tag := startTags[el]; len(b)-q >= len(tag) && string(b[q:q+len(tag)]) == tag {
				q += len(tag) // the usual plain start tag
				open = el
				continue
			}
			n, st := s.matchName(q+1, elemNames[el])
			if st != scanOK {
				return st
			}
			q, empty, st = s.tagEnd(n)
			if st != scanOK {
				return st
			}
			if empty {
				s.toks = append(s.toks, token{kind: tokEnd, el: el, line: s.line, col: s.col(q)})
			} else {
				open = el
			}
		}
	}
}

// replay gives the tokens of the entry the scanner checked to the
// Reader's handlers, as the general path gives them the tokens of
// encoding/xml. It returns the entry when it is kept.
func (r *Reader) replay(s *scanner) (formats.Entry, bool, error) {
	depth := 0 // the elements open, the entry's own first
	for i := 0; i < len(s.toks); i++ {
		t := &s.toks[i]
		if r.obs != nil && r.fieldObs != nil && s.fieldAt(i) {
			if err := r.replayField(s, i); err != nil {
				return formats.Entry{}, false, err
			}
			i += 2
			continue
		}
		if r.obs != nil && !(r.noSpace && depth == 1 && s.spaceAt(t)) {
			s.observe(r, t)
		}
		switch t.kind {
		case tokStart:
			depth++
			if err := r.start(xml.Name{Space: s.ns, Local: elemNames[t.el]}, nil, t.line, t.col); err != nil {
				return formats.Entry{}, false, err
			}
		case tokText, tokScratch:
			if err := r.text(s.textOf(t), s.ampOf(t)); err != nil {
				return formats.Entry{}, false, err
			}
		case tokEnd:
			depth--
			if e, ok, err := r.end(); err != nil || ok {
				return e, ok, err
			}
		case tokField, tokFieldScratch:
			if err := r.start(xml.Name{Space: s.ns, Local: elemNames[t.el]}, nil, t.line, t.col); err != nil {
				return formats.Entry{}, false, err
			}
			if err := r.text(s.textOf(t), s.ampOf(t)); err != nil {
				return formats.Entry{}, false, err
			}
			if _, _, err := r.end(); err != nil {
				return formats.Entry{}, false, err
			}
		}
	}
	return formats.Entry{}, false, nil
}

// textOf returns the text of t, a text or a field.
func (s *scanner) textOf(t *token) []byte {
	if t.kind == tokText || t.kind == tokField {
		return s.buf[t.a:t.b]
	}
	return s.scratch[t.a:t.b]
}

// ampOf returns the first bare '&' of the text of t, if any.
func (s *scanner) ampOf(t *token) looseAmp {
	if t.amp == 0 {
		return looseAmp{}
	}
	return s.amps[t.amp-1]
}
