package text

import (
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/asciiset"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// plainLoc reports whether s, a URL as a line holds it, is at once a loc
// formats.ParseLoc returns as it is and its own normal form under the
// always-on rules (normalize.NormalScope), with the length of its scope:
// most URLs of a list are, and one scan of them then serves both the
// reading and the dedupe (the reader gives the scope with the URL, see
// Scope). It holds because a loc normal under those rules is an http(s)
// URL in lower case, with a path, of bytes uri.Safe holds and upper-case
// escapes of bytes that must stay escaped, without fragment: the form
// ParseLoc leaves as it is, but for what it asks of the host beside,
// checked here (bytes of plainHost alone: no port, no '_'), and its
// length. TestPlainLocIsParsed and FuzzPlainLoc check that it never says
// true for a loc ParseLoc would change or refuse.
func plainLoc(s string) (scope int, ok bool) {
	if len(s) > formats.MaxLocLength {
		return 0, false
	}
	if scope, ok = normalize.NormalScope(s); !ok {
		return 0, false
	}
	n := len("http://")
	if s[4] == 's' {
		n++
	}
	if h := n + plainHost.Span(s[n:]); s[h] != '/' { // a normal loc has a path
		return 0, false
	}
	return scope, true
}

// plainHost are the bytes of a host that ParseLoc leaves as it is (and
// normalize's normal form too): lower-case letters, digits, '-' and '.'.
var plainHost = asciiset.Of(func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' })
