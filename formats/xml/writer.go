package xml

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

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
// with options o: the XML declaration, the stylesheet instruction when
// o.Stylesheet is set, and the root start tag with the namespaces of
// o.Uses (for a urlset; an index declares none), then the document-level
// elements of o.Head, one a line. It is len(IndexHeader)
// or len(URLSetHeader) for options with neither.
func HeaderSize(o formats.WriteOptions) int {
	return len(appendHeader(nil, o.Index, o))
}

// extensionNamespaces are the extensions, in the order the writer declares
// them, with their conventional prefixes.
var extensionNamespaces = [...]struct {
	ext    formats.ExtensionSet
	prefix string
	uri    string
}{
	{formats.ExtImage, "image", ImageNamespace},
	{formats.ExtVideo, "video", VideoNamespace},
	{formats.ExtNews, "news", NewsNamespace},
	{formats.ExtAlternates, "xhtml", XHTMLNamespace},
	{formats.ExtMobile, "mobile", MobileNamespace},
}

// appendHeader appends the header of an index or urlset written with
// options o.
func appendHeader(b []byte, index bool, o formats.WriteOptions) []byte {
	b = append(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"...)
	if o.Stylesheet != "" {
		b = append(b, `<?xml-stylesheet type="text/xsl" href="`...)
		b = appendEscapedXML(b, o.Stylesheet, true)
		b = append(b, `"?>`+"\n"...)
	}
	if index {
		b = append(b, `<sitemapindex xmlns="`+Namespace+`">`+"\n"...)
	} else {
		b = append(b, `<urlset xmlns="`+Namespace+`"`...)
		for _, x := range extensionNamespaces {
			if o.Uses&x.ext != 0 {
				b = append(b, ` xmlns:`+x.prefix+`="`+x.uri+`"`...)
			}
		}
		b = append(b, ">\n"...)
	}
	for _, h := range o.Head {
		b = append(b, h...)
		b = append(b, '\n')
	}
	return b
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
// fields omitted.
//
// Extension data (Entry.Ext) follows the core elements of a <url>: images,
// videos, news, hreflang alternates (xhtml:link), the mobile marker, then
// the foreign elements, verbatim. The root declares the namespaces of
// WriteOptions.Uses, with the prefixes image, video, news, xhtml and
// mobile. An entry holding an extension outside Uses is still valid XML:
// each of its elements of that extension declares the namespace on itself
// (and EntrySize, which assumes the root declares them, is then short;
// EntrySizeWith is exact). A <sitemap> of an index holds only foreign
// elements. Foreign elements must be well-formed, self-contained XML, as
// the Reader makes them; so must the document-level elements of
// WriteOptions.Head, written after the root start tag, one a line.
// Images, videos and news data that lack a field the protocol requires
// (formats.Video.Missing, say) are left out: never an empty required
// element; Close says so through WriteOptions.Warn.
// Close says through WriteOptions.Warn when it wrote more than
// formats.MaxNews entries with news data (package output splits a set
// before), and how many entries it wrote with news
// data published more than formats.NewsAge before the Writer was made:
// Google News sitemaps list only the articles of the last two days.
type Writer struct {
	w       *bufio.Writer
	opts    formats.WriteOptions
	started bool
	kind    formats.Kind
	closed  bool
	err     error
	buf     []byte // the entry being written
	// oldNews counts the entries written whose news article was
	// published more than formats.NewsAge before the writer was made;
	// oldestNews is the first of them.
	oldNews    int
	oldestNews string
	now        time.Time
	// incomplete names the first extension data left out because it
	// lacks a required field.
	incomplete string
	news       int // the entries written with news data
}

// NewWriter returns a writer of a sitemap to w. The first entry decides the
// document: a urlset for formats.KindURL, a sitemap index for
// formats.KindSitemap. With no entry at all, Close writes an empty urlset,
// or an empty sitemap index when opts.Index is set.
func NewWriter(w io.Writer, opts formats.WriteOptions) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), opts: opts, now: time.Now()}
}

// Write writes one entry: loc, lastmod, changefreq and priority for a page;
// loc and lastmod for a child sitemap. It returns ErrMixedKinds, and writes
// nothing, for an entry of another kind than the first. It adds exactly
// EntrySize(e) bytes to the output.
func (w *Writer) Write(e formats.Entry) error {
	w.buf = appendEntry(w.buf[:0], &e, w.opts.Uses)
	return w.WriteEntryBytes(e, w.buf)
}

// WriteEntryBytes writes b, the bytes AppendEntry gave for an entry e with
// this writer's options, as Write(e) would: a caller that measures an
// entry by rendering it (to split at a size limit, say) renders it once.
// It returns ErrMixedKinds, and writes nothing, for an entry of another
// kind than the first.
func (w *Writer) WriteEntryBytes(e formats.Entry, b []byte) error {
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
	_, w.err = w.w.Write(b)
	if w.err == nil && e.Ext != nil && w.incomplete == "" {
		// Said at Close: appendEntry left these out.
		if what := e.Ext.Incomplete(); what != "" {
			w.incomplete = e.Loc + ": " + what
		}
	}
	if w.err == nil && e.Ext != nil && e.Ext.News != nil {
		w.news++
		if pd := e.Ext.News.PublicationDate; !pd.IsZero() && w.now.Sub(pd.Time()) > formats.NewsAge {
			if w.oldNews++; w.oldNews == 1 {
				w.oldestNews = e.Loc
			}
		}
	}
	return w.err
}

// AppendEntry appends to b the bytes a Writer with options o adds to the
// output for e, and returns the extended buffer: len of what it appends is
// EntrySizeWith(e, o). The loc is scanned once, escaped as it is copied.
func AppendEntry(b []byte, e formats.Entry, o formats.WriteOptions) []byte {
	return appendEntry(b, &e, o.Uses)
}

// appendEntry appends an entry as the Writer writes it: loc, lastmod,
// changefreq and priority for a page; loc and lastmod for a child sitemap;
// then the extension elements.
func appendEntry(b []byte, e *formats.Entry, uses formats.ExtensionSet) []byte {
	if e.Kind == formats.KindSitemap {
		b = append(b, "<sitemap><loc>"...)
	} else {
		b = append(b, "<url><loc>"...)
	}
	b = appendEscaped(b, e.Loc)
	b = append(b, "</loc>"...)
	if !e.LastMod.IsZero() {
		b = append(b, "<lastmod>"...)
		b = e.LastMod.AppendText(b)
		b = append(b, "</lastmod>"...)
	}
	if e.Kind == formats.KindSitemap {
		if e.Ext != nil {
			b = appendForeign(b, e.Ext)
		}
		return append(b, "</sitemap>\n"...)
	}
	if e.ChangeFreq != "" {
		b = append(b, "<changefreq>"...)
		b = appendEscaped(b, string(e.ChangeFreq))
		b = append(b, "</changefreq>"...)
	}
	if e.Priority.IsSet() {
		b = append(b, "<priority>"...)
		b = e.Priority.AppendText(b)
		b = append(b, "</priority>"...)
	}
	if e.Ext != nil {
		b = appendExt(b, e.Ext, uses)
	}
	return append(b, "</url>\n"...)
}

func (w *Writer) start(k formats.Kind) {
	w.started, w.kind = true, k
	switch {
	case len(w.opts.Head) > 0:
		w.w.Write(appendHeader(nil, k == formats.KindSitemap, w.opts))
	case k == formats.KindSitemap && w.opts.Stylesheet == "":
		w.w.WriteString(IndexHeader)
	case k == formats.KindURL && w.opts.Stylesheet == "" && w.opts.Uses == 0:
		w.w.WriteString(URLSetHeader)
	default:
		w.w.Write(appendHeader(nil, k == formats.KindSitemap, w.opts))
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
	if w.incomplete != "" && w.opts.Warn != nil {
		w.opts.Warn(fmt.Sprintf("extension data without a required field left out (the first: %s)", w.incomplete))
	}
	if w.news > formats.MaxNews && w.opts.Warn != nil {
		w.opts.Warn(fmt.Sprintf("%d entries with news data in one sitemap, over the %d a news sitemap may hold: split them into files of at most %d, in an index",
			w.news, formats.MaxNews, formats.MaxNews))
	}
	if w.oldNews > 0 && w.opts.Warn != nil {
		w.opts.Warn(fmt.Sprintf("%s with news data published more than two days ago (the first: %s): Google News sitemaps should list only the articles of the last two days",
			plural(w.oldNews, "entry", "entries"), w.oldestNews))
	}
	return w.err
}

// EntrySize returns the number of bytes Writer.Write adds to the output for
// e, so that a caller can split output at a size limit exactly: a document
// is HeaderSize(o) + the sum of EntrySize of its entries + FooterSize(o)
// bytes long, when o.Uses holds every extension the entries use (as it
// should). EntrySizeWith gives the size for any options.
func EntrySize(e formats.Entry) int {
	return EntrySizeWith(e, formats.WriteOptions{Uses: formats.ExtAll})
}

// EntrySizeWith returns the number of bytes a Writer with options o adds
// to the output for e, whatever o.Uses holds.
func EntrySizeWith(e formats.Entry, o formats.WriteOptions) int {
	n := coreSize(e)
	if e.Ext == nil {
		return n
	}
	buf := extPool.Get().(*[]byte)
	if e.Kind == formats.KindSitemap {
		*buf = appendForeign((*buf)[:0], e.Ext)
	} else {
		*buf = appendExt((*buf)[:0], e.Ext, o.Uses)
	}
	n += len(*buf)
	if cap(*buf) <= 1<<20 {
		extPool.Put(buf)
	}
	return n
}

// extPool holds the buffers EntrySizeWith writes extension data to.
var extPool = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// coreSize returns the size of the entry without its extension data.
func coreSize(e formats.Entry) int {
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

// appendEscaped appends s with & ' " < > escaped.
func appendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		if r := escapes[s[i]]; r != "" {
			b = append(b, s[last:i]...)
			b = append(b, r...)
			last = i + 1
		}
	}
	return append(b, s[last:]...)
}

// escapedLen returns the length of s once escaped by appendEscaped.
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if r := escapes[s[i]]; r != "" {
			n += len(r) - 1
		}
	}
	return n
}
