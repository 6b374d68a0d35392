package dates

import "time"

// W3C parses the six W3C Datetime levels, and reports false for anything
// else (and for the zero time, which a lastmod cannot hold). It does not
// check the range the sitemap schema allows. The
// commonest forms, YYYY-MM-DD and YYYY-MM-DDThh:mm:ss with Z or an offset,
// are parsed by hand without allocating; the others through time.Parse.
func W3C[T string | []byte](s T) (time.Time, Precision, bool) {
	var (
		t    time.Time
		prec Precision
		err  error
	)
	switch {
	case len(s) == 4:
		y, ok := digits(s)
		if !ok {
			return time.Time{}, Unknown, false
		}
		t, prec = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), Year
	case len(s) == 7 && s[4] == '-':
		y, ok1 := digits(s[:4])
		m, ok2 := digits(s[5:])
		if !ok1 || !ok2 || m < 1 || m > 12 {
			return time.Time{}, Unknown, false
		}
		t, prec = time.Date(y, time.Month(m), 1, 0, 0, 0, 0, time.UTC), Month
	case len(s) == 10:
		if t, ok := dateOnly(s); ok {
			return t, Day, true
		}
		t, err = time.Parse(time.DateOnly, string(s))
		prec = Day
	case len(s) > 10 && (s[10] == 'T' || s[10] == 't'):
		if firstDot(s) == 19 {
			t, err = time.Parse(time.RFC3339Nano, string(s))
			prec = Fraction
			break
		}
		if t, ok := dateTime(s); ok {
			return t, Second, true
		}
		prec = Second
		if t, err = time.Parse("2006-01-02T15:04:05Z07:00", string(s)); err != nil {
			prec = Minute
			t, err = time.Parse("2006-01-02T15:04Z07:00", string(s))
		}
	default:
		return time.Time{}, Unknown, false
	}
	if err != nil || t.IsZero() {
		return time.Time{}, Unknown, false
	}
	return t, prec, true
}

// dateOnly parses the commonest lastmod, YYYY-MM-DD, as
// time.Parse(time.DateOnly, s) does, and reports false when s is not in
// that form or is the zero time.
func dateOnly[T string | []byte](s T) (time.Time, bool) {
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
func civilDays[T string | []byte](s T) (int64, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, false
	}
	c, ok1 := twoDigits(s, 0)
	y, ok2 := twoDigits(s, 2)
	m, ok3 := twoDigits(s, 5)
	d, ok4 := twoDigits(s, 8)
	y += c * 100
	if !ok1 || !ok2 || !ok3 || !ok4 || m < 1 || m > 12 || d < 1 || d > DaysIn(y, m) {
		return 0, false
	}
	return DaysFrom(y, m, d), true
}

// DaysFrom returns the number of days from 1970-01-01 to the date y-m-d
// (a month from 1 to 12, a day of it) in the proleptic Gregorian calendar,
// year 0 included (1 BC), as time.Date counts them.
func DaysFrom(y, m, d int) int64 {
	// Years start on March 1st, so that the leap day comes last.
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
	return int64(era)*146097 + int64(doe) - 719468
}

// dateTime parses the second commonest lastmod, YYYY-MM-DDThh:mm:ss
// followed by Z or ±hh:mm, as time.Parse(time.RFC3339, s) does (its fast
// path, parseRFC3339), and reports false when s is not in that form or is
// the zero time.
func dateTime[T string | []byte](s T) (time.Time, bool) {
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

// DaysIn returns the number of days of month m (1 to 12) of year y of
// the proleptic Gregorian calendar.
func DaysIn(y, m int) int {
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
func twoDigits[T string | []byte](s T, i int) (int, bool) {
	a, b := s[i]-'0', s[i+1]-'0'
	return int(a)*10 + int(b), a < 10 && b < 10
}

// digits parses s as an unsigned decimal number.
func digits[T string | []byte](s T) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, len(s) > 0
}

// firstDot returns the index of the first '.' in s, or -1.
func firstDot[T string | []byte](s T) int {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}
