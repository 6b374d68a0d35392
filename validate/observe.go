package validate

import (
	"io"

	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// Observation is the check of one document that a caller reads itself
// (feed2sitemap convert --strict), sharing the caller's reading: the XML
// rules are given the tokens of the caller's XML reader (XML, to attach to
// it), and the bytes written to the Observation (the raw input, gzip
// included) are checked for the rules of the bytes (gzip, size, encoding,
// characters) and, when the document is not XML, for all the rules of its
// format. Close ends the check.
type Observation struct {
	w      io.WriteCloser
	doc    *doc
	ev     *xmlEvents
	proxy  *xmlProxy // what XML returns: ev, or its recording once deferred
	shared *textenc.Shared
	closed bool
}

// Observe returns the check of one document, which calls report for each
// finding. The bytes are checked on another goroutine, which calls report
// too; the Validator must not be used otherwise until Close returns.
func (v *Validator) Observe(src Source, report func(Finding)) *Observation {
	// The bytes and the tokens are checked apart, each by a Validator of
	// its own: the bytes' Validator leaves the XML to the tokens'.
	bytes := New(v.opts)
	bytes.xmlElsewhere = true
	bytes.shared = &textenc.Shared{}
	if v.opts.Independent {
		v.reset()
	}
	d := v.newDoc(src, report)
	d.x = &xmlCheck{}
	ev := &xmlEvents{d: d}
	return &Observation{w: bytes.Writer(src, report), doc: d, ev: ev, proxy: &xmlProxy{FieldObserver: ev, ev: ev}, shared: bytes.shared}
}

// TextShared returns what the check of the bytes shares with the
// caller's own decoding of the same input (internal/source.SharedReader):
// the text either finds valid is checked once.
func (o *Observation) TextShared() *textenc.Shared { return o.shared }

// XML returns the observer to attach to the document's XML reader
// (formats.ReadOptions.Observer). It also tells the normal form of the
// url the rules checked last: NormalForm(loc) (key string, scope int, ok
// bool), as xmlEvents.NormalForm.
func (o *Observation) XML() sitemapxml.Observer { return o.proxy }

// Write checks the next bytes of the document. It never fails because of
// the check.
func (o *Observation) Write(p []byte) (int, error) { return o.w.Write(p) }

// Close ends the check, once the document has been read as far as the
// caller reads it, and returns what Validator.Check would: an error only
// when the bytes could not be read. Closing again returns the same.
func (o *Observation) Close() error {
	err := o.w.Close()
	if !o.closed {
		o.closed = true
		o.doc.finish()
	}
	return err
}
