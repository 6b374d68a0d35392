// Package text reads and writes text sitemaps: one absolute http or https
// URL per line, in UTF-8.
//
// The reader tolerates a byte order mark, blank lines, space around URLs,
// '#' comment lines and LF, CRLF or CR line ends. A line that is not an
// absolute http(s) URL, or is longer than MaxLineLength, is skipped with a
// warning that names its line number. Importing the package registers the
// format as "text".
package text

import (
	"fmt"
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
	"github.com/feed2sitemap/feed2sitemap/internal/textlines"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// MaxLineLength is the longest line the reader accepts, in bytes; a longer
// line is skipped with a warning without being held in memory.
const MaxLineLength = textlines.MaxLength

// Format is the registered text format.
var Format = formats.Register(&formats.Format{
	Name:        "text",
	Description: "text sitemap: one absolute http(s) URL per line; blank lines and # comments ignored",
	Detect:      detect,
	NewReader:   func(r io.Reader, o formats.ReadOptions) formats.Reader { return NewReader(r, o) },
	NewEncoder:  func(formats.WriteOptions) formats.Encoder { return encoder{} },
	Extensions:  []string{".txt"},
	Sitemap:     true,
	Index:       "xml",
	Tidy:        true,
	Scoped:      true,
	OneFile:     true,
})

// detect accepts text whose first line that is not blank or a comment is an
// http(s) URL.
func detect(prefix []byte) bool {
	s := sniff.Of(prefix)
	return s.Content == sniff.Text && isURLLine(s.FirstLine)
}

func isURLLine(line string) bool {
	l := strings.ToLower(line[:min(len(line), 8)])
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// Reader reads a text sitemap.
type Reader struct {
	lines *textlines.Reader
	opts  formats.ReadOptions
	err   error
	urls  int              // URL lines read, valid or not
	strs  strblock.Strings // the strings of the URLs read (blockSize)
	// scope is the scope of the URL last given when plainLoc found it in
	// normal form as it read it, else -1 (see NormalScope).
	scope int
}

// NewReader returns a reader of the text sitemap r. Lines end with LF, CRLF
// or CR, and are reported to opts.Warn by number.
func NewReader(r io.Reader, opts formats.ReadOptions) *Reader {
	return &Reader{lines: textlines.NewReader(r), opts: opts, strs: strblock.Strings{Size: blockSize}, scope: -1}
}

// Release gives the buffers the reader and its input were built with
// back, for the readers made after it (formats.Releaser); it must not be
// used after. The URLs it returned stay valid: they are copies.
func (r *Reader) Release() {
	r.lines.Release()
	r.err = bufpool.ErrReleased
}

// Next returns the next URL, or io.EOF after the last line.
func (r *Reader) Next() (formats.Entry, error) {
	for r.err == nil {
		raw, long, err := r.lines.Next()
		if err != nil {
			if err != io.EOF {
				// A line cut short by a read error is not trusted.
				err = &formats.ParseError{Source: r.opts.Source, Line: r.lines.Line() + 1, Err: err}
			}
			r.err = err
			break
		}
		kind, line, _ := ParseLine(raw, long)
		switch kind {
		case LineBlank, LineComment:
			continue
		case LineTooLong:
			if werr := r.opts.Warning(r.lines.Line(), 1, true, errLongLine); werr != nil {
				r.err = werr
			}
			continue
		}
		if r.urls++; r.urls > formats.MaxURLs && r.opts.Strict {
			// Over the protocol's limit for one file: refused at the
			// URL past it, as validation does (too-many-urls).
			r.err = r.opts.TooManyURLs()
			break
		}
		s := r.strs.String(line)
		if !r.opts.Strict {
			if scope, ok := plainLoc(s); ok {
				r.scope = scope
				return formats.Entry{Loc: s}, nil
			}
		}
		r.scope = -1
		loc, perr := formats.ParseLoc(s, nil)
		switch {
		case perr != nil:
			// The warning outlives the block the string was cut from,
			// which may be used again (RecycleStrings): it quotes a copy.
			_, perr = formats.ParseLoc(string(line), nil)
		case r.opts.Strict:
			// A URL as written that breaks the URI grammar, which
			// ParseLoc repairs: refused, as validation does.
			perr = uri.LocProblem(string(line))
		}
		if perr != nil {
			if werr := r.opts.Warning(r.lines.Line(), 1, true, perr); werr != nil {
				r.err = werr
			}
			continue
		}
		return formats.Entry{Loc: loc}, nil
	}
	return formats.Entry{}, r.err
}

// NormalScope reports whether the reader found the URL it gave last in
// its normal form under the always-on rules of package normalize as it
// read it (see plainLoc), and then the length of its scope, as
// normalize's URLScope gives them: package convert then need not scan it
// again.
func (r *Reader) NormalScope() (scope int, ok bool) { return r.scope, r.scope >= 0 }

// RecycleStrings has the reader cut the strings of the URLs it reads from
// blocks that it uses again as r allows (see strblock.Recycler): package
// convert numbers the batches of entries it reads ahead, and says which
// its output is done with. Nothing the reader gives but the entries' locs
// comes from those blocks.
func (r *Reader) RecycleStrings(rec *strblock.Recycler) { r.strs.Recycle(rec) }

// blockSize is the size of the blocks the URLs read are copied into: one
// allocation for about 60 URLs rather than one each (internal/strblock).
const blockSize = 4 << 10

var errLongLine = fmt.Errorf("line longer than %d KiB skipped", MaxLineLength>>10)

// NewWriter returns a writer of a text sitemap to w: each entry's loc on
// a line of its own. Fields a text sitemap cannot hold are left out. Close
// flushes what is buffered; it does not close the underlying writer.
func NewWriter(w io.Writer) formats.Writer {
	return Format.NewWriter(w, formats.WriteOptions{})
}

// encoder renders a text sitemap: no header or footer, each entry its loc
// and a newline. It has nothing to say at the end.
type encoder struct{}

// AppendHeader appends nothing: a text sitemap has no header.
func (encoder) AppendHeader(b []byte) []byte { return b }

// AppendFooter appends nothing: a text sitemap has no footer.
func (encoder) AppendFooter(b []byte) []byte { return b }

// Wrote does nothing: a text sitemap has no warnings.
func (encoder) Wrote(*formats.Entry) {}

// Warnings returns none.
func (encoder) Warnings() []string { return nil }

// AppendEntry appends e's loc and a newline.
func (encoder) AppendEntry(b []byte, e *formats.Entry) ([]byte, error) {
	return append(append(b, e.Loc...), '\n'), nil
}
