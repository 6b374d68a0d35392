package formats

import (
	"bufio"
	"errors"
	"io"
)

// Encoder renders one document of a format as bytes, entry by entry: the
// document is AppendHeader, then AppendEntry of each entry, then
// AppendFooter, one after the other. It is the one place a format says
// what it writes: the format's Writer writes those bytes (Register gives a
// format with a NewEncoder its NewWriter), and package output measures them
// by their length to split a set at a size limit, then writes the very
// bytes it measured.
//
// A format's NewEncoder makes an Encoder for one document written with
// options o, whose Index is decided by then: the Writer sets it from the
// first entry's kind (true for KindSitemap), or leaves the caller's for a
// document without entries. A format with two kinds of document (the XML
// urlset and sitemap index) writes the one o.Index says, and refuses
// entries of the other kind.
//
// AppendHeader, AppendEntry and AppendFooter depend on the options (and
// the entry) only, never on the entries before: an entry rendered once
// can be written in any document of the same options, and every document
// of the same options has the same header and footer. What a document has
// to say about its entries as a whole (data left out, news over two days
// old) is gathered by Wrote and said by Warnings.
type Encoder interface {
	// AppendHeader appends what opens the document to dst and returns the
	// extended buffer.
	AppendHeader(dst []byte) []byte
	// AppendEntry appends e as the document holds it to dst and returns
	// the extended buffer. For an entry the document cannot hold (one
	// without a loc, or of the other kind) it returns dst unchanged and an
	// error.
	AppendEntry(dst []byte, e *Entry) ([]byte, error)
	// Wrote records that e, as AppendEntry rendered it, went into the
	// document: Warnings speaks of the entries written, not of those only
	// measured. Neither keeps anything of e past its return but copies
	// (the caller may use the memory of e's strings again: KeepsNothing).
	Wrote(e *Entry)
	// AppendFooter appends what ends the document to dst and returns the
	// extended buffer.
	AppendFooter(dst []byte) []byte
	// Warnings returns what the caller should know about the document
	// written (the WriteOptions.Warn messages), each once, to be said
	// when it is complete.
	Warnings() []string
}

// errWriterClosed is returned by an encoding writer's Write and Close after
// Close.
var errWriterClosed = errors.New("formats: write to a closed writer")

// encodingWriter is the Writer of a format with an Encoder: it writes what
// the Encoder renders, buffered.
type encodingWriter struct {
	w      *bufio.Writer
	newEnc func(WriteOptions) Encoder
	opts   WriteOptions
	enc    Encoder // nil until the document's kind is decided
	buf    []byte  // the entry being written, rendered
	e      Entry   // the entry being written, whose address the Encoder takes
	closed bool
	err    error
}

// newEncodingWriter returns a Writer to w of the documents newEnc renders.
func newEncodingWriter(w io.Writer, newEnc func(WriteOptions) Encoder, opts WriteOptions) Writer {
	return &encodingWriter{w: bufio.NewWriterSize(w, 64<<10), newEnc: newEnc, opts: opts}
}

// Write writes e, after the document's header when e is the first entry,
// whose kind decides the document (WriteOptions.Index). An entry the
// Encoder refuses is not written, and the error returned; errors of the
// underlying writer are sticky.
func (w *encodingWriter) Write(e Entry) error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return errWriterClosed
	}
	enc := w.enc
	if enc == nil {
		o := w.opts
		o.Index = e.Kind == KindSitemap
		enc = w.newEnc(o)
	}
	w.e = e
	b, err := enc.AppendEntry(w.buf[:0], &w.e)
	if err != nil {
		return err
	}
	w.buf = b
	if w.enc == nil {
		w.enc = enc
		if _, w.err = w.w.Write(enc.AppendHeader(nil)); w.err != nil {
			return w.err
		}
	}
	if _, w.err = w.w.Write(w.buf); w.err == nil {
		enc.Wrote(&w.e)
	}
	w.e = Entry{} // nothing of it is kept
	return w.err
}

// KeepsNothing reports true: Write renders its entry with the Encoder,
// which keeps nothing of it (see formats.KeepsNothing).
func (w *encodingWriter) KeepsNothing() bool { return true }

// Close writes the header when no entry was written, then the footer, and
// flushes; then it gives the Encoder's warnings, whether or not the flush succeeded, to WriteOptions.Warn. It
// does not close the underlying writer.
func (w *encodingWriter) Close() error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return errWriterClosed
	}
	w.closed = true
	b := w.buf[:0]
	if w.enc == nil {
		w.enc = w.newEnc(w.opts)
		b = w.enc.AppendHeader(b)
	}
	b = w.enc.AppendFooter(b)
	if _, w.err = w.w.Write(b); w.err == nil {
		w.err = w.w.Flush()
	}
	if w.opts.Warn != nil {
		for _, msg := range w.enc.Warnings() {
			w.opts.Warn(msg)
		}
	}
	return w.err
}
