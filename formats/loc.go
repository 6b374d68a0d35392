package formats

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/feed2sitemap/feed2sitemap/internal/asciiset"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// ParseLoc turns a URL as a source wrote it into the form the model holds:
// surrounding separators (see uri.IsLocSeparator) trimmed, resolved against
// base when relative (base may be nil), scheme and host lower-cased, an
// internationalized host in punycode, and every character a URI may not
// hold percent-encoded as UTF-8, '[' and ']' outside an IPv6 host included
// (the sitemap schema's anyURI refuses them). Existing %XX escapes are kept
// as they are, never encoded twice; a '%' that starts no escape becomes
// %25; an empty port ("host:") is dropped.
//
// It fails when the result is not an absolute http or https URL with a
// host, is longer than MaxLocLength, names a port that is not a number from
// 1 to uri.MaxPort, or when the value holds several URLs (a sign of missing
// markup between entries): separators followed by another URL, or a line
// break or control character anywhere inside. Space inside a single URL
// ("/my page") is percent-encoded. Every reader passes its URLs through
// ParseLoc, so the rule is the same in every format.
func ParseLoc(raw string, base *url.URL) (string, error) {
	s := uri.TrimLocSeparators(raw)
	if s == "" {
		return "", reason.Of(ErrLocEmpty)
	}
	if ok, hash := isCanonical(s); ok {
		if !hash {
			return s, nil
		}
		return withoutEmptyFragment(s), nil
	}
	if err := checkSeparators(s); err != nil {
		return "", err
	}
	if strings.Contains(s, "\uFFFD") {
		return "", fmt.Errorf("%w: %q", reason.Of(ErrLocReplacement), uri.Clip(s))
	}
	scheme, rest, ok := splitScheme(s)
	if !ok {
		if base == nil || (base.Scheme != "http" && base.Scheme != "https") {
			return "", fmt.Errorf("%w: %q", reason.Of(ErrLocRelative), uri.Clip(s))
		}
		ref, err := url.Parse(escapeURI(s))
		if err != nil {
			return "", fmt.Errorf("%w: %q", reason.Of(ErrLocRelative), uri.Clip(s))
		}
		return ParseLoc(base.ResolveReference(ref).String(), nil)
	}
	if scheme != "http" && scheme != "https" {
		return "", fmt.Errorf("%w: %q", reason.Of(ErrLocScheme), uri.Clip(s))
	}
	if !strings.HasPrefix(rest, "//") {
		return "", fmt.Errorf("%w: %q has no host", reason.Of(ErrLocHost), uri.Clip(s))
	}
	rest = rest[2:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority, err := cleanAuthority(rest[:end])
	if err != nil {
		return "", fmt.Errorf("%w: %q: %w", reason.Of(ErrLocHost), uri.Clip(s), err)
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(scheme)
	b.WriteString("://")
	b.WriteString(authority)
	appendEscaped(&b, rest[end:])
	loc := withoutEmptyFragment(b.String())
	if len(loc) > MaxLocLength {
		return "", fmt.Errorf("%w: %d characters", reason.Of(ErrLocTooLong), len(loc))
	}
	return loc, nil
}

// withoutEmptyFragment returns loc without a final '#' that starts an
// empty fragment: the same page, and URL parsers drop it.
func withoutEmptyFragment(loc string) string {
	if i := strings.IndexByte(loc, '#'); i == len(loc)-1 {
		return loc[:i]
	}
	return loc
}

// isCanonical reports, quickly, whether s is already in the form ParseLoc
// returns: a lower-case http(s) scheme and plain lower-case ASCII host, and
// nothing a URI may not hold; and whether it holds a '#'.
func isCanonical(s string) (ok, hash bool) {
	var rest string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest = s[8:]
	case strings.HasPrefix(s, "http://"):
		rest = s[7:]
	default:
		return false, false
	}
	if len(s) > MaxLocLength {
		return false, false
	}
	i := canonicalHost.Span(rest)
	if i < len(rest) && rest[i] != '/' && rest[i] != '?' && rest[i] != '#' {
		return false, false
	}
	if host, port, hasPort := strings.Cut(rest[:i], ":"); host == "" || hasPort {
		if _, ok := uri.ParsePort(port); host == "" || !ok {
			return false, false
		}
	}
	for {
		if i += uri.Safe.Span(rest[i:]); i == len(rest) {
			return true, hash
		}
		switch c := rest[i]; {
		case c == '%' && i+2 < len(rest) && uri.IsHex(rest[i+1]) && uri.IsHex(rest[i+2]):
		case c == '#' && !hash:
			hash = true
		default:
			return false, false
		}
		i++
	}
}

// canonicalHost are the bytes of a host and port as ParseLoc writes them.
var canonicalHost = asciiset.Of(func(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == ':'
})

// splitScheme splits "scheme:rest", lower-casing the scheme. It reports
// false when s has no scheme (a relative reference).
func splitScheme(s string) (scheme, rest string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i < 0 || !uri.ValidScheme(s[:i]) {
		return "", "", false
	}
	return asciiLower(s[:i]), s[i+1:], true
}

// cleanAuthority validates and canonicalizes "host[:port]" (user information
// is refused):
// the host lower-cased and in punycode, the port all digits.
func cleanAuthority(a string) (string, error) {
	if strings.IndexByte(a, '@') >= 0 {
		// Credentials: no search engine uses them, and a sitemap is public.
		return "", errors.New("user information (credentials) in the URL")
	}
	host, port := a, ""
	if strings.HasPrefix(host, "[") {
		i := strings.IndexByte(host, ']')
		if i < 0 {
			return "", errors.New("unclosed IPv6 literal")
		}
		host, port = host[:i+1], host[i+1:]
		if port != "" && port[0] != ':' {
			return "", errors.New("text after IPv6 literal")
		}
		port = strings.TrimPrefix(port, ":")
	} else if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host, port = host[:i], host[i+1:]
	}
	if port != "" {
		if _, ok := uri.ParsePort(port); !ok {
			return "", fmt.Errorf("%w %q: not a number from 1 to %d", reason.Of(ErrLocPort), port, uri.MaxPort)
		}
	}
	if host == "" {
		return "", errors.New("empty host")
	}
	if !strings.HasPrefix(host, "[") {
		if strings.Contains(host, "%") {
			if h, err := url.PathUnescape(host); err == nil {
				host = h
			}
		}
		h, err := toASCIIHost(host)
		if err != nil {
			return "", err
		}
		host = h
	} else {
		inner := host[1 : len(host)-1]
		for i := 0; i < len(inner); i++ {
			// An address and a zone (fe80::1%25en0) of unreserved
			// characters: nothing to escape, nothing the schema refuses.
			c := inner[i]
			if !(c == ':' || c == '-' || c == '.' || c == '_' || c == '~' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z' ||
				c == '%' && strings.HasPrefix(inner[i:], "%25")) {
				return "", fmt.Errorf("%q is not an IPv6 address", host)
			}
		}
		if z, err := url.PathUnescape(inner); err == nil {
			inner = z // a zone: fe80::1%25en0
		}
		if addr, err := netip.ParseAddr(inner); err != nil || !addr.Is6() {
			return "", fmt.Errorf("%q is not an IPv6 address", host)
		}
		host = asciiLower(host)
	}
	if port != "" {
		host += ":" + port
	}
	return host, nil
}

// toASCIIHost lower-cases an ASCII host name and converts an
// internationalized one to punycode.
func toASCIIHost(host string) (string, error) {
	ascii := true
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return "", fmt.Errorf("character %q not allowed in a host name", c)
		}
	}
	if ascii {
		return asciiLower(host), nil
	}
	h, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return "", fmt.Errorf("host %q: %v", host, err)
	}
	return h, nil
}

// escapeURI percent-encodes what a URI may not hold, as appendEscaped does.
func escapeURI(s string) string {
	var b strings.Builder
	appendEscaped(&b, s)
	return b.String()
}

// appendEscaped writes s to b with every byte a URI may not hold
// percent-encoded: non-ASCII bytes (so characters are encoded as UTF-8),
// space and control characters, the characters of uri.Excluded, a '%'
// that starts no escape, and every '#' after the first.
func appendEscaped(b *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	seenHash := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+2 < len(s) && uri.IsHex(s[i+1]) && uri.IsHex(s[i+2]):
			b.WriteByte(c)
			continue
		case c == '#':
			if !seenHash {
				seenHash = true
				b.WriteByte(c)
				continue
			}
		case uri.Safe.Has(c):
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
}

// isLocBreak reports whether r, a separator, breaks a line: a URL never
// holds one, so a value holding one is never a single URL.
func isLocBreak(r rune) bool {
	return r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' ||
		r == '\u0085' || r == '\u2028' || r == '\u2029'
}

// checkSeparators reports separators inside s, trimmed: ErrLocSpace when a
// run of them is followed by another URL (something holding "://" or
// starting with "//") or when one breaks a line; ErrLocControl for another
// control character. Other space, as in "/my page", is left for
// appendEscaped to percent-encode. It runs in one pass over s.
func checkSeparators(s string) error {
	scheme := strings.LastIndex(s, "://")
	control := false
	for i, r := range s {
		if !uri.IsLocSeparator(r) {
			continue
		}
		if isLocBreak(r) || i < scheme {
			return fmt.Errorf("%w: %q", reason.Of(ErrLocSpace), uri.Clip(s))
		}
		next := s[i+utf8.RuneLen(r):]
		if strings.HasPrefix(next, "//") {
			return fmt.Errorf("%w: %q", reason.Of(ErrLocSpace), uri.Clip(s))
		}
		control = control || unicode.IsControl(r)
	}
	if control {
		return fmt.Errorf("%w: %q", reason.Of(ErrLocControl), uri.Clip(s))
	}
	return nil
}

// asciiLower lower-cases the ASCII letters of s, allocating only when it
// has to.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
