package formats

import (
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Reader is a stream of entries. Next returns the next entry, or io.EOF
// after the last one. Any other error ends the stream part-way; the entries
// already returned stay valid.
type Reader interface {
	Next() (Entry, error)
}

// ExtraReader is a Reader that also tells what its document holds beyond
// its entries. A reader with nothing of one kind returns its zero value
// (nil, 0).
type ExtraReader interface {
	Reader
	// Head returns the document-level foreign elements read so far
	// (the XML reader's ResourceSync rs:md and rs:ln, say), in document
	// order, each verbatim, self-contained XML (the namespace
	// declarations it needs are on its own start tag).
	Head() []string
	// LeftOut returns how many entries were left out so far, without a
	// warning, as no pages to list: a crawler export's rows marked
	// non-indexable, a page that asks not to be indexed. They are no
	// problem of the document, but the account counts them
	// (convert.InputStats).
	LeftOut() int
}

// Writer writes entries as one document. Close writes what ends the
// document (an XML footer, say) and flushes; it does not close the
// underlying io.Writer. A Writer must be closed even when no entry was
// written, which gives an empty but valid document.
type Writer interface {
	Write(Entry) error
	Close() error
}

// A KeepsNothing is a Writer that says whether its Write keeps nothing of
// the entry it is given once it returns, copying what it needs: then the
// caller may use the memory of the entry's strings again (package convert
// does, for the URLs of text lists).
type KeepsNothing interface {
	// KeepsNothing reports whether Write keeps nothing of its entry.
	KeepsNothing() bool
}

// WriteOptions configure a Writer.
type WriteOptions struct {
	// Index asks for a sitemap index rather than a urlset when no entry
	// decides it (an empty output). Entries of KindSitemap always give an
	// index.
	Index bool
	// Uses is the set of extensions the entries hold, known before the
	// first is written, so that an XML writer declares exactly those
	// namespaces on the root element.
	Uses ExtensionSet
	// Head are document-level foreign elements (ResourceSync's rs:md and
	// rs:ln, say), each verbatim, self-contained XML as ExtraReader.Head gives
	// them, that an XML writer writes right after the root start tag,
	// before the entries, one a line. Other writers ignore them.
	Head []string
	// Stylesheet, when set, is the URL of an XSL stylesheet that XML
	// writers name in an <?xml-stylesheet?> instruction.
	Stylesheet string
	// Feed describes the feed itself, for the feed writers.
	Feed FeedInfo
	// Warn, when set, receives what a writer had to make up or leave out
	// that the caller should know (the Atom writer's dates for undated
	// entries, the XML writer's news articles over two days old), once
	// per document, at Close.
	Warn func(msg string)
}

// FeedInfo is what a feed says about itself, for the RSS and Atom writers.
type FeedInfo struct {
	Title       string // the feed's title
	Link        string // the site the feed is about
	Description string // what the feed is about
	ID          string // the feed's permanent identifier (Atom id)
}

// Format is a registered format: how to recognize it, and how to read or
// write it. A read-only format has no NewWriter, a write-only one no
// NewReader and Detect.
type Format struct {
	// Name is how --from and --to name the format.
	Name string
	// Description says in one line what the format is and accepts.
	Description string
	// Detect reports whether an input is in this format, by how it starts:
	// prefix is its first 16 KiB (or all of a shorter input), gzip layers
	// removed and decoded to UTF-8, a byte order mark included. It decides
	// by what the input starts with, never by something found further on.
	// Formats' detectors never overlap.
	Detect func(prefix []byte) bool
	// NewReader returns a reader of r.
	NewReader func(r io.Reader, opts ReadOptions) Reader
	// ReadDir, for a format that reads a directory tree (a static
	// site's pages), returns a reader of d, read with the format's own
	// options d.Options: Open calls it for a *Dir. Such a format needs
	// no NewReader or Detect.
	ReadDir func(d *Dir, opts OpenOptions) Reader
	// NewWriter returns a writer to w. Register sets it for a format
	// that has a NewEncoder and no NewWriter of its own.
	NewWriter func(w io.Writer, opts WriteOptions) Writer
	// NewEncoder, for a format whose documents are rendered entry by
	// entry, returns the Encoder of one document written with opts: what
	// its Writer writes, and what package output measures to split a set
	// of files at a size limit. Nil for a format written as one whole
	// document (a feed), which is never split.
	NewEncoder func(opts WriteOptions) Encoder
	// encodes is set by Register when NewWriter is the Encoder's writer.
	encodes bool
	// Extensions are the output file name extensions that select the
	// format, such as ".xml".
	Extensions []string
	// Carries is the extension data the format holds: what its Writer
	// keeps (the rest is dropped, and counted by package convert) and what
	// its Reader may give.
	Carries ExtensionSet
	// Sitemap says a document of the format is a sitemap for search
	// engines (XML or a text list): the protocol's limits apply, and
	// robots.txt's Sitemap: lines name it.
	Sitemap bool
	// Feed says a document of the format is a feed: one document whose
	// items have titles, and whose writer takes WriteOptions.Feed (title,
	// link, description, id). A format is a sitemap, a feed or neither (a
	// robots.txt, data for tools), never both.
	Feed bool
	// NewestFirst says the format lists its entries newest first (a
	// feed): the output is sorted by lastmod, and never by loc. Otherwise
	// entries are written in the order given.
	NewestFirst bool
	// Index names the format of the index that lists the parts when the
	// output is split into several files (the format itself, or "xml" for
	// a text sitemap's parts); "" for a format whose output is always one
	// document (a feed).
	Index string
	// Tidy says the locs written are tidied by default: no fragment,
	// default port, dot segment or empty query, which never change the
	// page. A feed's links keep theirs: an item may link to its place on a
	// page.
	Tidy bool
	// Scoped says the protocol's scope rule applies to the output: with
	// the URL it is served from and no host filter, entries outside that
	// host and directory are left out. A feed links anywhere.
	Scoped bool
	// OneFile says the format may be written as one file whatever its size,
	// held to none of the protocol's limits: a plain list for tools rather
	// than a sitemap for search engines.
	OneFile bool
	// Nests says a document may name further documents to read (a sitemap
	// index's children, robots.txt's Sitemap: lines), whose entries may
	// hold any extension data.
	Nests bool
}

// HoldsTexts reports whether the format's documents hold the entries'
// titles and summaries (Entry.Title and Entry.Summary): every format but a
// sitemap, which has no place for them.
func (f *Format) HoldsTexts() bool { return !f.Sitemap }

// CanRead reports whether the format has a reader.
func (f *Format) CanRead() bool { return f.NewReader != nil }

// CanWrite reports whether the format has a writer.
func (f *Format) CanWrite() bool { return f.NewWriter != nil }

// WriterKeepsNothing reports whether the Writers NewWriter makes keep
// nothing of an entry once Write returns (KeepsNothing): those Register
// made from the format's Encoder.
func (f *Format) WriterKeepsNothing() bool { return f.encodes }

var (
	registryMu sync.RWMutex
	registry   = map[string]*Format{}
)

// Register makes a format available by name and returns it, so that
// declaring and registering is one statement. It panics when f is nil, has
// no name, has neither reader nor writer, or when its name is taken.
func Register(f *Format) *Format {
	registryMu.Lock()
	defer registryMu.Unlock()
	switch {
	case f == nil || f.Name == "":
		panic("formats: Register of a nil or unnamed format")
	case f.NewReader == nil && f.ReadDir == nil && f.NewWriter == nil && f.NewEncoder == nil:
		panic("formats: Register of format " + f.Name + " with neither reader nor writer")
	case f.NewReader != nil && f.Detect == nil:
		panic("formats: Register of format " + f.Name + " with a reader but no detector")
	case f.Sitemap && f.Feed:
		panic("formats: Register of format " + f.Name + " as both a sitemap and a feed")
	}
	if f.NewWriter == nil && f.NewEncoder != nil {
		f.NewWriter = func(w io.Writer, o WriteOptions) Writer { return newEncodingWriter(w, f.NewEncoder, o) }
		f.encodes = true
	}
	if _, dup := registry[f.Name]; dup {
		panic("formats: Register called twice for format " + f.Name)
	}
	registry[f.Name] = f
	return f
}

// Lookup returns the format registered under name.
func Lookup(name string) (*Format, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if f, ok := registry[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("%w %q (registered: %s)", ErrNoFormat, name, strings.Join(namesLocked(), ", "))
}

// Formats returns every registered format, sorted by name.
func Formats() []*Format {
	registryMu.RLock()
	defer registryMu.RUnlock()
	fs := make([]*Format, 0, len(registry))
	for _, name := range namesLocked() {
		fs = append(fs, registry[name])
	}
	return fs
}

// namesLocked returns the sorted names of the registered formats; the
// caller holds registryMu.
func namesLocked() []string {
	names := make([]string, 0, len(registry))
	for name := range registry {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// ForFileName returns the writable format whose extension ends the file
// name, ignoring a final ".gz", or nil when none does.
func ForFileName(name string) *Format {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	ext := filepath.Ext(name)
	if ext == "" {
		return nil
	}
	for _, f := range Formats() {
		if f.CanWrite() && slices.Contains(f.Extensions, ext) {
			return f
		}
	}
	return nil
}

// Detect returns the readable formats whose detectors accept an input that
// starts with prefix (see Format.Detect). Exactly one is expected; more
// than one is a bug in the detectors. Open detects the format of its input
// this way.
func Detect(prefix []byte) []*Format {
	var found []*Format
	for _, f := range Formats() {
		if f.CanRead() && f.Detect(prefix) {
			found = append(found, f)
		}
	}
	return found
}

// All returns an iterator over the entries of r for use with range. The
// iteration stops after the first error, which it yields with a zero Entry;
// io.EOF is not yielded.
func All(r Reader) iter.Seq2[Entry, error] {
	return func(yield func(Entry, error) bool) {
		for {
			e, err := r.Next()
			if err == io.EOF {
				return
			}
			if !yield(e, err) || err != nil {
				return
			}
		}
	}
}
