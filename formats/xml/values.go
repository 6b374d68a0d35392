package xml

import (
	"bytes"
	"strconv"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// The field parsers below give exactly what the formats package's parsers
// give for string(b), but without allocating for the values sitemaps
// usually hold: plain ASCII padded with ASCII space. Anything else goes to
// the formats package's parsers. (A string converted from a byte slice for
// a call that does not keep it, such as time.Parse or strconv.ParseFloat,
// is not allocated when it is short.)

// plainASCII returns b without surrounding ASCII space, and false when
// what remains is empty or does not start and end with printable ASCII
// other than space. formats.TrimSpace(string(b)) is then string(s): the
// ASCII space trimmed is Unicode space too, and what stops the trimming
// is not.
func plainASCII(b []byte) (s []byte, ok bool) {
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

// parseLastMod is formats.ParseLastMod(string(b)).
func parseLastMod(b []byte) (formats.LastMod, error) {
	if s, ok := plainASCII(b); ok {
		if lm, ok := parseW3C(s); ok {
			return lm, nil
		}
	}
	return formats.ParseLastMod(string(b))
}

// parseW3C parses the W3C Datetime levels as formats.ParseLastMod does
// first, and reports false where it would not succeed that way (or where
// the time is the zero time, which formats.NewLastMod cannot hold).
func parseW3C(s []byte) (formats.LastMod, bool) {
	var (
		t    time.Time
		prec formats.Precision
		err  error
	)
	switch {
	case len(s) == 4:
		y, ok := digits(s)
		if !ok {
			return formats.LastMod{}, false
		}
		t, prec = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), formats.PrecisionYear
	case len(s) == 7 && s[4] == '-':
		y, ok1 := digits(s[:4])
		m, ok2 := digits(s[5:])
		if !ok1 || !ok2 || m < 1 || m > 12 {
			return formats.LastMod{}, false
		}
		t, prec = time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC), formats.PrecisionMonth
	case len(s) == 10:
		if t, ok := dateOnly(s); ok {
			return formats.NewLastMod(t, formats.PrecisionDay), true
		}
		t, err = time.Parse(time.DateOnly, string(s))
		prec = formats.PrecisionDay
	case len(s) > 10 && (s[10] == 'T' || s[10] == 't'):
		if bytes.IndexByte(s, '.') == 19 {
			t, err = time.Parse(time.RFC3339Nano, string(s))
			prec = formats.PrecisionFraction
			break
		}
		if t, ok := dateTime(s); ok {
			return formats.NewLastMod(t, formats.PrecisionSecond), true
		}
		prec = formats.PrecisionSecond
		if t, err = time.Parse("2006-01-02T15:04:05Z07:00", string(s)); err != nil {
			prec = formats.PrecisionMinute
			t, err = time.Parse("2006-01-02T15:04Z07:00", string(s))
		}
	default:
		return formats.LastMod{}, false
	}
	if err != nil || t.IsZero() {
		return formats.LastMod{}, false
	}
	return formats.NewLastMod(t, prec), true
}

// dateOnly parses the commonest lastmod, YYYY-MM-DD, as
// time.Parse(time.DateOnly, s) does, and reports false when s is not in
// that form or is the zero time.
func dateOnly(s []byte) (time.Time, bool) {
	days, ok := civilDays(s)
	if !ok {
		return time.Time{}, false
	}
	t := time.Unix(days*86400, 0).UTC()
	return t, !t.IsZero()
}

// civilDays parses YYYY-MM-DD and returns the number of days from
// 1970-01-01 to that date, and false when s is not in that form or not a
// date.
func civilDays(s []byte) (int64, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	c, ok1 := twoDigits(s, 0)
	y, ok2 := twoDigits(s, 2)
	m, ok3 := twoDigits(s, 5)
	d, ok4 := twoDigits(s, 8)
	y += c * 100
	if !ok1 || !ok2 || !ok3 || !ok4 || m < 1 || m > 12 || d < 1 || d > daysIn(m, y) {
		return 0, false
	}
	// Days from the civil date in the proleptic Gregorian calendar, with
	// years starting on March 1st so that the leap day comes last.
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468, true
}

// dateTime parses the second commonest lastmod, YYYY-MM-DDThh:mm:ss
// followed by Z or ±hh:mm, as time.Parse(time.RFC3339, s) does (its fast
// path, parseRFC3339), and reports false when s is not in that form or is
// the zero time.
func dateTime(s []byte) (time.Time, bool) {
	if len(s) != 20 && len(s) != 25 || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	days, ok := civilDays(s[:10])
	h, ok1 := twoDigits(s, 11)
	mi, ok2 := twoDigits(s, 14)
	sec, ok3 := twoDigits(s, 17)
	if !ok || !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	unix := days*86400 + int64(h*3600+mi*60+sec)
	zone := s[19:]
	if len(zone) == 1 {
		t := time.Unix(unix, 0).UTC()
		return t, zone[0] == 'Z' && !t.IsZero()
	}
	zh, ok1 := twoDigits(zone, 1)
	zm, ok2 := twoDigits(zone, 4)
	if !ok1 || !ok2 || zh > 23 || zm > 59 || zone[0] != '+' && zone[0] != '-' || zone[3] != ':' {
		return time.Time{}, false
	}
	off := (zh*60 + zm) * 60
	if zone[0] == '-' {
		off = -off
	}
	// As time.Parse does: the local zone when it has that offset then,
	// else a zone of that offset with no name.
	t := time.Unix(unix-int64(off), 0)
	if t.IsZero() {
		return time.Time{}, false
	}
	if _, o := t.Zone(); o == off {
		return t, true // time.Unix gives local time
	}
	return t.In(time.FixedZone("", off)), true
}

// daysIn returns the number of days of month m of year y.
func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// twoDigits parses the two decimal digits at s[i:i+2].
func twoDigits(s []byte, i int) (int, bool) {
	a, b := s[i]-'0', s[i+1]-'0'
	return int(a)*10 + int(b), a < 10 && b < 10
}

// digits parses s as an unsigned decimal number.
func digits(s []byte) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(s) > 0
}

// parseChangeFreq is formats.ParseChangeFreq(string(b)).
func parseChangeFreq(b []byte) (formats.ChangeFreq, bool) {
	s, ok := plainASCII(b)
	if !ok || len(s) > 7 {
		return formats.ParseChangeFreq(string(b))
	}
	var low [7]byte
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	switch string(low[:len(s)]) {
	case "always":
		return formats.Always, true
	case "hourly":
		return formats.Hourly, true
	case "daily":
		return formats.Daily, true
	case "weekly":
		return formats.Weekly, true
	case "monthly":
		return formats.Monthly, true
	case "yearly":
		return formats.Yearly, true
	case "never":
		return formats.Never, true
	}
	return "", false
}

// parsePriority parses a priority as strconv.ParseFloat and
// formats.NewPriority do after formats.TrimSpace, and reports false when
// either fails.
func parsePriority(b []byte) (formats.Priority, bool) {
	var (
		v   float64
		err error
	)
	if s, ok := plainASCII(b); ok {
		if v, ok := decimal(s); ok {
			return formats.NewPriority(v)
		}
		v, err = strconv.ParseFloat(string(s), 64)
	} else {
		v, err = strconv.ParseFloat(formats.TrimSpace(string(b)), 64)
	}
	p, ok := formats.NewPriority(v)
	return p, err == nil && ok
}

// pow10 are the powers of ten decimal divides by.
var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}

// decimal parses a short decimal number, one to three digits with up to
// six decimals, to the float64 strconv.ParseFloat gives: the quotient of
// two integers a float64 holds exactly is rounded correctly, as
// ParseFloat rounds. It reports false for any other form.
func decimal(s []byte) (float64, bool) {
	dot := bytes.IndexByte(s, '.')
	ipart, frac := s, []byte(nil)
	if dot >= 0 {
		ipart, frac = s[:dot], s[dot+1:]
	}
	if len(ipart) == 0 || len(ipart) > 3 || dot >= 0 && len(frac) == 0 || len(frac) > 6 {
		return 0, false
	}
	n := 0
	for _, c := range ipart {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	for _, c := range frac {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return float64(n) / pow10[len(frac)], true
}
