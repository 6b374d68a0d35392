package formats

import (
	"errors"
	"fmt"
	"strings"
	"time"
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

// NewLastMod returns t with precision p. A zero t gives an unknown LastMod.
func NewLastMod(t time.Time, p Precision) LastMod {
	if t.IsZero() || p == PrecisionUnknown {
		return LastMod{}
	}
	return LastMod{t: t, prec: p}
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

// ErrBadDate is wrapped by the errors ParseLastMod returns.
var ErrBadDate = errors.New("formats: unrecognized date")

// w3cLayouts are the W3C Datetime levels with a time, longest first.
var w3cLayouts = []struct {
	layout string
	prec   Precision
}{
	{"2006-01-02T15:04:05Z07:00", PrecisionSecond},
	{"2006-01-02T15:04Z07:00", PrecisionMinute},
}

// feedLayouts are the RFC 822/1123 forms and their common variations.
var feedLayouts = []string{
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon, 2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 2006 15:04 -0700",
	"Mon, 2 Jan 2006 15:04 MST",
	"2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 MST",
	"Mon, 2 Jan 06 15:04:05 -0700",
	"Mon, 2 Jan 06 15:04:05 MST",
	"2 Jan 06 15:04:05 -0700",
	"2 Jan 06 15:04:05 MST",
	"Monday, 02-Jan-06 15:04:05 MST",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05 -0700",
	"2006-01-02 15:04:05 MST",
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
// (two-digit years and the RFC 822 zone names included). A time of day
// without a zone is ambiguous and rejected. Surrounding space is ignored.
func ParseLastMod(s string) (LastMod, error) {
	s = TrimSpace(s)
	if s == "" {
		return LastMod{}, fmt.Errorf("%w: empty", ErrBadDate)
	}
	if l, ok := parseW3C(s); ok {
		return l, nil
	}
	for _, layout := range feedLayouts {
		t, err := time.Parse(layout, s)
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
		return LastMod{t: t, prec: prec}, nil
	}
	return LastMod{}, fmt.Errorf("%w: %q is not a W3C Datetime or RFC 822 date", ErrBadDate, s)
}

// parseW3C parses the six W3C Datetime levels, quickly for the common ones.
func parseW3C(s string) (LastMod, bool) {
	switch {
	case len(s) == 4:
		if y, ok := digits(s); ok {
			return LastMod{t: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), prec: PrecisionYear}, true
		}
		return LastMod{}, false
	case len(s) == 7 && s[4] == '-':
		y, ok1 := digits(s[:4])
		m, ok2 := digits(s[5:])
		if ok1 && ok2 && m >= 1 && m <= 12 {
			return LastMod{t: time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC), prec: PrecisionMonth}, true
		}
		return LastMod{}, false
	case len(s) == 10:
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return LastMod{}, false
		}
		return LastMod{t: t, prec: PrecisionDay}, true
	case len(s) > 10 && (s[10] == 'T' || s[10] == 't'):
		if i := strings.IndexByte(s, '.'); i == 19 {
			t, err := time.Parse(time.RFC3339Nano, s)
			if err != nil {
				return LastMod{}, false
			}
			return LastMod{t: t, prec: PrecisionFraction}, true
		}
		for _, l := range w3cLayouts {
			if t, err := time.Parse(l.layout, s); err == nil {
				return LastMod{t: t, prec: l.prec}, true
			}
		}
	}
	return LastMod{}, false
}

// digits parses s as an unsigned decimal number.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(s) > 0
}
