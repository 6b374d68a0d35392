package xml

import (
	"bytes"
	"strconv"

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
