package formats

import (
	"bytes"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// The byte parsers of sitemap values give exactly what the string parsers
// give for string(b), but without allocating for the values sitemaps
// usually hold: plain ASCII padded with ASCII space (see trimASCII).
// Anything else goes to the string parsers. (A string converted from a
// byte slice for a call that does not keep it, such as strconv.ParseFloat,
// is not allocated when it is short.)

// ParseChangeFreqBytes is ParseChangeFreq(string(b)), without allocating
// for the plain ASCII values sitemaps hold.
func ParseChangeFreqBytes(b []byte) (ChangeFreq, bool) {
	s, ok := trimASCII(b)
	if !ok || len(s) > 7 {
		return ParseChangeFreq(string(b))
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
		return Always, true
	case "hourly":
		return Hourly, true
	case "daily":
		return Daily, true
	case "weekly":
		return Weekly, true
	case "monthly":
		return Monthly, true
	case "yearly":
		return Yearly, true
	case "never":
		return Never, true
	}
	return "", false
}

// ParsePriorityBytes parses a priority as strconv.ParseFloat and
// NewPriority do after TrimSpace, and reports false when either fails;
// without allocating for the plain decimals sitemaps hold.
func ParsePriorityBytes(b []byte) (Priority, bool) {
	var (
		v   float64
		err error
	)
	if s, ok := trimASCII(b); ok {
		if v, ok := decimal(s); ok {
			return NewPriority(v)
		}
		v, err = strconv.ParseFloat(string(s), 64)
	} else {
		v, err = strconv.ParseFloat(uri.TrimSpace(string(b)), 64)
	}
	p, ok := NewPriority(v)
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
