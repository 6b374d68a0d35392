package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

var (
	errClosed = errors.New("jsonl: write after Close")
	errNoLoc  = errors.New("jsonl: entry without a loc")
)

// Writer writes a JSON Lines document: the head line, when the options
// hold document-level elements, then one line per entry.
type Writer struct {
	w       *bufio.Writer
	opts    formats.WriteOptions
	buf     []byte
	started bool
	closed  bool
	err     error
}

// NewWriter returns a writer of a JSON Lines document to w. Of the
// options it uses only Head; a JSON Lines document has no root element,
// stylesheet or feed description.
func NewWriter(w io.Writer, opts formats.WriteOptions) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), opts: opts}
}

// Write writes the entry as one line holding every field it has: the
// bytes AppendEntry gives.
func (w *Writer) Write(e formats.Entry) error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return errClosed
	case e.Loc == "":
		return errNoLoc
	}
	w.start()
	w.buf = AppendEntry(w.buf[:0], e)
	_, w.err = w.w.Write(w.buf)
	return w.err
}

// start writes the head line before the first entry (or at Close).
func (w *Writer) start() {
	if !w.started {
		w.started = true
		w.buf = AppendHeader(w.buf[:0], w.opts)
		w.w.Write(w.buf)
	}
}

// Close writes the head line if no entry was written, and flushes. It
// does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errClosed
	}
	w.closed = true
	w.start()
	w.err = w.w.Flush()
	return w.err
}

// AppendHeader appends to b what a document written with options o starts
// with: the head line {"head":[…]} when o.Head holds document-level
// elements, else nothing.
func AppendHeader(b []byte, o formats.WriteOptions) []byte {
	if len(o.Head) == 0 {
		return b
	}
	return appendJSON(b, object{Head: o.Head})
}

// AppendEntry appends to b the line a Writer writes for e, newline
// included.
func AppendEntry(b []byte, e formats.Entry) []byte {
	return appendJSON(b, toObject(&e))
}

// appendJSON appends o as one line of JSON, with <, > and & as they are
// (foreign elements stay readable).
func appendJSON(b []byte, o object) []byte {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		// Every field of object is a string, a number, a bool or a list
		// of them, and the priority a number AppendText wrote.
		panic("jsonl: " + err.Error())
	}
	return buf.Bytes()
}
