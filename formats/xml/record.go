package xml

import (
	"encoding/xml"
	"unsafe"
)

// Recording keeps the calls a reader gives its Observer, to give them to
// another Observer later (Replay), on another goroutine: a check that
// observes a reader (package validate's rules) then runs behind the
// reading, on a core of its own, instead of in step with it. What a call
// is given is copied (its slices are valid only during the call); names,
// targets and errors are kept as they are.
//
// A Recording is a FieldObserver and a SpaceObserver, and never stops the
// observing: record only for an Observer that is both, for the reader
// gives each kind its own tokens, and leave its stopping to Replay. Mark
// records a point between two calls (the end of an entry the reader
// gave), which Replay reports in its place.
//
// The zero Recording is ready to use. It is not safe for concurrent use.
type Recording struct {
	calls []call
	text  []byte     // the text of the calls, one after another
	attrs []xml.Attr // the attributes of the start tags, one after another
	size  int        // the bytes the calls hold (see Bytes)
}

// callKind says which Observer method a call is, or a mark.
type callKind uint8

const (
	callStart callKind = iota
	callEnd
	callField
	callCharData
	callProcInst
	callDirective
	callEndDoc
	callMark
)

// call is one call recorded: its method and its arguments. A text is
// text[from:to] of the Recording; a start tag's attributes are
// attrs[from:to].
type call struct {
	kind     callKind
	name     xml.Name
	target   string
	err      error
	from, to int
	offset   int64
	line     int
	col      int
	textLine int
	textCol  int
	endLine  int
	endCol   int
}

// keep copies b into the Recording's text and returns where it is.
func (r *Recording) keep(b []byte) (from, to int) {
	from = len(r.text)
	r.text = append(r.text, b...)
	r.size += len(b)
	return from, len(r.text)
}

// StartElement records a start tag.
func (r *Recording) StartElement(name xml.Name, attrs []xml.Attr, line, col int) bool {
	from := len(r.attrs)
	r.attrs = append(r.attrs, attrs...)
	for _, a := range attrs {
		r.size += len(a.Name.Space) + len(a.Name.Local) + len(a.Value) + int(unsafe.Sizeof(a))
	}
	r.calls = append(r.calls, call{kind: callStart, name: name, from: from, to: len(r.attrs), line: line, col: col})
	return true
}

// EndElement records an end tag.
func (r *Recording) EndElement(name xml.Name, line, col int) bool {
	r.calls = append(r.calls, call{kind: callEnd, name: name, line: line, col: col})
	return true
}

// Field records a field of an entry (see FieldObserver).
func (r *Recording) Field(name xml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool {
	from, to := r.keep(text)
	r.calls = append(r.calls, call{kind: callField, name: name, from: from, to: to, line: line, col: col,
		textLine: textLine, textCol: textCol, endLine: endLine, endCol: endCol})
	return true
}

// CharData records text.
func (r *Recording) CharData(text []byte, line, col int) {
	from, to := r.keep(text)
	r.calls = append(r.calls, call{kind: callCharData, from: from, to: to, line: line, col: col})
}

// ProcInst records a processing instruction.
func (r *Recording) ProcInst(target string, offset int64, line, col int) {
	r.calls = append(r.calls, call{kind: callProcInst, target: target, offset: offset, line: line, col: col})
}

// Directive records a declaration.
func (r *Recording) Directive(text []byte, line, col int) {
	from, to := r.keep(text)
	r.calls = append(r.calls, call{kind: callDirective, from: from, to: to, line: line, col: col})
}

// End records the end of the observing.
func (r *Recording) End(err error, line, col int) {
	r.calls = append(r.calls, call{kind: callEndDoc, err: err, line: line, col: col})
}

// SkipsSpace marks the Recording as a SpaceObserver.
func (r *Recording) SkipsSpace() {}

// Mark records a point between two calls: the end of an entry the reader
// gave.
func (r *Recording) Mark() { r.calls = append(r.calls, call{kind: callMark}) }

// Len returns how many calls and marks the Recording holds.
func (r *Recording) Len() int { return len(r.calls) }

// Bytes returns about how many bytes of memory the calls recorded hold:
// their text, their attributes and the calls themselves. A reader run
// ahead of the check cuts its recording by it, so that a document of long
// texts or tags is not held whole.
func (r *Recording) Bytes() int { return r.size + len(r.calls)*int(unsafe.Sizeof(call{})) }

// Replay gives o the calls recorded, in their order, as the reader would
// have, and calls onMark (when not nil) at each mark. observing says
// whether o still observes: once a call returns false (or when observing
// is false), o is given nothing more, as the reader would give it
// nothing more, but the marks are still reported. Replay returns whether
// o still observes, to give to the Replay of the next Recording of the
// same reading.
func (r *Recording) Replay(o FieldObserver, onMark func(), observing bool) bool {
	for i := range r.calls {
		c := &r.calls[i]
		if c.kind == callMark {
			if onMark != nil {
				onMark()
			}
			continue
		}
		if !observing {
			continue
		}
		switch c.kind {
		case callStart:
			var attrs []xml.Attr
			if c.to > c.from {
				attrs = r.attrs[c.from:c.to:c.to]
			}
			observing = o.StartElement(c.name, attrs, c.line, c.col)
		case callEnd:
			observing = o.EndElement(c.name, c.line, c.col)
		case callField:
			observing = o.Field(c.name, r.text[c.from:c.to:c.to], c.line, c.col, c.textLine, c.textCol, c.endLine, c.endCol)
		case callCharData:
			o.CharData(r.text[c.from:c.to:c.to], c.line, c.col)
		case callProcInst:
			o.ProcInst(c.target, c.offset, c.line, c.col)
		case callDirective:
			o.Directive(r.text[c.from:c.to:c.to], c.line, c.col)
		case callEndDoc:
			o.End(c.err, c.line, c.col)
			observing = false // the reader calls nothing after End
		}
	}
	return observing
}

// Reset empties the Recording, keeping its memory for the next calls.
func (r *Recording) Reset() {
	clear(r.calls) // names, targets and errors
	clear(r.attrs)
	r.calls, r.text, r.attrs, r.size = r.calls[:0], r.text[:0], r.attrs[:0], 0
}
