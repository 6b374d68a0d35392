package xml

import (
	"encoding/xml"
	"errors"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Observer follows a Reader's reading of a document token by token, so
// that a check of the document (package validate's rules) shares the
// reader's pass instead of parsing the document again. Both of the
// reader's paths give it the same tokens at the same positions.
//
// Tokens are given as written, as encoding/xml's RawToken gives them: a
// name's Space is its prefix ("" for none), not its namespace, and
// attributes are in their order, namespace declarations among them. Text
// has its references decoded and its line ends normalized; white space
// outside elements and between the children of the root may be left out,
// and text may come in several pieces (split at comments and CDATA
// sections). Comments are not given. A position is the line and the
// column (in bytes, from 1) where the token starts; an end tag's is where
// it starts, or where the start tag of an empty element (<a/>) ends.
// Slices are valid only during the call.
//
// The tokens come as the reader reads them, so before the entries they
// make are returned by Next. StartElement and EndElement return false to
// stop the observing: the reader then reads on alone.
type Observer interface {
	// StartElement is given a start tag.
	StartElement(name xml.Name, attrs []xml.Attr, line, col int) bool
	// EndElement is given an end tag, which need not close the element
	// last opened: what is not well-formed is the observer's to say.
	EndElement(name xml.Name, line, col int) bool
	// CharData is given text.
	CharData(text []byte, line, col int)
	// ProcInst is given a processing instruction, whose first byte is at
	// offset of the document.
	ProcInst(target string, offset int64, line, col int)
	// Directive is given a declaration (<!DOCTYPE ...>) without its <! and >.
	Directive(text []byte, line, col int)
	// End is given the end of the observing: err is nil at the end of the
	// input, else the syntax error (an *xml.SyntaxError), ErrLongTag or
	// read error that stopped the reading, at line and col. It is not
	// called when the observer stopped, nor when the reader stopped on an
	// error of its own in strict mode (a warning made an error): Next
	// returns that error.
	End(err error, line, col int)
}

// FieldObserver is an Observer that may also be given a field of an entry
// the reader's fast path read (<loc>, <lastmod>...: a start tag without
// attributes, one text and the end tag) in one call instead of three.
// Field stands for StartElement(name, nil, line, col), CharData(text,
// textLine, textCol) and EndElement(name, endLine, endCol) in that order,
// and returns false as they would to stop the observing.
type FieldObserver interface {
	Observer
	Field(name xml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool
}

// SpaceObserver is an Observer that has nothing to check in white space
// between the children of an entry (a <url> or <sitemap>): the reader's
// fast path leaves such text out for it, as it leaves out the white space
// between the children of the root for every Observer.
type SpaceObserver interface {
	Observer
	// SkipsSpace marks the Observer; the reader never calls it.
	SkipsSpace()
}

// NewObservedReader returns a reader of the XML sitemap r, like
// NewReader, that gives the tokens it reads to o.
//
// An observed reader parses the XML strictly, as in strict mode, whatever
// opts.Strict says (which still decides whether warnings are errors). Its
// general path bounds start and end tags at MaxTag bytes instead of runs
// of text at MaxTextLength: a long text is the observer's to judge, and
// the size of the document bounds it. In lenient mode, when the reader
// stops on an error of its own (elements nested more than MaxDepth deep,
// more than MaxNamespaces declarations in scope, a root element that is
// not a sitemap's, content after the root element), it gives the rest of
// the document to o before Next returns that error, so that the observer
// sees the whole document.
func NewObservedReader(r io.Reader, opts formats.ReadOptions, o Observer) *Reader {
	return newReader(r, opts, fastBufSize, o)
}

// MaxTag is the longest start or end tag an observed reader reads, in
// bytes from its '<' to its '>'. encoding/xml builds a tag's attributes
// whole before handing them over, several times the size of the tag: a
// tag of millions of empty attributes would take gigabytes. Sitemaps'
// tags are short.
const MaxTag = 1 << 20

// ErrLongTag is the error an observed reader stops with at a tag longer
// than MaxTag.
var ErrLongTag = errors.New("xml: a tag longer than 1 MiB")

// syntaxStrict reports whether the XML is parsed strictly: in strict mode,
// and when observed.
func (r *Reader) syntaxStrict() bool { return r.opts.Strict || r.observed }

// token returns the general path's next token, as the decoder's Token
// does (namespaces resolved), and gives it to the observer. In strict
// syntax it reads the raw token, which the observer is given, and checks
// and resolves it as Token does in strict mode.
func (r *Reader) token(line, col int) (xml.Token, error) {
	if r.open == nil {
		return r.d.Token()
	}
	off := r.d.InputOffset()
	tok, err := r.d.RawToken()
	if err != nil {
		r.endObserved(err)
		if err == io.EOF && len(r.open) > 1 {
			return nil, &xml.SyntaxError{Msg: "unexpected EOF", Line: line}
		}
		return nil, err
	}
	r.observe(tok, off, line, col)
	switch t := tok.(type) {
	case xml.StartElement:
		r.open = append(r.open, t.Name)
		// The element's own declarations apply to its name and its
		// attributes' names; the Reader takes them into scope itself.
		t.Name = r.resolve(t.Name, t.Attr, true)
		for i := range t.Attr {
			t.Attr[i].Name = r.resolve(t.Attr[i].Name, t.Attr, false)
		}
		return t, nil
	case xml.EndElement:
		n := len(r.open) - 1
		if n == 0 {
			return nil, &xml.SyntaxError{Msg: "unexpected end element </" + t.Name.Local + ">", Line: line}
		}
		open := r.open[n]
		switch {
		case open.Local != t.Name.Local:
			return nil, &xml.SyntaxError{Msg: "element <" + open.Local + "> closed by </" + t.Name.Local + ">", Line: line}
		case open.Space != t.Name.Space:
			space := t.Name.Space
			if space == "" {
				space = `""`
			}
			return nil, &xml.SyntaxError{Msg: "element <" + open.Local + "> in space " + open.Space +
				" closed by </" + t.Name.Local + "> in space " + space, Line: line}
		}
		r.open = r.open[:n]
	}
	return tok, nil
}

// resolve returns the name n as encoding/xml's Token resolves it: the
// prefix replaced by the namespace declared for it in the element's own
// attributes (the last of them) or else in scope; an element's name
// without a prefix takes the default namespace. A prefix declared nowhere
// stays as it is.
func (r *Reader) resolve(n xml.Name, attrs []xml.Attr, elem bool) xml.Name {
	switch {
	case n.Space == "xmlns", n.Space == "" && !elem, n.Space == "" && n.Local == "xmlns":
		return n
	case n.Space == "xml":
		n.Space = "http://www.w3.org/XML/1998/namespace"
		return n
	}
	for i := len(attrs) - 1; i >= 0; i-- {
		a := attrs[i].Name
		if n.Space == "" && a.Space == "" && a.Local == "xmlns" || n.Space != "" && a.Space == "xmlns" && a.Local == n.Space {
			n.Space = attrs[i].Value
			return n
		}
	}
	if uri, ok := r.ns.Lookup(n.Space); ok {
		n.Space = uri
	}
	return n
}

// observe gives the token t of an entry to the Reader's observer. Fields
// are not merged into one token when observed.
func (s *scanner) observe(r *Reader, t *token) {
	keep := true
	switch t.kind {
	case tokStart:
		keep = r.obs.StartElement(xml.Name{Local: elemNames[t.el]}, nil, t.line, t.col)
	case tokEnd:
		keep = r.obs.EndElement(xml.Name{Local: elemNames[t.el]}, t.line, t.col)
	case tokText, tokScratch:
		r.obs.CharData(s.textOf(t), t.line, t.col)
	}
	if !keep {
		r.obs = nil
	}
}

// spaceAt reports whether t is text of white space alone (left out for a
// SpaceObserver between the children of an entry).
func (s *scanner) spaceAt(t *token) bool {
	if t.kind != tokText && t.kind != tokScratch {
		return false
	}
	for _, c := range s.textOf(t) {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// fieldAt reports whether the tokens of the entry from toks[i] on are a
// field for a FieldObserver: its start tag, one text and its end tag.
func (s *scanner) fieldAt(i int) bool {
	if i+2 >= len(s.toks) {
		return false
	}
	t, text, end := &s.toks[i], &s.toks[i+1], &s.toks[i+2]
	return t.kind == tokStart && t.el != s.entry && (text.kind == tokText || text.kind == tokScratch) &&
		end.kind == tokEnd && end.el == t.el
}

// replayField gives the field at toks[i] (see fieldAt) to the Reader's
// handlers and, in one call, to its FieldObserver. The observer is given
// what it would have been given token by token: when a handler stops the
// reader at the start tag or the text, only the tokens up to it.
func (r *Reader) replayField(s *scanner, i int) error {
	t, text, end := &s.toks[i], &s.toks[i+1], &s.toks[i+2]
	name, value := elemNames[t.el], s.textOf(text)
	if err := r.start(xml.Name{Space: s.ns, Local: name}, nil, t.line, t.col); err != nil {
		s.observe(r, t)
		return err
	}
	if err := r.text(value, s.ampOf(text)); err != nil {
		s.observe(r, t)
		if r.obs != nil {
			s.observe(r, text)
		}
		return err
	}
	if !r.fieldObs.Field(xml.Name{Local: name}, value, t.line, t.col, text.line, text.col, end.line, end.col) {
		r.obs = nil
	}
	_, _, err := r.end() // a field's end completes no entry
	return err
}

// observe gives the general path's token tok, which started at the
// decoder's offset off, line and col, to the observer.
func (r *Reader) observe(tok xml.Token, off int64, line, col int) {
	if r.obs == nil {
		return
	}
	if off < r.prefixLen {
		// The synthetic root start tag of a hand-over, which the observer
		// was given by the fast path, and the newline after it.
		t, ok := tok.(xml.CharData)
		if !ok || len(t) == 1 {
			return
		}
		tok, line, col = t[1:], r.atLine, r.atCol
	}
	keep := true
	switch t := tok.(type) {
	case xml.StartElement:
		keep = r.obs.StartElement(t.Name, t.Attr, line, col)
	case xml.EndElement:
		keep = r.obs.EndElement(t.Name, line, col)
	case xml.CharData:
		r.obs.CharData(t, line, col)
	case xml.ProcInst:
		r.obs.ProcInst(t.Target, off-r.prefixLen+r.handedAt, line, col)
	case xml.Directive:
		r.obs.Directive(t, line, col)
	}
	if !keep {
		r.obs = nil
	}
}

// endObserved ends the observing with err (io.EOF at the end of the
// input), where the general path stopped.
func (r *Reader) endObserved(err error) {
	if r.obs != nil {
		line, col := r.inputPos()
		r.endObservedAt(err, line, col)
	}
}

// endObservedAt ends the observing with err at line and col.
func (r *Reader) endObservedAt(err error, line, col int) {
	if r.obs == nil {
		return
	}
	o := r.obs
	r.obs = nil
	var syn *xml.SyntaxError
	switch {
	case err == io.EOF:
		err = nil
	case errors.As(err, &syn):
		// Its line in the document, not in the decoder's input.
		err = &xml.SyntaxError{Msg: syn.Msg, Line: line}
	}
	o.End(err, line, col)
}

// drain gives the rest of the document to the observer alone, once the
// reader stopped on an error of its own, in lenient mode.
func (r *Reader) drain() {
	if r.obs == nil || r.opts.Strict || r.d == nil || r.fast != nil {
		return
	}
	for r.obs != nil {
		line, col := r.inputPos()
		off := r.d.InputOffset()
		tok, err := r.d.RawToken()
		if err != nil {
			r.endObserved(err)
			return
		}
		r.observe(tok, off, line, col)
	}
}

// bound returns the general path's input in: bounded by runs of text
// without markup (run bytes into one already), or, when observed, by the
// length of tags.
func (r *Reader) bound(in io.Reader, run int) io.Reader {
	if r.observed {
		return &tagBound{r: in}
	}
	return &boundedText{r: in, run: run}
}

// registered makes the rules RegisterRules registered.
var registered func(opts formats.ReadOptions) (Observer, func() error)

// RegisterRules registers the rules a strict reader holds a document to
// beyond its own (package validate registers its XML rules): for each
// strict reader not otherwise observed, rules returns the observer that
// checks the document and a function that returns the first error it
// found, if any, which Next then returns (as a *formats.ParseError) after
// the entry, or instead of io.EOF. So a strict reader accepts exactly the
// documents the rules find no error in. It is meant to be called from an
// init function, before any reading.
func RegisterRules(rules func(opts formats.ReadOptions) (Observer, func() error)) {
	registered = rules
}
