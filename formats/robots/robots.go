// Package robots reads the Sitemap: lines of a robots.txt file as a list of
// child sitemaps.
//
// The field name is matched without regard to case, anywhere in the file and
// whatever user-agent group it stands in. Values are trimmed; relative values
// resolve against the location the file was read from (ReadOptions.Base) and
// are skipped with a warning when there is none; a sitemap named twice is
// listed once. Every other line is ignored. Importing the package registers
// the format as "robots".
package robots

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Format is the registered robots.txt format. It can be read only.
var Format = formats.Register(&formats.Format{
	Name:        "robots",
	Description: "robots.txt: its Sitemap: lines, read as a list of child sitemaps",
	Detect:      detect,
	NewReader:   func(r io.Reader, o formats.ReadOptions) formats.Reader { return NewReader(r, o) },
})

// fields are the robots.txt field names a file is recognized by.
var fields = []string{"user-agent", "disallow", "allow", "sitemap", "crawl-delay", "host", "clean-param", "request-rate", "visit-time", "noindex"}

// detect accepts text whose first line that is not blank or a comment is a
// robots.txt field.
func detect(s *formats.Sniffed) bool {
	if s.Content != formats.ContentText {
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

// Reader reads the Sitemap: lines of a robots.txt.
type Reader struct {
	sc   *bufio.Scanner
	opts formats.ReadOptions
	line int
	seen map[string]bool
}

// NewReader returns a reader of the robots.txt r.
func NewReader(r io.Reader, opts formats.ReadOptions) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	return &Reader{sc: sc, opts: opts, seen: map[string]bool{}}
}

// Next returns the next sitemap the file names, as an entry of
// formats.KindSitemap, or io.EOF after the last.
func (r *Reader) Next() (formats.Entry, error) {
	for r.sc.Scan() {
		r.line++
		line := r.sc.Bytes()
		if r.line == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !strings.EqualFold(string(bytes.TrimSpace(name)), "sitemap") {
			continue
		}
		loc, err := formats.ParseLoc(string(value), r.opts.Base)
		if err != nil {
			if werr := r.opts.Warning(r.line, 1, true, err); werr != nil {
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
	if err := r.sc.Err(); err != nil {
		return formats.Entry{}, &formats.ParseError{Source: r.opts.Source, Line: r.line + 1, Err: err}
	}
	return formats.Entry{}, io.EOF
}
