// Package robots reads the Sitemap: lines of a robots.txt file as a list of
// child sitemaps.
//
// The field name is matched without regard to case, anywhere in the file and
// whatever user-agent group it stands in. Lines end with LF, CRLF or CR. Values are trimmed; relative values
// resolve against the location the file was read from (ReadOptions.Base) and
// are skipped with a warning when there is none; a sitemap named twice is
// listed once. Every other line is ignored. Importing the package registers
// the format as "robots".
package robots

import (
	"bytes"
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/textlines"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// Format is the registered robots.txt format. It can be read only.
var Format = formats.Register(&formats.Format{
	Name:        "robots",
	Description: "robots.txt: its Sitemap: lines, read as a list of child sitemaps",
	Detect:      detect,
	NewReader:   func(r io.Reader, o formats.ReadOptions) formats.Reader { return NewReader(r, o) },
	Nests:       true,
})

// fields are the robots.txt field names a file is recognized by.
var fields = []string{"user-agent", "disallow", "allow", "sitemap", "crawl-delay", "host", "clean-param", "request-rate", "visit-time", "noindex"}

// detect accepts text whose first line that is not blank or a comment is a
// robots.txt field.
func detect(prefix []byte) bool {
	s := sniff.Of(prefix)
	if s.Content != sniff.Text {
		return false
	}
	name, _, ok := strings.Cut(s.FirstLine, ":")
	if !ok {
		return false
	}
	name = strings.ToLower(strings.TrimSpace(name))
	for _, f := range fields {
		if name == f {
			return true
		}
	}
	return false
}

// SitemapValue returns the value of a Sitemap: line of a robots.txt (the
// field name matched in any case): what follows the colon, up to a '#'
// comment, without surrounding space, and where it starts in line. ok is
// false for any other line.
func SitemapValue(line []byte) (value []byte, at int, ok bool) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	name, value, ok := bytes.Cut(line, []byte(":"))
	if !ok || !strings.EqualFold(string(bytes.TrimSpace(name)), "sitemap") {
		return nil, 0, false
	}
	trimmed := bytes.TrimLeft(value, " \t")
	return bytes.TrimRight(trimmed, " \t"), len(line) - len(trimmed), true
}

// Reader reads the Sitemap: lines of a robots.txt.
type Reader struct {
	lines *textlines.Reader
	opts  formats.ReadOptions
	seen  map[string]bool
}

// NewReader returns a reader of the robots.txt r. Lines end with LF, CRLF
// or CR, as RFC 9309 allows.
func NewReader(r io.Reader, opts formats.ReadOptions) *Reader {
	return &Reader{lines: textlines.NewReader(r), opts: opts, seen: map[string]bool{}}
}

// Next returns the next sitemap the file names, as an entry of
// formats.KindSitemap, or io.EOF after the last. A Sitemap: line longer
// than textlines.MaxLength is skipped with a warning; other long lines
// are ignored like every line that is not a Sitemap: line.
func (r *Reader) Next() (formats.Entry, error) {
	for {
		line, long, err := r.lines.Next()
		if err == io.EOF {
			return formats.Entry{}, err
		}
		if err != nil {
			return formats.Entry{}, &formats.ParseError{Source: r.opts.Source, Line: r.lines.Line() + 1, Err: err}
		}
		value, _, ok := SitemapValue(line)
		if !ok {
			continue
		}
		if long {
			if werr := r.opts.Warningf(r.lines.Line(), 1, true, "Sitemap: line longer than %d KiB skipped", textlines.MaxLength>>10); werr != nil {
				return formats.Entry{}, werr
			}
			continue
		}
		loc, err := r.parse(string(value))
		if err != nil {
			if werr := r.opts.Warning(r.lines.Line(), 1, true, err); werr != nil {
				return formats.Entry{}, werr
			}
			continue
		}
		if r.seen[loc] {
			continue
		}
		r.seen[loc] = true
		return formats.Entry{Loc: loc, Kind: formats.KindSitemap}, nil
	}
}

// parse returns the URL of a Sitemap: line. A relative one resolves against
// ReadOptions.Base; in strict mode it is refused, as validation does (the
// protocol wants an absolute URL), and so is a URL as written that breaks
// the URI grammar, which ParseLoc repairs (uri.LocProblem).
func (r *Reader) parse(value string) (string, error) {
	if !r.opts.Strict {
		return formats.ParseLoc(value, r.opts.Base)
	}
	loc, err := formats.ParseLoc(value, nil)
	if err == nil {
		err = uri.LocProblem(value)
	}
	return loc, err
}
