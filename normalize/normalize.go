package normalize

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/feed2sitemap/feed2sitemap/internal/asciiset"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// Key returns the identity of loc under the always-on rules alone: two locs
// with the same Key are the same page. It is URL with the zero Options; to
// dedupe with options, use their URL as the key.
func Key(loc string) string {
	return (*Options)(nil).URL(loc)
}

// URL returns the normal form of loc, an absolute http or https URL
// (normally as formats.ParseLoc returns it): the rules of the package
// documentation applied in order. A nil o is the zero Options.
//
// A loc already in normal form is returned as it is, and in the forms
// sitemaps hold (no userinfo, no IPv6 literal, no path parameter when
// stripping session ids) without allocating. A string that is not an http
// or https URL is returned unchanged.
func (o *Options) URL(loc string) string {
	key, _ := o.URLScope(loc)
	return key
}

// URLScope returns URL(loc) and, when the scan that found loc already in
// normal form found ScopeKey(loc) to be a prefix of it (the common case: a
// plain path, no escape nor path parameter, no trailing dot on the host),
// that prefix's length, so that a scope rule needs no second scan;
// otherwise scope is 0.
func (o *Options) URLScope(loc string) (key string, scope int) {
	if o == nil {
		o = &zeroOptions
	}
	if scope, ok := o.normalScope(loc); ok {
		return loc, scope
	}
	n, https := schemeLen(loc)
	if n == 0 {
		return loc, 0
	}
	return o.rewrite(loc, n, https), 0
}

var zeroOptions Options

// NormalScope reports whether loc is its own normal form under the zero
// Options (always-on rules alone), in one scan and without allocating,
// and when it is, the length of the prefix of loc that is its ScopeKey (0
// when unknown): what URLScope returns for such a loc. It may say false
// for a loc that is normal (rare forms), never true for one that is not.
func NormalScope(loc string) (scope int, ok bool) { return zeroOptions.normalScope(loc) }

// normal reports, in one scan and without allocating, whether s is already
// in the form rewrite returns, so that rewrite would return s. It may say
// false for a string that is normal (rare forms are left to rewrite), never
// true for one that is not.
func (o *Options) normal(s string) bool {
	_, ok := o.normalScope(s)
	return ok
}

// normalScope is normal, and when it says true, scope is the length of the
// prefix of s that is ScopeKey(s), or 0 when ScopeKey has more to do (an
// escape or path parameter in the path, a host with a trailing dot). The
// options only add conditions to those of the zero Options, so a string
// normal under any is normal under the zero Options, whose form ScopeKey
// starts from.
func (o *Options) normalScope(s string) (scope int, ok bool) {
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
	for {
		if i += hostName.Span(s[i:]); i < len(s) && s[i] == ':' && colon < 0 {
			colon = i
			i++
			continue
		}
		break
	}
	if i == len(s) || s[i] != '/' {
		return 0, false // an empty path ('?' or '#' before any), or a byte not in a host
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
	pathStart := i
	plainScope := host[len(host)-1] != '.'
	for {
		if i += pathPlain.Span(s[i:]); i == len(s) || s[i] == '?' {
			break
		}
		switch c := s[i]; {
		case c == '.':
			// A dot segment, "." or "..", ends at a slash, the query or
			// the end; a dot after a slash may start one.
			if s[i-1] == '/' {
				j := i + 1
				if j < len(s) && s[j] == '.' {
					j++
				}
				if j == len(s) || s[j] == '/' || s[j] == '?' {
					return 0, false
				}
			}
			i++
		case c == ';':
			if o.StripSessionIDs {
				return 0, false
			}
			plainScope = false
			i++
		case c == '%' && isNormalEscape(s, i):
			i += 3
			plainScope = false
		default:
			return 0, false // includes '#'
		}
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
		if j += queryPlain.Span(q[j:]); j < len(q) {
			switch c := q[j]; {
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

// rewrite builds the normal form of s, which starts with an n-byte http or
// https scheme and "//".
func (o *Options) rewrite(s string, n int, https bool) string {
	rest := s[n:]
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		rest = rest[:i]
	}
	end := 0
	for end < len(rest) && rest[end] != '/' && rest[end] != '?' {
		end++
	}
	authority, rest := rest[:end], rest[end:]
	path, query, hasQuery := strings.Cut(rest, "?")

	userinfo, hasUserinfo := "", false
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		userinfo, authority, hasUserinfo = authority[:i], authority[i+1:], true
	}
	host, port, hasPort := splitHostPort(authority)
	host = cleanHost(host)
	if hasPort {
		port = cleanPort(port, https)
	}
	if o.HTTPS && !https {
		https = true
		if hasPort {
			port = cleanPort(port, https)
		}
	}
	if o.WWW != HostKeep {
		host = o.wwwHost(host)
	}

	var b strings.Builder
	b.Grow(len(s) + 16)
	if https {
		b.WriteString("https://")
	} else {
		b.WriteString("http://")
	}
	var stack [256]byte
	if hasUserinfo {
		b.Write(appendNormalEscapes(stack[:0], userinfo))
		b.WriteByte('@')
	}
	b.WriteString(host)
	if hasPort && port != "" {
		b.WriteByte(':')
		b.WriteString(port)
	}

	p := appendNormalEscapes(stack[:0], path)
	if o.StripSessionIDs {
		p = stripPathParams(p)
	}
	p = removeDotSegments(p)
	if len(p) == 0 {
		p = append(p, '/')
	}
	switch o.TrailingSlash {
	case SlashRemove:
		p = p[:trailingSlash(p, SlashRemove)]
	case SlashAdd:
		if trailingSlash(p, SlashAdd) > len(p) {
			p = append(p, '/')
		}
	}
	b.Write(p)

	if hasQuery {
		q := appendNormalEscapes(stack[:0], query)
		if o.queryOptions() {
			q = o.filterQuery(q)
		}
		if len(q) > 0 {
			b.WriteByte('?')
			b.Write(q)
		}
	}
	if b.Len() == len(s) && b.String() == s {
		return s
	}
	return b.String()
}

// schemeLen returns the length of the "http://" or "https://" (in any
// case) that starts s, and whether it is https; 0 when s starts with
// neither.
func schemeLen(s string) (n int, https bool) {
	switch {
	case hasPrefixFold(s, "https://"):
		return len("https://"), true
	case hasPrefixFold(s, "http://"):
		return len("http://"), false
	}
	return 0, false
}

// splitHostPort splits an authority without userinfo into host and port.
// The port is split off only when it is all digits (or empty) and the host
// is an IPv6 literal or holds no other ':'; otherwise the whole authority
// is the host, left as it is apart from case.
func splitHostPort(a string) (host, port string, hasPort bool) {
	i := strings.LastIndexByte(a, ':')
	if strings.HasPrefix(a, "[") {
		if j := strings.IndexByte(a, ']'); j < 0 || i != j+1 {
			return a, "", false
		}
	} else if i < 0 || strings.IndexByte(a[:i], ':') >= 0 {
		return a, "", false
	}
	if i < 0 {
		return a, "", false
	}
	for j := i + 1; j < len(a); j++ {
		if a[j] < '0' || a[j] > '9' {
			return a, "", false
		}
	}
	return a[:i], a[i+1:], true
}

// cleanHost lower-cases host, decodes its escapes, and converts a name
// holding non-ASCII characters to punycode. A host that is not a valid
// name once decoded is only lower-cased.
func cleanHost(host string) string {
	plain := true
	for i := 0; i < len(host); i++ {
		if c := host[i]; c >= 0x80 || c == '%' {
			plain = false
			break
		}
	}
	if plain || strings.HasPrefix(host, "[") {
		return asciiLower(host)
	}
	h := host
	if strings.IndexByte(h, '%') >= 0 {
		if u, err := url.PathUnescape(h); err == nil {
			h = u
		}
	}
	if isName(h) {
		return asciiLower(h)
	}
	if a, err := idna.Lookup.ToASCII(h); err == nil && isName(a) && a == asciiLower(a) {
		return a
	}
	return asciiLower(host)
}

// isName reports whether s is a non-empty host name of ASCII letters,
// digits, '-', '.' and '_'.
func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !hostName.Has(c) && !('A' <= c && c <= 'Z') {
			return false
		}
	}
	return s != ""
}

// cleanPort drops the leading zeros of an all-digit port, and returns ""
// for an empty port and for the default port of the scheme.
func cleanPort(port string, https bool) string {
	for len(port) > 1 && port[0] == '0' {
		port = port[1:]
	}
	if isDefaultPort(port, https) {
		return ""
	}
	return port
}

func isDefaultPort(port string, https bool) bool {
	if https {
		return port == "443"
	}
	return port == "80"
}

// wwwHost applies o.WWW to a lower-case host.
func (o *Options) wwwHost(host string) string {
	switch o.WWW {
	case HostAddWWW:
		if !strings.HasPrefix(host, "www.") && isRegistrable(host) {
			return "www." + host
		}
	case HostRemoveWWW:
		if strings.HasPrefix(host, "www.") && isRegistrable(host[len("www."):]) {
			return host[len("www."):]
		}
	}
	return host
}

// isRegistrable reports whether host, a lower-case name, is a registrable
// domain: exactly one label under a public suffix. A final dot is ignored.
func isRegistrable(host string) bool {
	host = strings.TrimSuffix(host, ".")
	if host == "" || host[0] == '.' || strings.Contains(host, "..") {
		return false
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; !hostName.Has(c) {
			return false
		}
	}
	dot := strings.LastIndexByte(host, '.')
	if dot < 0 || isDigits(host[dot+1:]) {
		return false // one label, or an IPv4 address (no TLD is numeric)
	}
	if v := lastDomain.Load(); v != nil && v.host == host {
		return v.registrable
	}
	suffix, _ := publicsuffix.PublicSuffix(host)
	i := len(host) - len(suffix) - 1
	v := &domainVerdict{host, i > 0 && host[i] == '.' && strings.LastIndexByte(host[:i], '.') < 0}
	lastDomain.Store(v)
	return v.registrable
}

// lastDomain remembers the last answer of isRegistrable: URLs come in runs
// of one host, and the public suffix lookup costs more than the rest of
// the fast path (and allocates).
var lastDomain atomic.Pointer[domainVerdict]

type domainVerdict struct {
	host        string
	registrable bool
}

// appendNormalEscapes appends s to dst with its percent-encoding
// normalized (rule 8 of the package documentation).
func appendNormalEscapes(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		j := i
		j += uri.Safe.Span(s[j:])
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			if v := unhex(s[i+1])<<4 | unhex(s[i+2]); unreserved[v] {
				dst = append(dst, v)
			} else {
				dst = append(dst, '%', upper(s[i+1]), upper(s[i+2]))
			}
			i += 2
		} else {
			dst = append(dst, '%', hex[c>>4], hex[c&15])
		}
	}
	return dst
}

// isNormalEscape reports whether the '%' at s[i] starts an escape that
// appendNormalEscapes keeps as it is.
func isNormalEscape(s string, i int) bool {
	if i+2 >= len(s) {
		return false
	}
	a, b := s[i+1], s[i+2]
	if !isUpperHex(a) || !isUpperHex(b) {
		return false
	}
	return !unreserved[unhex(a)<<4|unhex(b)]
}

// stripPathParams removes, in place, the ";name=value" path parameters of
// p whose name is a session id.
func stripPathParams(p []byte) []byte {
	out := p[:0]
	for i := 0; i < len(p); {
		if p[i] != ';' {
			out = append(out, p[i])
			i++
			continue
		}
		j := i + 1
		for j < len(p) && p[j] != ';' && p[j] != '/' {
			j++
		}
		if !matchList(sessionIDs, paramName(p[i+1:j])) {
			out = append(out, p[i:j]...)
		}
		i = j
	}
	return out
}

// removeDotSegments removes, in place, the "." and ".." segments of an
// absolute path as RFC 3986 section 5.2.4 does.
func removeDotSegments(p []byte) []byte {
	if len(p) == 0 || p[0] != '/' {
		return p
	}
	out := p[:0]
	for i := 0; i < len(p); {
		j := i + 1
		for j < len(p) && p[j] != '/' {
			j++
		}
		seg := p[i+1 : j]
		switch {
		case isDotSegment(seg):
			if len(seg) == 2 {
				if k := bytes.LastIndexByte(out, '/'); k >= 0 {
					out = out[:k]
				}
			}
			if j == len(p) {
				out = append(out, '/')
			}
		default:
			out = append(out, p[i:j]...)
		}
		i = j
	}
	return out
}

func isDotSegment[T string | []byte](seg T) bool {
	return len(seg) == 1 && seg[0] == '.' || len(seg) == 2 && seg[0] == '.' && seg[1] == '.'
}

// trailingSlash returns the length path has once the option is applied:
// shorter for SlashRemove when it ends in slashes, one longer for SlashAdd
// when a slash is to be added.
func trailingSlash[T string | []byte](path T, opt Slash) int {
	n := len(path)
	switch opt {
	case SlashRemove:
		for n > 1 && path[n-1] == '/' {
			n--
		}
	case SlashAdd:
		if n == 0 || path[n-1] == '/' {
			break
		}
		last := n - 1
		for last >= 0 && path[last] != '/' {
			last--
		}
		if !looksLikeFile(path[last+1:]) {
			n++
		}
	}
	return n
}

// looksLikeFile reports whether a last path segment is one a slash must
// not follow: it holds a path parameter (';'), or it has an extension, a
// '.' after its first byte followed by 1 to 8 ASCII letters and digits, at
// least one of them a letter ("a.html", "b.tar.gz", not "v1.2" nor ".x").
func looksLikeFile[T string | []byte](seg T) bool {
	dot := -1
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case ';':
			return true
		case '.':
			dot = i
		}
	}
	if dot <= 0 || len(seg)-dot-1 < 1 || len(seg)-dot-1 > 8 {
		return false
	}
	letter := false
	for i := dot + 1; i < len(seg); i++ {
		c := seg[i] | 0x20
		switch {
		case 'a' <= c && c <= 'z':
			letter = true
		case '0' <= seg[i] && seg[i] <= '9':
		default:
			return false
		}
	}
	return letter
}

// queryOptions reports whether an option rewrites the query parameters.
func (o *Options) queryOptions() bool {
	return o.StripSessionIDs || o.StripUTM || o.SortQuery || len(o.StripParams) > 0
}

// removesParam reports whether the options remove a query parameter.
func removesParam[T string | []byte](o *Options, name T) bool {
	return o.StripUTM && matchList(trackingParams, name) ||
		o.StripSessionIDs && matchList(sessionIDs, name) ||
		matchAny(o.StripParams, name)
}

// filterQuery drops the empty parameters of q and those the options
// remove, and sorts what is left when o.SortQuery says so.
func (o *Options) filterQuery(q []byte) []byte {
	out := q[:0]
	sorted := true
	var prev []byte
	for i := 0; i <= len(q); {
		j := i + bytes.IndexByte(q[i:], '&')
		if j < i {
			j = len(q)
		}
		param := q[i:j]
		name := paramName(param)
		if len(param) > 0 && !removesParam(o, name) {
			if len(out) > 0 {
				sorted = sorted && bytes.Compare(prev, name) <= 0
				out = append(out, '&')
			}
			out = append(out, param...)
			prev = out[len(out)-len(param):][:len(name)]
		}
		i = j + 1
	}
	if !o.SortQuery || sorted {
		return out
	}
	type span struct{ start, end int }
	params := make([]span, 0, bytes.Count(out, []byte{'&'})+1)
	for i := 0; i <= len(out); {
		j := i + bytes.IndexByte(out[i:], '&')
		if j < i {
			j = len(out)
		}
		params = append(params, span{i, j})
		i = j + 1
	}
	slices.SortStableFunc(params, func(a, b span) int {
		return bytes.Compare(paramName(out[a.start:a.end]), paramName(out[b.start:b.end]))
	})
	sortedOut := make([]byte, 0, len(out))
	for i, p := range params {
		if i > 0 {
			sortedOut = append(sortedOut, '&')
		}
		sortedOut = append(sortedOut, out[p.start:p.end]...)
	}
	return sortedOut
}

func paramName[T string | []byte](param T) T {
	for i := 0; i < len(param); i++ {
		if param[i] == '=' {
			return param[:i]
		}
	}
	return param
}

// matchAny reports whether name matches one of the patterns, ignoring
// ASCII case; a pattern ending in '*' matches the names it starts.
func matchAny[T string | []byte](patterns []string, name T) bool {
	for _, p := range patterns {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			if len(name) >= len(prefix) && equalFold(name[:len(prefix)], prefix) {
				return true
			}
		} else if p != "" && len(name) == len(p) && equalFold(name, p) {
			return true
		}
	}
	return false
}

// equalFold reports whether a and b, of the same length, are equal
// ignoring ASCII case.
func equalFold[T string | []byte](a T, b string) bool {
	for i := 0; i < len(b); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFold(s[:len(prefix)], prefix)
}

// asciiLower lower-cases the ASCII letters of s, allocating only when it
// has to.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isUpperHex(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'f' {
		return c - ('a' - 'A')
	}
	return c
}

// pathPlain marks the bytes normal checks nothing more about in a path:
// uri.Safe, the set formats.ParseLoc keeps, but for '?', ';' and '.' (a
// dot may start a dot segment: the scan that finds the path normal finds
// those too).
var pathPlain = asciiset.Of(func(c byte) bool { return uri.Safe.Has(c) && c != '?' && c != ';' && c != '.' })

// queryPlain marks the bytes normal checks nothing more about in a query:
// uri.Safe but for '&' and '='.
var queryPlain = asciiset.Of(func(c byte) bool { return uri.Safe.Has(c) && c != '&' && c != '=' })

// unreserved marks the unreserved characters of RFC 3986, whose escapes
// are decoded.
var unreserved = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '-' || c == '.' || c == '_' || c == '~'
	}
	return
}()

// hostName marks the bytes of a host name in normal form.
var hostName = asciiset.Of(func(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_'
})
