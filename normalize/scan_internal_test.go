package normalize

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// The tables normalScope read a byte at a time before it scanned with
// asciiset.
var (
	pathPlainByte = func() (t [256]bool) {
		for c := 0; c < 256; c++ {
			t[c] = uri.Safe.Has(byte(c)) && c != '?' && c != ';' && c != '/'
		}
		return
	}()
	queryPlainByte = func() (t [256]bool) {
		for c := 0; c < 256; c++ {
			t[c] = queryPlain.Has(byte(c))
		}
		return
	}()
	hostByteOld = func() (t [256]bool) {
		for c := 0; c < 256; c++ {
			t[c] = hostName.Has(byte(c)) || c == ':'
		}
		return
	}()
)

// normalScopeByByte is normalScope as it was before it scanned with
// asciiset, a byte at a time: what it must still say.
func (o *Options) normalScopeByByte(s string) (scope int, ok bool) {
	https := false
	i := 0
	switch {
	case strings.HasPrefix(s, "https://"):
		https, i = true, len("https://")
	case !o.HTTPS && strings.HasPrefix(s, "http://"):
		i = len("http://")
	default:
		return 0, false
	}

	// Authority: a plain lower-case host and an optional port.
	start, colon := i, -1
	for ; i < len(s) && s[i] != '/'; i++ {
		c := s[i]
		if c == ':' && colon < 0 {
			colon = i
		} else if !hostByteOld[c] {
			return 0, false // also '?' or '#' before any path: the path is empty
		}
	}
	if i == len(s) {
		return 0, false // empty path
	}
	host := s[start:i]
	if colon >= 0 {
		host = s[start:colon]
		port := s[colon+1 : i]
		if port == "" || port[0] == '0' && len(port) > 1 || isDefaultPort(port, https) {
			return 0, false
		}
		for j := 0; j < len(port); j++ {
			if port[j] < '0' || port[j] > '9' {
				return 0, false
			}
		}
	}
	if host == "" || o.WWW != HostKeep && o.wwwHost(host) != host {
		return 0, false
	}

	// Path: no byte to encode, no escape to change, no dot segment. What
	// ScopeKey changes (escapes, path parameters, a host's trailing dot)
	// makes scope unknown.
	pathStart, seg := i, i
	plainScope := host[len(host)-1] != '.'
path:
	for i++; i < len(s); i++ {
		c := s[i]
		if pathPlainByte[c] {
			continue
		}
		switch {
		case c == '/':
			if isDotSegment(s[seg+1 : i]) {
				return 0, false
			}
			seg = i
		case c == '?':
			break path
		case c == ';':
			if o.StripSessionIDs {
				return 0, false
			}
			plainScope = false
		case c == '%' && isNormalEscape(s, i):
			i += 2
			plainScope = false
		default:
			return 0, false // includes '#'
		}
	}
	if isDotSegment(s[seg+1 : i]) {
		return 0, false
	}
	if path := s[pathStart:i]; o.TrailingSlash != SlashKeep && trailingSlash(path, o.TrailingSlash) != len(path) {
		return 0, false
	}
	if plainScope {
		scope = i
	}
	if i == len(s) {
		return scope, true
	}

	// Query: not empty, no byte to encode, no escape to change, no
	// parameter the options remove or move.
	q := s[i+1:]
	if q == "" {
		return 0, false
	}
	options := o.queryOptions()
	start, eq, prev := 0, -1, ""
	for j := 0; j <= len(q); j++ {
		if j < len(q) {
			c := q[j]
			if queryPlainByte[c] {
				continue
			}
			switch {
			case c == '=':
				if eq < 0 {
					eq = j
				}
				continue
			case c == '%' && isNormalEscape(q, j):
				j += 2
				continue
			case c != '&':
				return 0, false
			}
		}
		if options {
			name := q[start:j]
			if eq >= 0 {
				name = q[start:eq]
			}
			if j == start || removesParam(o, name) || o.SortQuery && name < prev {
				return 0, false // an empty parameter, or one to remove or move
			}
			prev = name
		}
		start, eq = j+1, -1
	}
	return scope, true
}

// normalScopeCases are URLs in and near the forms normalScope takes apart.
var normalScopeCases = []string{
	"https://www.example.com/blog/2022/04/server-kitchen-history-archive-mountain-notes-index-notes-2/",
	"https://example.com/", "http://example.com:8080/a/b", "https://example.com:443/", "https://example.com:0443/",
	"https://e.com/a/./b", "https://e.com/a/../b", "https://e.com/a/.", "https://e.com/a/..", "https://e.com/.a/..b/...",
	"https://e.com/a;jsessionid=1/b", "https://e.com/%41", "https://e.com/%2F%C3%A9", "https://e.com/%zz",
	"https://e.com/a?b=c&d=e", "https://e.com/a?", "https://e.com/a?b&&c", "https://e.com/a?utm_source=x&b=1",
	"https://e.com/a?b=1&a=2", "https://e.com/a#f", "https://e.com./a", "https://www.e.com/", "https://e.com/a/",
	"https://e.com/a?%41=1", "https://e.com/a?q=%2B", "https://e.com:/", "https://e.com:1:2/", "https://E.com/",
	"https://e.com?x", "https://e.com", "http://e.com/\x80", "https://e.com/a b", "https://e.com/[x]",
	"https://sub_domain.e.com/a", "https://e.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/..",
}

// normalScope says what the byte-at-a-time scan says, with every option,
// on the cases, on each with every byte value at every position, and on
// random mixtures.
func TestNormalScopeAgreesWithByteByByte(t *testing.T) {
	check := func(s string) {
		for bits := range uint16(512) {
			o := fuzzOptions(bits)
			gs, gok := o.normalScope(s)
			ws, wok := o.normalScopeByByte(s)
			if gs != ws || gok != wok {
				t.Fatalf("%q with %+v: normalScope %d %v, byte by byte %d %v", s, *o, gs, gok, ws, wok)
			}
		}
	}
	for _, s := range normalScopeCases {
		check(s)
		for pos := 8; pos < len(s); pos++ {
			for _, c := range []byte("/.?;%#&=:_-aZ0 \x7f\x80\xff[") {
				b := []byte(s)
				b[pos] = c
				check(string(b))
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	const alphabet = "abc./..;%2F41?&=#:_-Z"
	for range 5000 {
		var b strings.Builder
		b.WriteString([]string{"https://", "http://"}[r.IntN(2)])
		b.WriteString([]string{"e.com", "www.e.com", "e.com:81", "e.com.", "E.com"}[r.IntN(5)])
		for range r.IntN(60) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		check(b.String())
	}
}

func FuzzNormalScope(f *testing.F) {
	for _, s := range normalScopeCases {
		f.Add(s, uint16(0))
	}
	f.Fuzz(func(t *testing.T, s string, bits uint16) {
		o := fuzzOptions(bits)
		gs, gok := o.normalScope(s)
		ws, wok := o.normalScopeByByte(s)
		if gs != ws || gok != wok {
			t.Fatalf("%q with %+v: normalScope %d %v, byte by byte %d %v", s, *o, gs, gok, ws, wok)
		}
	})
}
