package validate

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The lexical checks of the XML Schema simple types the sitemap schemas
// use, as libxml2 applies them.

// xsdDate parses s as xsd:date or xsd:dateTime (after whitespace
// collapsing) and returns the time, whether it has a time zone, and
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
	year, _ := strconv.Atoi(s[:i])
	if year == 0 {
		return t, false, false
	}
	if neg {
		year = -year
	}
	s = s[i:]
	month, s, ok1 := twoDigits(s, '-')
	day, s, ok2 := twoDigits(s, '-')
	// time.Date normalizes a day past the month's end into the next month.
	if !ok1 || !ok2 || month < 1 || month > 12 || day < 1 || time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC).Day() != day {
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
	return time.Date(year, time.Month(month), day, hour, min, sec, nsec, time.FixedZone("", offset)), zoned, true
}

// twoDigits reads an optional separator then two digits.
func twoDigits(s string, sep byte) (int, string, bool) {
	if sep != 0 {
		if s == "" || s[0] != sep {
			return 0, s, false
		}
		s = s[1:]
	}
	if len(s) < 2 || !isDigit(s[0]) || !isDigit(s[1]) {
		return 0, s, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), s[2:], true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

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

// enum returns a check that s is one of values, exactly (xsd:string keeps
// its whitespace).
func enum(values ...string) func(string) bool {
	return func(s string) bool {
		for _, v := range values {
			if s == v {
				return true
			}
		}
		return false
	}
}

var yesNo = enum("yes", "Yes", "YES", "no", "No", "NO")

// wordList returns a check that s is a list of words of the given kind
// separated by spaces (patterns "((w)( +(w))*)?"): words reports whether
// one word is allowed; single says whether only one space separates them.
func wordList(word func(string) bool, single bool) func(string) bool {
	return func(s string) bool {
		if s == "" {
			return true
		}
		parts := strings.Split(s, " ")
		for i, p := range parts {
			if p == "" && !single && i > 0 && i < len(parts)-1 {
				continue
			}
			if !word(p) {
				return false
			}
		}
		return true
	}
}

func upper2(w string) bool {
	return len(w) == 2 && 'A' <= w[0] && w[0] <= 'Z' && 'A' <= w[1] && w[1] <= 'Z'
}

var (
	countryList  = wordList(upper2, false)
	platformList = wordList(enum("web", "mobile", "tv"), true)
)

// newsLanguage is the news schema's pattern zh-cn|zh-tw|([a-z]{2,3}).
func newsLanguage(s string) bool {
	if s == "zh-cn" || s == "zh-tw" {
		return true
	}
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

var genre = enum("PressRelease", "Satire", "Blog", "OpEd", "Opinion", "UserGenerated")

// newsGenres is the pattern G(, *G)*.
func newsGenres(s string) bool {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		if i > 0 {
			p = strings.TrimLeft(p, " ")
		}
		if !genre(p) {
			return false
		}
	}
	return true
}

// stockTickers is the pattern (\w+:\w+(, *\w+:\w+){0,4})?.
func stockTickers(s string) bool {
	if s == "" {
		return true
	}
	parts := strings.Split(s, ",")
	if len(parts) > 5 {
		return false
	}
	for i, p := range parts {
		if i > 0 {
			p = strings.TrimLeft(p, " ")
		}
		a, b, ok := strings.Cut(p, ":")
		if !ok || !isWord(a) || !isWord(b) {
			return false
		}
	}
	return true
}

// isWord reports whether s is one or more \w characters (letters, digits,
// marks, connector punctuation; approximated as letters, digits and '_').
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r >= 0x80 && r != utf8.RuneError) {
			return false
		}
	}
	return true
}

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

// upper3 is the pattern [A-Z]{3}.
func upper3(s string) bool {
	return len(s) == 3 && upper2(s[:2]) && 'A' <= s[2] && s[2] <= 'Z'
}
