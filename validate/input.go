package validate

import (
	"bufio"
	"errors"
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/robots"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// checker is how the documents of a format are checked.
type checker struct {
	// check reads the document's text and reports what is wrong.
	check func(d *doc, r io.Reader)
	// named is set when check names the document's format itself
	// (Document.Format): a sitemap says by its root whether it is an
	// index. Otherwise the document is named after its format.
	named bool
	// parent is what the document is to the sitemaps it lists.
	parent parentKind
}

// checkers are the checks of the formats the validator knows, by format:
// Check runs the one of the format the readers recognize the document as.
// (Set by init: the checks follow children, which runs checks.)
var checkers map[*formats.Format]*checker

func init() {
	checkers = map[*formats.Format]*checker{
		sitemapxml.Format: {check: (*doc).checkXML, named: true, parent: parentIndex},
		feed.Format:       {check: (*doc).checkFeed},
		text.Format:       {check: (*doc).checkText},
		robots.Format:     {check: (*doc).checkRobots, parent: parentRobots},
	}
}

// run opens the document the way formats.Open does (internal/source: gzip
// layers, the protocol's size cap, charset decoding), each invalid
// character a finding, and runs the check of its format.
func (d *doc) run(r io.Reader) error {
	text := textenc.Options{Each: d.invalid, Mark: true, Charset: d.src.Charset}
	if d.parentKind == parentNone {
		text.Shared = d.v.shared
	}
	src, err := source.Open(r, source.Options{MaxBytes: formats.MaxBytes, Text: text})
	var gz *source.GzipError
	switch {
	case errors.Is(err, source.ErrGzipDepth):
		d.reportAt(ruleGzip, 0, 0, "%v; not checked further", err)
		return nil
	case errors.As(err, &gz):
		d.reportAt(ruleGzip, 0, 0, "corrupt gzip header: %v", gz.Err)
		return nil
	case err != nil:
		return d.readError(err)
	}
	if src.Binary() {
		d.reportAt(ruleUnknownFormat, 0, 0, "not a sitemap, feed, URL list or robots.txt (binary data)")
	} else if err := d.dispatch(src); err != nil {
		return err
	}
	// Read what the check did not, so that the size is counted.
	if !d.stopped {
		if err := src.Drain(); err != nil {
			d.inputError(err)
		}
	}
	d.info.Bytes = src.Bytes()
	if d.readErr != nil {
		return d.readError(d.readErr)
	}
	d.finish()
	return nil
}

// dispatch reports the document's encoding when it is not UTF-8, sniffs
// its format and runs the format's check.
func (d *doc) dispatch(src *source.Reader) error {
	if enc := src.Encoding(); enc != "" {
		d.reportAt(ruleEncoding, 1, 1, "the document is encoded in %s, not UTF-8", enc)
	}
	in := bufio.NewReaderSize(input{d, src}, sniff.Len)
	prefix, _ := in.Peek(sniff.Len)
	if d.stopped && d.readErr != nil {
		return d.readError(d.readErr)
	}
	sniffed := sniff.Of(prefix)
	found := formats.Detect(prefix)
	c := (*checker)(nil)
	switch {
	case len(found) == 1:
		c = checkers[found[0]]
		if c == nil {
			// A format the validator has no rules of its own for: its
			// reader's verdict, and the rules of every sitemap's URLs.
			f := found[0]
			c = &checker{check: func(d *doc, r io.Reader) {
				d.checkEntries(r, f, entryRules{skipped: ruleEntrySkipped, invalid: ruleEntriesInvalid, item: "entry"})
			}}
		}
	case sniffed.Content == sniff.XML:
		// XML of no known format: the sitemap check's root-element
		// finding says what it is.
		c = checkers[sitemapxml.Format]
	}
	switch {
	case c != nil:
		d.check = c
		if !c.named {
			d.info.Format = found[0].Name
		}
		c.check(d, in)
	case d.stopped:
		// corrupt gzip or a read error before anything could be sniffed
	case sniffed.Content == sniff.Empty:
		d.reportAt(ruleUnknownFormat, 0, 0, "the input is empty")
	default:
		d.reportAt(ruleUnknownFormat, 0, 0, "not a sitemap, feed, URL list or robots.txt (%s)", &sniffed)
	}
	return nil
}

// input is the document's text as the checks read it: an error of the
// input (damaged gzip data, more than formats.MaxBytes, a read error) is reported
// and ends it.
type input struct {
	d   *doc
	src *source.Reader
}

func (in input) Read(p []byte) (int, error) {
	if in.d.stopped {
		return 0, io.EOF
	}
	n, err := in.src.Read(p)
	if err != nil && err != io.EOF {
		in.d.inputError(err)
		return n, io.EOF
	}
	return n, err
}

// inputError stops the check at an error of the input: damaged gzip data
// and a document over formats.MaxBytes are findings; a read error is kept for
// Check to return.
func (d *doc) inputError(err error) {
	if d.stopped {
		return
	}
	d.stopped = true
	var gz *source.GzipError
	switch {
	case errors.Is(err, source.ErrTooLarge):
		d.reportAt(ruleTooLarge, 0, 0, "more than %d bytes uncompressed; checking stopped there", formats.MaxBytes)
	case errors.As(err, &gz):
		d.reportAt(ruleGzip, 0, 0, "corrupt gzip data after %d bytes: %v; checking stopped there", gz.Offset, gz.Err)
	default:
		d.readErr = err
	}
}

// invalid reports an invalid character of the document: the first
// maxCharFindings of each rule, the rest counted by finish.
func (d *doc) invalid(c textenc.Invalid) {
	which, r := 0, ruleInvalidUTF8
	if c.Rune >= 0 {
		which, r = 1, ruleInvalidChar
	}
	if d.charCount[which]++; d.charCount[which] > maxCharFindings {
		return
	}
	switch {
	case c.Rune >= 0x20:
		d.reportAt(r, c.Line, c.Column, "character U+%04X is not allowed in XML", c.Rune)
	case c.Rune >= 0:
		d.reportAt(r, c.Line, c.Column, "character U+%04X is not allowed in XML or text sitemaps", c.Rune)
	case c.Legacy:
		d.reportAt(r, c.Line, c.Column, "byte 0x%02X is not valid UTF-8 (no encoding is declared: read as windows-1252 %q, as the readers do)",
			c.Byte, textenc.Windows1252(c.Byte))
	default:
		d.reportAt(r, c.Line, c.Column, "byte 0x%02X is not valid UTF-8", c.Byte)
	}
}
