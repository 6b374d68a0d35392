package validate

import (
	"strconv"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/dates"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// The lexical checks of the XML Schema simple types the sitemap schemas
// use, as libxml2 applies them.

// xsdDate parses s as xsd:date or xsd:dateTime (after whitespace
// collapsing) and returns the instant (in UTC), whether it has a time zone, and
// whether it is valid.
func xsdDate(s string) (t time.Time, zoned, ok bool) {
	s = collapse(s)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < 4 || (i > 4 && s[0] == '0') || i > 9 {
		return t, false, false
	}
	year := 0
	for _, c := range []byte(s[:i]) { // at most 9 digits
		year = year*10 + int(c-'0')
	}
	if year == 0 {
		return t, false, false
	}
	if neg {
		year = -year
	}
	s = s[i:]
	month, s, ok1 := twoDigits(s, '-')
	day, s, ok2 := twoDigits(s, '-')
	if !ok1 || !ok2 || month < 1 || month > 12 || day < 1 || day > dates.DaysIn(year, month) {
		return t, false, false
	}
	hour, min, sec, nsec := 0, 0, 0, 0
	if strings.HasPrefix(s, "T") {
		var okh, okm, oks bool
		hour, s, okh = twoDigits(s, 'T')
		min, s, okm = twoDigits(s, ':')
		sec, s, oks = twoDigits(s, ':')
		if !okh || !okm || !oks || min > 59 || sec > 59 {
			return t, false, false
		}
		if strings.HasPrefix(s, ".") {
			j := 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			if j == 1 {
				return t, false, false
			}
			frac := s[1:j]
			if strings.Trim(frac, "0") != "" && hour == 24 {
				return t, false, false
			}
			f, _ := strconv.ParseFloat("0."+frac, 64)
			nsec = int(f * 1e9)
			s = s[j:]
		}
		if hour > 24 || hour == 24 && (min != 0 || sec != 0) {
			return t, false, false
		}
	}
	offset := 0
	switch {
	case s == "":
	case s == "Z":
		zoned = true
	case len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':':
		h, _, okh := twoDigits(s[1:3], 0)
		m, _, okm := twoDigits(s[4:], 0)
		if !okh || !okm || h > 14 || m > 59 || h == 14 && m != 0 {
			return t, false, false
		}
		offset = (h*60 + m) * 60
		if s[0] == '-' {
			offset = -offset
		}
		zoned = true
	default:
		return t, false, false
	}
	// The instant, in UTC: callers compare instants only, and a zone of
	// its own would be an allocation a date. (time.Date's, counted without
	// its normalizing: the fields are in range, hour 24 aside, which is the
	// next day's midnight either way.)
	unix := dates.DaysFrom(year, month, day)*86400 + int64(hour*3600+min*60+sec-offset)
	return time.Unix(unix, int64(nsec)).UTC(), zoned, true
}

// twoDigits reads an optional separator then two digits.
func twoDigits(s string, sep byte) (int, string, bool) {
	if sep != 0 {
		if s == "" || s[0] != sep {
			return 0, s, false
		}
		s = s[1:]
	}
	if len(s) < 2 {
		return 0, s, false
	}
	// A byte below '0' wraps around above 9 too. (Written so that the
	// function is inlined: it reads every field of every date.)
	d0, d1 := s[0]-'0', s[1]-'0'
	if d0 > 9 || d1 > 9 {
		return 0, s, false
	}
	return int(d0)*10 + int(d1), s[2:], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// priorityOK reports whether s is a priority: an xsd:decimal (after
// whitespace collapsing) from 0 to 1.
func priorityOK(s string) bool {
	if n := len(s); n <= 5 && (s == "0" || s == "1" || n > 2 && (s[0] == '0' || s[0] == '1') && s[1] == '.' && allDigits(s[2:])) {
		// The usual forms (0, 1, 0.d to 0.ddd, 1.d to 1.ddd) are told
		// exactly, without a float.
		return s[0] == '0' || strings.Trim(s[1:], ".0") == ""
	}
	p, ok := xsdDecimal(s)
	return ok && p >= 0 && p <= 1
}

// allDigits reports whether s holds only ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// xsdDecimal parses s as xsd:decimal (after whitespace collapsing).
func xsdDecimal(s string) (float64, bool) {
	s = collapse(s)
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" || body == "." {
		return 0, false
	}
	dot := false
	for i := 0; i < len(body); i++ {
		switch {
		case body[i] == '.' && !dot:
			dot = true
		case !isDigit(body[i]):
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// xsdNonNegative parses s as xsd:nonNegativeInteger no greater than max.
func xsdNonNegative(s string, max int) bool {
	s = collapse(s)
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		if !isDigit(body[i]) {
			return false
		}
	}
	body = strings.TrimLeft(body, "0")
	if body == "" {
		return true
	}
	if s[0] == '-' {
		return false
	}
	if max < 0 {
		return true
	}
	n, err := strconv.Atoi(body)
	return err == nil && n <= max
}

// The patterns and enumerations of the extension schemas are formats'
// checks, the ones the XML reader applies, so that what validate reports
// and what the readers drop are one rule.
var (
	yesNo        = vocab.IsYesNo
	countryList  = vocab.IsCountryList
	platformList = vocab.IsPlatformList
	newsLanguage = vocab.IsNewsLanguage
	newsGenres   = vocab.IsNewsGenres
	stockTickers = vocab.IsStockTickers
	upper3       = vocab.IsCurrency
	xsLanguage   = vocab.IsLanguage
)

// positiveInt is xsd:integer with minInclusive 1.
func positiveInt(s string) bool {
	s = collapse(s)
	body := strings.TrimPrefix(s, "+")
	if body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		if !isDigit(body[i]) {
			return false
		}
	}
	return strings.TrimLeft(body, "0") != ""
}
