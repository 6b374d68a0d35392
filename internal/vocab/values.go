package vocab

import (
	"bytes"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/dates"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// The byte parsers of sitemap values (lastmod, changefreq, priority) give
// exactly what formats' string parsers give for string(b), but without
// allocating for the values sitemaps usually hold: plain ASCII padded with
// ASCII space (see trimASCII). Anything else goes to the string parsers.
// The readers call them on the bytes of each value. (A string converted
// from a byte slice for a call that does not keep it, such as
// strconv.ParseFloat, is not allocated when it is short.)

// ParseLastMod is formats.ParseLastMod(string(b)), without allocating for
// the forms sitemaps usually hold: a W3C date or date-time in plain ASCII,
// padded with ASCII space.
func ParseLastMod(b []byte) (formats.LastMod, error) {
	if s, ok := trimASCII(b); ok {
		if t, p, ok := dates.W3C(s); ok {
			if l := formats.NewLastMod(t, formats.Precision(p)); !l.IsZero() {
				return l, nil
			}
		}
	}
	return formats.ParseLastMod(string(b))
}

// ParseChangeFreq is formats.ParseChangeFreq(string(b)), without
// allocating for the plain ASCII values sitemaps hold.
func ParseChangeFreq(b []byte) (formats.ChangeFreq, bool) {
	s, ok := trimASCII(b)
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

// ParsePriority parses a priority as strconv.ParseFloat and
// formats.NewPriority do after uri.TrimSpace, and reports false when
// either fails; without allocating for the plain decimals sitemaps hold.
func ParsePriority(b []byte) (formats.Priority, bool) {
	var (
		v   float64
		err error
	)
	if s, ok := trimASCII(b); ok {
		if v, ok := decimal(s); ok {
			return formats.NewPriority(v)
		}
		v, err = strconv.ParseFloat(string(s), 64)
	} else {
		v, err = strconv.ParseFloat(uri.TrimSpace(string(b)), 64)
	}
	p, ok := formats.NewPriority(v)
	return p, err == nil && ok
}

// DateOfZoneless returns, as a date (formats.PrecisionDay), the date part
// of a date and time of day written without a time zone: a W3C Datetime
// with its zone left out ("2024-05-06T10:00:00", a fraction of a second or
// a space for the T included) or an RFC 822 date with its zone left out
// ("Mon, 6 May 2024 10:00"). Such a time cannot be placed on the time
// line, but the day, as written, is known: the readers keep it where
// formats.ParseLastMod refuses the value. It reports false for anything
// else, and for a date the sitemap schema cannot hold. Surrounding space
// is ignored.
func DateOfZoneless(s string) (formats.LastMod, bool) {
	t, ok := dates.Zoneless(uri.TrimSpace(s))
	if !ok {
		return formats.LastMod{}, false
	}
	l := formats.NewLastMod(t, formats.PrecisionDay)
	return l, !l.IsZero()
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
