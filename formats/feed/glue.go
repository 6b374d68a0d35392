package feed

import (
	"errors"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// parseLoc is formats.ParseLoc for a URL of a feed. gofeed passes the URL
// attributes of Atom and RSS (href, src, uri) and Atom's URL elements (id,
// icon, logo, uri) through net/url, which percent-encodes the separators
// between two glued URLs ("a\u2028b" becomes "a%E2%80%A8b") and so hides
// them from ParseLoc's rule. The check is made again with the escapes of
// separators decoded, so that a feed link holding several URLs is refused
// as it is in every other format.
func parseLoc(raw string, base *url.URL) (string, error) {
	loc, err := formats.ParseLoc(raw, base)
	if err != nil {
		return loc, err
	}
	if decoded, ok := decodeSeparators(raw); ok {
		if _, err := formats.ParseLoc(decoded, base); errors.Is(err, formats.ErrLocSpace) {
			return "", err
		}
	}
	return loc, nil
}

// decodeSeparators returns s with the percent-escapes that encode a
// separator (uri.IsLocSeparator, as UTF-8) decoded, and whether there
// was one. Other escapes are kept.
func decodeSeparators(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, false
	}
	var b strings.Builder
	found := false
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			var buf [utf8.UTFMax]byte
			n, j := 0, i
			for n < len(buf) && j+2 < len(s) && s[j] == '%' && isHex(s[j+1]) && isHex(s[j+2]) {
				buf[n] = unhex(s[j+1])<<4 | unhex(s[j+2])
				n++
				j += 3
				if utf8.FullRune(buf[:n]) {
					break
				}
			}
			if r, size := utf8.DecodeRune(buf[:n]); n > 0 && size == n && r != utf8.RuneError && uri.IsLocSeparator(r) {
				if !found {
					b.Grow(len(s))
					b.WriteString(s[:i])
					found = true
				}
				b.WriteRune(r)
				i = j - 1
				continue
			}
		}
		if found {
			b.WriteByte(s[i])
		}
	}
	if !found {
		return s, false
	}
	return b.String(), true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
