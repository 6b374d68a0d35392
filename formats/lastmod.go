package formats

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/datenames"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// Precision is how much of a date and time a source gave.
type Precision uint8

// The precisions of W3C Datetime, from a year alone to fractions of a
// second. Feed dates (RFC 822/1123) have PrecisionSecond.
const (
	PrecisionUnknown Precision = iota
	PrecisionYear
	PrecisionMonth
	PrecisionDay
	PrecisionMinute
	PrecisionSecond
	PrecisionFraction
)

// LastMod is a point in time together with the precision the source gave it
// in, so a date stays a date and a date-time stays a date-time. The zero
// value means unknown.
type LastMod struct {
	t    time.Time
	prec Precision
}

// NewLastMod returns t with precision p. A zero t gives an unknown LastMod,
// and so does a time the sitemap schema cannot hold (see checkLastModTime).
func NewLastMod(t time.Time, p Precision) LastMod {
	if t.IsZero() || p == PrecisionUnknown || checkLastModTime(t) != nil {
		return LastMod{}
	}
	return LastMod{t: t, prec: p}
}

// The range of a lastmod the sitemap schema's xsd:date and xsd:dateTime
// hold as written: a four-digit year from 0001 (there is no year 0000) and
// a UTC offset of at most 14 hours either way.
const (
	minLastModYear   = 1
	maxLastModYear   = 9999
	maxLastModOffset = 14 * 60 * 60 // seconds
)

// checkLastModTime reports why t, written in its own zone, is no date the
// sitemap schema accepts: a year outside minLastModYear to maxLastModYear,
// or a UTC offset beyond maxLastModOffset. It wraps ErrBadDate.
func checkLastModTime(t time.Time) error {
	if y := t.Year(); y < minLastModYear || y > maxLastModYear {
		return fmt.Errorf("%w: year %04d is outside %04d to %d", ErrBadDate, y, minLastModYear, maxLastModYear)
	}
	if _, off := t.Zone(); off > maxLastModOffset || off < -maxLastModOffset {
		return fmt.Errorf("%w: UTC offset %s is beyond ±14:00", ErrBadDate, t.Format("-07:00"))
	}
	return nil
}

// IsZero reports whether the lastmod is unknown.
func (l LastMod) IsZero() bool { return l.prec == PrecisionUnknown }

// Time returns the lastmod as a time, in the zone the source gave.
func (l LastMod) Time() time.Time { return l.t }

// Precision returns the precision the source gave.
func (l LastMod) Precision() Precision { return l.prec }

// IsDate reports whether the lastmod is a calendar date with no time of day.
func (l LastMod) IsDate() bool {
	return l.prec != PrecisionUnknown && l.prec <= PrecisionDay
}

// Equal reports whether l and m are the same instant at the same precision.
func (l LastMod) Equal(m LastMod) bool {
	return l.prec == m.prec && l.t.Equal(m.t)
}

// String returns the lastmod in one of the two forms the sitemap schema
// accepts: YYYY-MM-DD for dates, and YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)
// for date-times (a fraction of a second that is zero is written ".000", so
// it reads back with the precision it had). A year or a month alone is written as its first day, and a
// time given to the minute gets ":00" seconds. Unknown is "".
func (l LastMod) String() string {
	return string(l.AppendText(nil))
}

// AppendText appends the form String returns to b.
func (l LastMod) AppendText(b []byte) []byte {
	switch {
	case l.prec == PrecisionUnknown:
		return b
	case l.prec <= PrecisionDay:
		return l.t.AppendFormat(b, time.DateOnly)
	case l.prec == PrecisionFraction && l.t.Nanosecond() == 0:
		return l.t.AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	case l.prec == PrecisionFraction:
		return l.t.AppendFormat(b, time.RFC3339Nano)
	default:
		return l.t.AppendFormat(b, time.RFC3339)
	}
}

// MarshalText implements encoding.TextMarshaler with the form of String.
func (l LastMod) MarshalText() ([]byte, error) { return l.AppendText(nil), nil }

// feedLayouts are the RFC 822/1123 forms and their common variations,
// and zonelessLayouts the same with no time zone (see DateOfZoneless).
// RFC 822 makes the day of the week and the seconds optional and writes
// the year in two digits; RFC 1123 in four: every combination is read.
var feedLayouts, zonelessLayouts = rfc822Layouts()

// rfc822Layouts returns the layouts of feedLayouts and zonelessLayouts.
func rfc822Layouts() (zoned, zoneless []string) {
	for _, day := range []string{"Mon, ", ""} {
		for _, year := range []string{"2006", "06"} {
			for _, clock := range []string{"15:04:05", "15:04"} {
				layout := day + "2 Jan " + year + " " + clock
				zoned = append(zoned, layout+" -0700", layout+" MST")
				zoneless = append(zoneless, layout)
			}
		}
	}
	zoned = append(zoned, "Monday, 02-Jan-06 15:04:05 MST",
		"2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05 MST")
	zoneless = append(zoneless, "Monday, 02-Jan-06 15:04:05",
		"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04")
	return zoned, zoneless
}

// zoneOffsets are the zone names RFC 822 defines; any other name is
// ambiguous and rejected.
var zoneOffsets = map[string]int{
	"UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
	"EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
	"MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
}

// ParseLastMod parses a lastmod value: any of the six W3C Datetime levels
// (YYYY, YYYY-MM, YYYY-MM-DD, and date-times to the minute, second or
// fraction of a second, with a zone), and the RFC 822/1123 dates feeds use
// (with or without the day of the week and the seconds, two-digit years and
// the RFC 822 zone names included). A time of day without a zone is
// ambiguous and rejected (DateOfZoneless reads its date), and so is a date
// whose day or month names are not English, which the error names.
// Surrounding space is ignored.
func ParseLastMod(s string) (LastMod, error) {
	s = uri.TrimSpace(s)
	if s == "" {
		return LastMod{}, fmt.Errorf("%w: empty", ErrBadDate)
	}
	if l, ok := parseW3C(s); ok {
		if err := checkLastModTime(l.t); err != nil {
			return LastMod{}, fmt.Errorf("%q: %w", s, err)
		}
		return l, nil
	}
	// Go reads neither of RFC 822's own names for UTC, UT and the military
	// Z, as a zone name.
	in := s
	if rest, ok := cutSuffixFold(s, " UT"); ok {
		in = rest + " +0000"
	} else if rest, ok := cutSuffixFold(s, " Z"); ok {
		in = rest + " +0000"
	}
	for _, layout := range feedLayouts {
		t, err := time.Parse(layout, in)
		if err != nil {
			continue
		}
		if strings.HasSuffix(layout, "MST") {
			name, _ := t.Zone()
			off, known := zoneOffsets[strings.ToUpper(name)]
			if !known {
				return LastMod{}, fmt.Errorf("%w: %q has an unknown time zone %q", ErrBadDate, s, name)
			}
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0,
				time.FixedZone("", off*3600))
		}
		prec := PrecisionSecond
		if !strings.Contains(layout, ":05") {
			prec = PrecisionMinute
		}
		if err := checkLastModTime(t); err != nil {
			return LastMod{}, fmt.Errorf("%q: %w", s, err)
		}
		return LastMod{t: t, prec: prec}, nil
	}
	if names := datenames.Foreign(s); len(names) > 0 {
		return LastMod{}, fmt.Errorf("%w: %q has day or month names that are not English (%s): "+
			"RFC 822 dates name them in English", ErrBadDate, s, quoteAll(names))
	}
	return LastMod{}, fmt.Errorf("%w: %q is not a W3C Datetime or RFC 822 date", ErrBadDate, s)
}

// DateOfZoneless returns, as a date (PrecisionDay), the date part of a
// date and time of day written without a time zone: a W3C Datetime with
// its zone left out ("2024-05-06T10:00:00", a fraction of a second or a
// space for the T included) or an RFC 822 date with its zone left out
// ("Mon, 6 May 2024 10:00"). Such a time cannot be placed on the time line,
// but the day, as written, is known. It reports false for anything else,
// and for a date the sitemap schema cannot hold.
func DateOfZoneless(s string) (LastMod, bool) {
	s = uri.TrimSpace(s)
	for _, layout := range zonelessLayouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		l := NewLastMod(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), PrecisionDay)
		return l, !l.IsZero()
	}
	return LastMod{}, false
}

// cutSuffixFold is strings.CutSuffix, ignoring ASCII case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// quoteAll returns the quoted words, separated by commas.
func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}

// ParseLastModBytes is ParseLastMod(string(b)), without allocating for the
// forms sitemaps usually hold: a W3C date or date-time in plain ASCII,
// padded with ASCII space.
func ParseLastModBytes(b []byte) (LastMod, error) {
	if s, ok := trimASCII(b); ok {
		if l, ok := parseW3C(s); ok && checkLastModTime(l.t) == nil {
			return l, nil
		}
	}
	return ParseLastMod(string(b))
}

// trimASCII returns b without surrounding ASCII space, and false when what
// remains is empty or does not start and end with printable ASCII other
// than space. uri.TrimSpace(string(b)) is then string(s): the ASCII space
// trimmed is Unicode space too, and what stops the trimming is not.
func trimASCII(b []byte) (s []byte, ok bool) {
	i, j := 0, len(b)
	for i < j && isASCIISpace(b[i]) {
		i++
	}
	for j > i && isASCIISpace(b[j-1]) {
		j--
	}
	if i == j || b[i] <= ' ' || b[i] >= 0x7f || b[j-1] <= ' ' || b[j-1] >= 0x7f {
		return nil, false
	}
	return b[i:j], true
}

// isASCIISpace reports whether c is one of the ASCII characters
// unicode.IsSpace accepts.
func isASCIISpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
}
