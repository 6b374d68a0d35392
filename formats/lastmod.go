package formats

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/datenames"
	"github.com/feed2sitemap/feed2sitemap/internal/dates"
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

// ParseLastMod parses a lastmod value: any of the six W3C Datetime levels
// (YYYY, YYYY-MM, YYYY-MM-DD, and date-times to the minute, second or
// fraction of a second, with a zone), and the RFC 822/1123 dates feeds use
// (with or without the day of the week and the seconds, two-digit years and
// the RFC 822 zone names included). A time of day without a zone is
// ambiguous and rejected (the readers keep its date), and so is a date
// whose day or month names are not English, which the error names.
// Surrounding space is ignored.
func ParseLastMod(s string) (LastMod, error) {
	s = uri.TrimSpace(s)
	if s == "" {
		return LastMod{}, fmt.Errorf("%w: empty", ErrBadDate)
	}
	t, p, ok := dates.W3C(s)
	if !ok {
		var zone string
		t, p, zone, ok = dates.RFC822(s)
		if zone != "" {
			return LastMod{}, fmt.Errorf("%w: %q has an unknown time zone %q", ErrBadDate, s, zone)
		}
	}
	if ok {
		if err := checkLastModTime(t); err != nil {
			return LastMod{}, fmt.Errorf("%q: %w", s, err)
		}
		return LastMod{t: t, prec: Precision(p)}, nil
	}
	if names := datenames.Foreign(s); len(names) > 0 {
		return LastMod{}, fmt.Errorf("%w: %q has day or month names that are not English (%s): "+
			"RFC 822 dates name them in English", ErrBadDate, s, quoteAll(names))
	}
	return LastMod{}, fmt.Errorf("%w: %q is not a W3C Datetime or RFC 822 date", ErrBadDate, s)
}

// quoteAll returns the quoted words, separated by commas.
func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}
