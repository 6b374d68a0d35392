// Package uri holds the URL rules the readers and the validator share:
// the space and separators trimmed around a URL, the port range, the
// xs:anyURI check of the sitemap schemas, and the file name of a local
// child sitemap. formats.ParseLoc builds on them.
package uri

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/feed2sitemap/feed2sitemap/internal/asciiset"
)

// MaxPort is the highest TCP port; a URL naming a higher one (or port 0)
// is refused.
const MaxPort = 65535

// IsHex reports whether c is a hexadecimal digit.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// IsLocSeparator reports whether r separates URLs: Unicode white space
// (the separators Zs, Zl and Zp, tab, line feed, vertical tab, form feed,
// carriage return, NEL), every control character (C0, DEL, C1), and the
// invisible characters sources wrap values in (zero-width space, word
// joiner, byte order mark, Mongolian vowel separator). ParseLoc trims them
// around a URL and refuses a value they split into several URLs.
func IsLocSeparator(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) ||
		r == '\u200b' || r == '\u2060' || r == '\ufeff' || r == '\u180e'
}

// TrimLocSeparators returns s without the separators (IsLocSeparator)
// around it.
func TrimLocSeparators(s string) string {
	if len(s) > 0 && isPrintASCII(s[0]) && isPrintASCII(s[len(s)-1]) {
		return s // the common case: nothing to trim, no rune to decode
	}
	return strings.TrimFunc(s, IsLocSeparator)
}

// isPrintASCII reports whether c is a printable ASCII character other
// than space: a whole rune that is no separator.
func isPrintASCII(c byte) bool { return c > ' ' && c < 0x7f }

// ParsePort parses the port of a URL: decimal digits (leading zeros
// allowed) naming a port from 1 to MaxPort. It reports false for anything
// else, the empty string included.
func ParsePort(s string) (int, bool) {
	t := strings.TrimLeft(s, "0")
	if len(t) > 5 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(t[i]-'0')
	}
	return n, n >= 1 && n <= MaxPort
}

// TrimSpace trims all Unicode space from both ends of s, including
// no-break spaces, zero-width spaces and byte order marks, which real
// sitemaps wrap values in.
func TrimSpace(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '\u200b' || r == '\ufeff' || r == '\u2060'
	})
}

// ChildFileName returns the name of the local file that holds the child
// sitemap loc of a local index: the last segment of loc's path,
// percent-decoded. It fails when that names no file ("", ".", "..", or a
// segment holding a slash or backslash once decoded). The converter and
// the validator look for local children beside their index by this rule.
func ChildFileName(loc string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(loc))
	if err != nil {
		return "", err
	}
	name := u.Path[strings.LastIndexByte(u.Path, '/')+1:]
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", fmt.Errorf("%s: names no file", loc)
	}
	return name, nil
}

// Excluded are the printable ASCII characters a loc never holds as
// they are: the delimiters RFC 3986 excludes, and '[' and ']', which it
// allows only around an IPv6 host (libxml2's anyURI, and so xmllint,
// refuse them in a path or query: "?q[]=1").
const Excluded = `"<>\^` + "`{|}[]"

// Safe is the set of bytes a URI holds as they are: printable ASCII but
// space, Excluded, '%' and '#' (which a caller checks apart).
var Safe = asciiset.Of(func(c byte) bool {
	return c > ' ' && c < 0x7f && !strings.ContainsRune(Excluded+"%#", rune(c))
})

// Clip shortens s for an error message.
func Clip(s string) string {
	if len(s) <= 120 {
		return s
	}
	return s[:117] + "..."
}

// LocProblem returns what the protocol forbids in a URL as a document
// wrote it, or nil: a value AnyURIProblem refuses (a bad %, several #, [
// or ] outside the host), or a character that must be percent-encoded
// (space and control characters, non-ASCII characters, host included,
// and the delimiters RFC 3986 excludes). formats.ParseLoc repairs both when
// reading; strict readers refuse such a URL, as validation does.
func LocProblem(s string) error {
	if p := AnyURIProblem(s); p != "" {
		return fmt.Errorf("not a valid URI as written: %s: %q", p, Clip(s))
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7F || strings.ContainsRune(Excluded, r) && r != '[' && r != ']' {
			return fmt.Errorf("%q must be percent-encoded (and a host written in punycode): %q", r, Clip(s))
		}
	}
	return nil
}
