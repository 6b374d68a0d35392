package formats

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// Sentinel errors: for inputs that cannot be read at all (a directory
// without its URL included), for the URLs ParseLoc rejects and for the
// dates ParseLastMod does not recognize.
var (
	// ErrEmpty is returned for an input with no content.
	ErrEmpty = errors.New("formats: empty input")
	// ErrTooManyURLs is wrapped by the error (strict reading) or the
	// warning (convert) of a document holding more than MaxURLs entries.
	ErrTooManyURLs = fmt.Errorf("formats: more than %d entries: over the protocol's limit for one file", MaxURLs)
	// ErrUnknownFormat is returned for an input that is not a sitemap, feed,
	// URL list or robots.txt. The error wrapping it says what the input
	// looked like.
	ErrUnknownFormat = errors.New("formats: not a sitemap or feed")
	// ErrNoFormat is returned by Lookup for a name no format registered.
	ErrNoFormat = errors.New("formats: no such format")
	// ErrAmbiguous is returned for content that the detectors of several
	// formats accept (OpenOptions.From names the one to read it as). The
	// error wrapping it names them.
	ErrAmbiguous = errors.New("formats: content matches several formats")
	// ErrDamaged is matched (with errors.Is) by errors that end an input
	// part-way but leave what came before intact: a document cut short, a
	// truncated or corrupt gzip stream. The entries read before such an
	// error can be kept. A document that is malformed in the middle is not
	// damaged in this sense: what was read of it cannot be trusted.
	ErrDamaged = source.ErrDamaged
	// ErrTooLarge is returned when an input holds more bytes than the cap
	// it is read under (OpenOptions.MaxBytes), counted after every gzip
	// layer is removed. The input is never cut short silently: reading
	// stops with this error.
	ErrTooLarge = source.ErrTooLarge
	// ErrNotUTF8 is wrapped by the error of strict opening for an input
	// not encoded in UTF-8 (the protocol's encoding).
	ErrNotUTF8 = source.ErrNotUTF8
	// ErrGzipDepth is returned by Open for gzip nested more than a few
	// layers deep (a gzip bomb's way to multiply its size).
	ErrGzipDepth = source.ErrGzipDepth
	// ErrInvalidText is wrapped by the warnings (errors, in strict mode)
	// about invalid UTF-8 and forbidden control characters in an input.
	ErrInvalidText = textenc.ErrInvalidText
	// ErrUndeclaredLegacy is wrapped by the warning about an input that
	// declares no encoding, is not valid UTF-8, and was read as
	// windows-1252.
	ErrUndeclaredLegacy = textenc.ErrUndeclaredLegacy
	// ErrNoSiteURL is wrapped by the error of opening a directory of pages
	// without the URL it is served at (html.DirOptions.Site).
	ErrNoSiteURL = errors.New("formats: a directory of pages needs the URL it is served at")

	// The reasons ParseLoc rejects a URL. The errors it returns wrap one of them.
	ErrLocEmpty    = errors.New("formats: empty URL")
	ErrLocRelative = errors.New("formats: relative URL with no http(s) base to resolve it against")
	ErrLocScheme   = errors.New("formats: not an http or https URL")
	ErrLocHost     = errors.New("formats: bad host")
	ErrLocSpace    = errors.New("formats: several URLs run together")
	ErrLocControl  = errors.New("formats: control character inside the URL")
	ErrLocPort     = errors.New("formats: bad port")
	ErrLocTooLong  = errors.New("formats: URL longer than 2,048 characters")
	// ErrLocReplacement: the URL holds U+FFFD, which decoding puts where
	// the input held a byte that was no text in its declared encoding;
	// the URL it stands for is unknown.
	ErrLocReplacement = errors.New("formats: U+FFFD in the URL (a byte that was not text in the input's encoding): the real URL is unknown")
	// ErrBadDate is wrapped by the errors ParseLastMod returns.
	ErrBadDate = errors.New("formats: unrecognized date")
)

// ParseError is a problem found at a position of an input. Readers return it
// for errors and report it to ReadOptions.Warn for warnings.
type ParseError struct {
	Source string // the input's name: a file path, "-" or a URL
	Line   int    // 1-based line; 0 when unknown
	Column int    // 1-based column in bytes; 0 when unknown
	// Skipped is true when the problem cost an entry (the entry was
	// dropped), false when only a field or nothing was lost.
	Skipped bool
	Err     error
}

// Error formats the error as "source:line:column: message".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Source)
	if e.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Column))
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// ReadOptions configure a Reader.
type ReadOptions struct {
	// Source names the input in messages: a file path, "-" for standard
	// input, or a URL.
	Source string
	// Base is the location the input was read from, against which relative
	// links resolve when the document has no base of its own. Nil when
	// unknown (a local file or standard input).
	Base *url.URL
	// Strict turns every warning into an error: the reader returns it from
	// Next instead of reporting it to Warn. Strict reading refuses exactly
	// what validate rates as an error, so that a feed's warnings stay
	// warnings (formats/feed's NewReader), and refuses a document over
	// MaxURLs entries (TooManyURLs).
	Strict bool
	// Warn receives each warning in lenient mode. Nil discards them.
	Warn func(*ParseError)
	// NewsName, when set, asks feed readers to make news entries
	// (Extensions.News) of the items published in the two days before Now,
	// under this publication name.
	NewsName string
	// Now is the time news age is measured from; zero means the time of
	// reading.
	Now time.Time
	// SkipTexts says the entries' titles and summaries are not wanted (the
	// output cannot hold them: Format.HoldsTexts): a reader may leave
	// Entry.Title and Entry.Summary empty rather than make them. Extension
	// data that takes its text from them (a video's title, a news title)
	// is made as without it.
	SkipTexts bool
	// Observer, when set, follows the reading: a reader that knows its
	// type gives it what it reads as it reads it (formats/xml gives an
	// xml.Observer the document's tokens), so that a check of the input
	// shares the reader's pass. Readers ignore an observer they do not
	// know.
	Observer any
}

// Warning reports a problem at line and column of the input. In lenient
// mode it passes the problem to Warn and returns nil, and the reader goes
// on; in strict mode it returns the problem as an error for the reader to
// return. skipped says whether the problem cost an entry.
func (o *ReadOptions) Warning(line, col int, skipped bool, err error) error {
	pe := &ParseError{Source: o.Source, Line: line, Column: col, Skipped: skipped, Err: err}
	if o.Strict {
		return pe
	}
	if o.Warn != nil {
		o.Warn(pe)
	}
	return nil
}

// Note reports something worth knowing that is not a problem of the input
// (for instance, data the reader does not carry yet). It goes to Warn in
// both modes and is never an error, so strict reading of a valid input does
// not fail on it.
func (o *ReadOptions) Note(line, col int, err error) {
	if o.Warn != nil {
		o.Warn(&ParseError{Source: o.Source, Line: line, Column: col, Err: err})
	}
}

// TooManyURLs returns the error of strict reading at the entry after the
// first MaxURLs of one document: a sitemap, a list or a feed holds at most
// that many, as validate's too-many-urls rule says.
func (o *ReadOptions) TooManyURLs() error {
	return &ParseError{Source: o.Source, Err: reason.Of(ErrTooManyURLs)}
}

// Warningf is Warning with a formatted message.
func (o *ReadOptions) Warningf(line, col int, skipped bool, format string, args ...any) error {
	return o.Warning(line, col, skipped, fmt.Errorf(format, args...))
}

// Errorf returns an error at line and column of the input.
func (o *ReadOptions) Errorf(line, col int, format string, args ...any) error {
	return &ParseError{Source: o.Source, Line: line, Column: col, Err: fmt.Errorf(format, args...)}
}
