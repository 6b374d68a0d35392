package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

var errNoLoc = errors.New("jsonl: entry without a loc")

// Encoder renders a JSON Lines document (formats.Encoder): the head line,
// when the options hold document-level elements, then one line per entry,
// every field it has; no footer. Entries of both kinds may share a
// document. The format's Writer, which formats.Register gives it, writes
// what the Encoder renders.
type Encoder struct {
	head []string
}

// NewEncoder returns the Encoder of a document written with opts. Of the
// options it uses only Head: a JSON Lines document has no root element,
// namespaces, stylesheet or feed description.
func NewEncoder(opts formats.WriteOptions) *Encoder {
	return &Encoder{head: opts.Head}
}

// AppendHeader appends the head line {"head":[…]} when the document has
// document-level elements, else nothing.
func (enc *Encoder) AppendHeader(dst []byte) []byte {
	if len(enc.head) == 0 {
		return dst
	}
	return appendJSON(dst, object{Head: enc.head})
}

// AppendEntry appends the line of e, newline included. An entry without a
// loc is refused.
func (enc *Encoder) AppendEntry(dst []byte, e *formats.Entry) ([]byte, error) {
	if e.Loc == "" {
		return dst, errNoLoc
	}
	return appendJSON(dst, toObject(e)), nil
}

// Wrote does nothing: a JSON Lines document has nothing to say about its
// entries as a whole.
func (enc *Encoder) Wrote(*formats.Entry) {}

// AppendFooter appends nothing: a JSON Lines document has no footer.
func (enc *Encoder) AppendFooter(dst []byte) []byte { return dst }

// Warnings returns nil: the format holds every field of the model.
func (enc *Encoder) Warnings() []string { return nil }

// appendJSON appends o as one line of JSON, with <, > and & as they are
// (foreign elements stay readable).
func appendJSON(b []byte, o object) []byte {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		// Every field of object is a string, a number, a bool or a list
		// of them, and the priority a number Priority.AppendText wrote.
		panic("jsonl: " + err.Error())
	}
	return buf.Bytes()
}
