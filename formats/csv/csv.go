// Package csv reads CSV and TSV exports with a header row as lists of
// pages: a crawler's export (Screaming Frog's internal_all.csv), Search
// Console's Pages export, a spreadsheet. Importing the package registers
// the format as "csv"; it can be read, not written.
//
// The URLs come from the column whose header is url, loc, address, page,
// pages, top pages, landing page, page url, link, permalink, location, uri
// or href (in any case, '-' and '_' read as spaces), else from the first
// column whose value in the first row is an absolute http(s) URL. The
// lastmod comes from a column named lastmod, last modified, modified, date
// modified, last updated, updated or date, read as every reader reads dates
// (formats.ParseLastMod: W3C Datetime and RFC 822/1123; a date and time
// without a time zone keeps its date, vocab.DateOfZoneless); a title,
// changefreq or priority column fills those fields. Other columns are
// ignored.
//
// Fields are separated by tabs, ';' or ',' (whichever of them the header
// row holds most of outside quotes) and quoted as RFC 4180 says: commas,
// doubled quotes and line breaks inside quotes; in TSV a quote inside a
// field is taken as it is. Lines end with LF or CRLF, a UTF-8 byte order
// mark is dropped, blank lines and lines starting with '#' are skipped.
// The reader streams, one record at a time, each at most MaxRecordLength
// bytes (blank lines before it included): a longer one (a quote left open,
// say) stops the reading with an error naming the line. A row that cannot
// be read, or whose URL is missing or bad, is skipped with a warning
// naming its line; a bad date, changefreq or priority drops that field
// with a warning.
//
// Content is recognized as CSV by its first line that is neither blank nor
// a '#' comment: a header row of two or more cells separated by a
// delimiter (or a single cell naming a URL column), none of them a URL, at
// least one a column name of the exports above (url, address, top pages,
// lastmod, title, status code, clicks...), and not starting like a
// robots.txt field ("Name:"). A list of URLs, one per line, is a text
// sitemap, never CSV. --from csv reads any CSV with a header row.
package csv

import (
	"bufio"
	stdcsv "encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// MaxRecordLength is the longest record (a row, line breaks inside quotes
// included) the reader reads, in bytes.
const MaxRecordLength = 256 << 10

// Format is the registered CSV format. It can be read only.
var Format = formats.Register(&formats.Format{
	Name:        "csv",
	Description: "CSV or TSV export with a header row (a crawler's, Search Console's, a spreadsheet): URLs from its url, address or page column, lastmod from its date column",
	Detect:      detect,
	NewReader:   func(r io.Reader, o formats.ReadOptions) formats.Reader { return NewReader(r, o) },
})

// detect accepts text whose first line that is not blank or a comment is a
// header row (see isHeader).
func detect(prefix []byte) bool {
	s := sniff.Of(prefix)
	return s.Content == sniff.Text && isHeader(s.FirstLine)
}

var errTooLong = fmt.Errorf("a record longer than %d KiB (a quote left open?): reading stopped", MaxRecordLength>>10)

// Reader reads the rows of a CSV or TSV export as entries.
type Reader struct {
	br   *bufio.Reader
	in   *bounded
	csv  *stdcsv.Reader
	opts formats.ReadOptions
	// names are the header's cells; url, date, title, changeFreq and
	// priority the indexes of the columns read, -1 for none (url is found
	// in the first row when no header names it).
	names                                  []string
	url, date, title, changeFreq, priority int
	line                                   int  // the line of the last record read
	zonelessSaid                           bool // a date without a time zone was reported
	pages                                  pageColumns
	err                                    error
}

// NewReader returns a reader of the CSV or TSV document r, whose first
// record is its header row. The delimiter is sniffed from the header row
// when Next is first called.
func NewReader(r io.Reader, opts formats.ReadOptions) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10), opts: opts}
}

// Next returns the entry of the next row, or io.EOF after the last.
func (r *Reader) Next() (formats.Entry, error) {
	if r.csv == nil && r.err == nil {
		r.start()
	}
	for r.err == nil {
		rec, err := r.csv.Read()
		switch {
		case err == io.EOF:
			r.err = io.EOF
			continue
		case errors.Is(err, errTooLong):
			r.err = &formats.ParseError{Source: r.opts.Source, Line: r.line + 1, Err: errTooLong}
			continue
		}
		if pe := (*stdcsv.ParseError)(nil); errors.As(err, &pe) {
			r.in.start = r.csv.InputOffset()
			r.line = pe.Line
			r.err = r.opts.Warningf(pe.StartLine, pe.Column, true, "row skipped: %v", pe.Err)
			continue
		}
		if err != nil {
			r.err = &formats.ParseError{Source: r.opts.Source, Line: r.line + 1, Err: err}
			continue
		}
		r.in.start = r.csv.InputOffset()
		r.line, _ = r.csv.FieldPos(len(rec) - 1)
		line, _ := r.csv.FieldPos(0)
		if r.names == nil {
			r.header(rec)
			continue
		}
		if e, ok := r.row(rec, line); ok {
			return e, nil
		}
	}
	return formats.Entry{}, r.err
}

// start sniffs the delimiter from the header line and makes the CSV
// reader.
func (r *Reader) start() {
	prefix, _ := r.br.Peek(sniff.Len)
	comma, _ := delimiter(sniff.Of(prefix).FirstLine)
	r.in = &bounded{r: r.br}
	r.csv = stdcsv.NewReader(r.in)
	r.csv.Comma, r.csv.Comment = comma, '#'
	r.csv.FieldsPerRecord, r.csv.ReuseRecord = -1, true
	// TSV is seldom quoted: a quote inside a field is a character.
	r.csv.LazyQuotes = comma == '\t'
}

// header takes the columns to read from the header row.
func (r *Reader) header(rec []string) {
	rec[0] = strings.TrimPrefix(rec[0], "\ufeff")
	r.names = slices.Clone(rec)
	r.url = column(rec, urlNames)
	r.date = column(rec, dateNames)
	r.title = column(rec, titleNames)
	r.changeFreq = column(rec, changeFreqNames)
	r.priority = column(rec, priorityNames)
	r.pages.find(rec)
}

// cell returns the value of column i of rec, trimmed, and where it is;
// "" when the row is too short to have it.
func (r *Reader) cell(rec []string, i int) (string, int, int) {
	if i < 0 || i >= len(rec) {
		return "", 0, 0
	}
	line, col := r.csv.FieldPos(i)
	return uri.TrimSpace(rec[i]), line, col
}

// row returns the entry of a record at line, and false when it has none.
func (r *Reader) row(rec []string, line int) (formats.Entry, bool) {
	if r.url < 0 {
		r.url = slices.IndexFunc(rec, isAbsolute)
		if r.url < 0 {
			r.warn(line, 0, true, "row skipped: no column is named like a URL column (url, loc, address, page, top pages...) and no field of the row is an absolute URL")
			return formats.Entry{}, false
		}
	}
	if !r.pages.keep(r, rec) {
		return formats.Entry{}, false
	}
	raw, at, col := r.cell(rec, r.url)
	if raw == "" {
		if r.url >= len(rec) {
			r.warn(line, 0, true, "row skipped: %d fields, no %s (field %d)", len(rec), r.name(r.url), r.url+1)
		} else {
			r.warn(at, col, true, "row skipped: no URL in %s", r.name(r.url))
		}
		return formats.Entry{}, false
	}
	loc, err := formats.ParseLoc(raw, r.opts.Base)
	if err != nil {
		r.warn(at, col, true, "row skipped: %s: %v", r.name(r.url), err)
		return formats.Entry{}, false
	}
	e := formats.Entry{Loc: loc}
	e.LastMod = r.lastMod(rec)
	e.Title, _, _ = r.cell(rec, r.title)
	if s, at, col := r.cell(rec, r.changeFreq); s != "" {
		if cf, ok := formats.ParseChangeFreq(s); ok {
			e.ChangeFreq = cf
		} else {
			r.warn(at, col, false, "changefreq %q ignored: not always, hourly, daily, weekly, monthly, yearly or never", s)
		}
	}
	if s, at, col := r.cell(rec, r.priority); s != "" {
		if p, ok := vocab.ParsePriority([]byte(s)); ok {
			e.Priority = p
		} else {
			r.warn(at, col, false, "priority %q ignored: not a number from 0.0 to 1.0", s)
		}
	}
	return e, r.err == nil
}

// lastMod reads the date column of rec.
func (r *Reader) lastMod(rec []string) formats.LastMod {
	s, at, col := r.cell(rec, r.date)
	if s == "" {
		return formats.LastMod{}
	}
	l, err := formats.ParseLastMod(s)
	if err == nil {
		return l
	}
	if d, ok := vocab.DateOfZoneless(s); ok {
		if !r.zonelessSaid {
			r.zonelessSaid = true
			r.warn(at, col, false, "%s: %q has no time zone: only its date is kept (said once, for the first)", r.name(r.date), s)
		}
		return d
	}
	r.warn(at, col, false, "%s ignored: %v", r.name(r.date), err)
	return formats.LastMod{}
}

// name says which column i is: by the header's name for it, quoted, or
// by number when the header is shorter.
func (r *Reader) name(i int) string {
	if i < len(r.names) && strings.TrimSpace(r.names[i]) != "" {
		return fmt.Sprintf("column %q", strings.TrimSpace(r.names[i]))
	}
	return fmt.Sprintf("column %d", i+1)
}

// warn reports a problem at line and col; in strict mode it ends the
// reading.
func (r *Reader) warn(line, col int, skipped bool, format string, args ...any) {
	if err := r.opts.Warningf(line, col, skipped, format, args...); err != nil && r.err == nil {
		r.err = err
	}
}

// isAbsolute reports whether a field is an absolute http(s) URL.
func isAbsolute(field string) bool {
	s := uri.TrimSpace(field)
	if len(s) < 8 || !strings.EqualFold(s[:7], "http://") && !strings.EqualFold(s[:8], "https://") {
		return false
	}
	_, err := formats.ParseLoc(s, nil)
	return err == nil
}

// bounded reads r for a CSV reader, and fails with errTooLong once the
// reader holds more than MaxRecordLength bytes of a record it has not
// finished: memory stays bounded whatever the input (a quote left open, a
// line of millions of fields).
type bounded struct {
	r     io.Reader
	read  int64 // bytes read
	start int64 // where the record being read starts
}

func (b *bounded) Read(p []byte) (int, error) {
	if b.read-b.start > MaxRecordLength {
		return 0, errTooLong
	}
	n, err := b.r.Read(p)
	b.read += int64(n)
	return n, err
}
