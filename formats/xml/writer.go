package xml

import (
	"bufio"
	"errors"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Namespace is the sitemaps.org namespace the writer declares.
const Namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

// The exact bytes that open and close the documents the Writer writes.
// A document is a header, the entries (EntrySize bytes each) and a footer.
const (
	URLSetHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="` + Namespace + `">` + "\n"
	URLSetFooter = "</urlset>\n"
	IndexHeader  = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="` + Namespace + `">` + "\n"
	IndexFooter  = "</sitemapindex>\n"
)

// HeaderSize returns the size in bytes of the header of a document written
// with options o: len(IndexHeader) when o.Index is set, else
// len(URLSetHeader).
func HeaderSize(o formats.WriteOptions) int {
	if o.Index {
		return len(IndexHeader)
	}
	return len(URLSetHeader)
}

// FooterSize returns the size in bytes of the footer of a document written
// with options o: len(IndexFooter) when o.Index is set, else
// len(URLSetFooter).
func FooterSize(o formats.WriteOptions) int {
	if o.Index {
		return len(IndexFooter)
	}
	return len(URLSetFooter)
}

// ErrMixedKinds is returned by Writer.Write for an entry whose kind differs
// from the first entry's.
var ErrMixedKinds = errors.New("xml: cannot mix pages and child sitemaps in one sitemap")

// errClosed is returned by Write and Close after Close.
var errClosed = errors.New("xml: write to a closed sitemap writer")

// errNoLoc is returned by Write for an entry without a loc.
var errNoLoc = errors.New("xml: entry has no loc")

// Writer writes entries as an XML urlset or sitemap index. The output is
// deterministic: the same entries always give the same bytes, laid out one
// entry per line with no indentation, elements in schema order, and unknown
// fields omitted. Extension data (Entry.Ext) is not written yet.
type Writer struct {
	w       *bufio.Writer
	opts    formats.WriteOptions
	started bool
	kind    formats.Kind
	closed  bool
	err     error
	scratch [64]byte
}

// NewWriter returns a writer of a sitemap to w. The first entry decides the
// document: a urlset for formats.KindURL, a sitemap index for
// formats.KindSitemap. With no entry at all, Close writes an empty urlset,
// or an empty sitemap index when opts.Index is set.
func NewWriter(w io.Writer, opts formats.WriteOptions) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), opts: opts}
}

// Write writes one entry: loc, lastmod, changefreq and priority for a page;
// loc and lastmod for a child sitemap. It returns ErrMixedKinds, and writes
// nothing, for an entry of another kind than the first. It adds exactly
// EntrySize(e) bytes to the output.
func (w *Writer) Write(e formats.Entry) error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return errClosed
	case e.Loc == "":
		return errNoLoc
	}
	if !w.started {
		w.start(e.Kind)
	} else if e.Kind != w.kind {
		return ErrMixedKinds
	}
	b := w.w
	if e.Kind == formats.KindSitemap {
		b.WriteString("<sitemap><loc>")
	} else {
		b.WriteString("<url><loc>")
	}
	writeEscaped(b, e.Loc)
	b.WriteString("</loc>")
	if !e.LastMod.IsZero() {
		b.WriteString("<lastmod>")
		b.Write(e.LastMod.AppendText(w.scratch[:0]))
		b.WriteString("</lastmod>")
	}
	if e.Kind == formats.KindSitemap {
		_, w.err = b.WriteString("</sitemap>\n")
		return w.err
	}
	if e.ChangeFreq != "" {
		b.WriteString("<changefreq>")
		writeEscaped(b, string(e.ChangeFreq))
		b.WriteString("</changefreq>")
	}
	if e.Priority.IsSet() {
		b.WriteString("<priority>")
		b.Write(e.Priority.AppendText(w.scratch[:0]))
		b.WriteString("</priority>")
	}
	_, w.err = b.WriteString("</url>\n")
	return w.err
}

func (w *Writer) start(k formats.Kind) {
	w.started, w.kind = true, k
	if k == formats.KindSitemap {
		w.w.WriteString(IndexHeader)
	} else {
		w.w.WriteString(URLSetHeader)
	}
}

// Close writes the footer, after the header when no entry was written, and
// flushes. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errClosed
	}
	w.closed = true
	if !w.started {
		k := formats.KindURL
		if w.opts.Index {
			k = formats.KindSitemap
		}
		w.start(k)
	}
	if w.kind == formats.KindSitemap {
		w.w.WriteString(IndexFooter)
	} else {
		w.w.WriteString(URLSetFooter)
	}
	w.err = w.w.Flush()
	return w.err
}

// EntrySize returns the number of bytes Writer.Write adds to the output for
// e, so that a caller can split output at a size limit exactly: a document
// is HeaderSize(k) + the sum of EntrySize of its entries + FooterSize(k)
// bytes long.
func EntrySize(e formats.Entry) int {
	var scratch [64]byte
	var n int
	if e.Kind == formats.KindSitemap {
		n = len("<sitemap><loc></loc></sitemap>\n")
	} else {
		n = len("<url><loc></loc></url>\n")
	}
	n += escapedLen(e.Loc)
	if !e.LastMod.IsZero() {
		n += len("<lastmod></lastmod>") + len(e.LastMod.AppendText(scratch[:0]))
	}
	if e.Kind == formats.KindSitemap {
		return n
	}
	if e.ChangeFreq != "" {
		n += len("<changefreq></changefreq>") + escapedLen(string(e.ChangeFreq))
	}
	if e.Priority.IsSet() {
		n += len("<priority></priority>") + len(e.Priority.AppendText(scratch[:0]))
	}
	return n
}

// escapes holds the replacement of each byte XML text must escape.
var escapes = [256]string{
	'&':  "&amp;",
	'\'': "&apos;",
	'"':  "&quot;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// writeEscaped writes s with & ' " < > escaped.
func writeEscaped(b *bufio.Writer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if r := escapes[s[i]]; r != "" {
			b.WriteString(s[last:i])
			b.WriteString(r)
			last = i + 1
		}
	}
	b.WriteString(s[last:])
}

// escapedLen returns the length of s once escaped by writeEscaped.
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if r := escapes[s[i]]; r != "" {
			n += len(r) - 1
		}
	}
	return n
}
