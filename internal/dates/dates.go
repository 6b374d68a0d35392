// Package dates holds the grammar of the dates sitemaps and feeds write: the
// six levels of W3C Datetime, read by hand without allocating for the
// commonest forms, and the RFC 822/1123 dates of feeds with their
// variations. It knows no model: package formats builds its LastMod on it
// (ParseLastMod), and the readers' byte parsers (internal/vocab) too.
package dates

import (
	"strings"
	"time"
)

// Precision is how much of a date and time a source gave, from a year
// alone to fractions of a second: formats.Precision, level for level (a
// test of package formats holds them to it).
type Precision uint8

// The precisions, in the order of formats.Precision.
const (
	Unknown Precision = iota
	Year
	Month
	Day
	Minute
	Second
	Fraction
)

// feedLayouts are the RFC 822/1123 forms and their common variations,
// and zonelessLayouts the same with no time zone (see Zoneless).
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

// zoneOffsets are the zone names RFC 822 defines, in hours; any other name
// is ambiguous and rejected.
var zoneOffsets = map[string]int{
	"UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
	"EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
	"MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
}

// RFC822 parses s, trimmed, as one of the RFC 822/1123 dates feeds use
// (with or without the day of the week and the seconds, two-digit years
// and the RFC 822 zone names included), to the second or the minute. ok
// is false when s is in none of those forms. When s is in one of them but
// names a time zone RFC 822 does not define, unknownZone is that name and
// t is zero. It does not check the range the sitemap schema allows.
func RFC822(s string) (t time.Time, p Precision, unknownZone string, ok bool) {
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
				return time.Time{}, Unknown, name, true
			}
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0,
				time.FixedZone("", off*3600))
		}
		p := Second
		if !strings.Contains(layout, ":05") {
			p = Minute
		}
		return t, p, "", true
	}
	return time.Time{}, Unknown, "", false
}

// Zoneless returns, at midnight UTC, the date part of a date and time of
// day written without a time zone: a W3C Datetime with its zone left out
// ("2024-05-06T10:00:00", a fraction of a second or a space for the T
// included) or an RFC 822 date with its zone left out ("Mon, 6 May 2024
// 10:00"). s is taken as it is (the caller trims it). It reports false for
// anything else. It does not check the range the sitemap schema allows.
func Zoneless(s string) (time.Time, bool) {
	for _, layout := range zonelessLayouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), true
	}
	return time.Time{}, false
}

// cutSuffixFold is strings.CutSuffix, ignoring ASCII case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}
