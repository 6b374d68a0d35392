package validate

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// urlUse says which rules apply to a URL.
type urlUse uint8

const (
	usePage   urlUse = iota // a url's loc: every rule
	useChild                // a sitemap index's child loc
	useRobots               // a robots.txt Sitemap: line
	useExtra                // an extension's URL (image, video, alternate)
)

// locSchema says whether the URL is checked against the schema's tLoc
// (length 12 to 2,048).
type locSchema bool

// checkURL checks a URL value at line:col; what names it in messages. It
// returns the URL trimmed, and whether it is an absolute http(s) URL.
func (d *doc) checkURL(raw string, line, col int, what string, use urlUse, tloc locSchema) (string, bool) {
	return d.checkURLLen(raw, plainURL(raw), pageForm{}, 0, line, col, what, use, tloc)
}

// pageForm is a page URL's normal form under the always-on rules and the
// length of its prefix that is its normalize.ScopeKey (0: unknown), as
// normalize's URLScope gives them; the zero pageForm when not computed.
type pageForm struct {
	key   string
	scope int
}

// plainPage returns plainURL(s) for a page's loc, and the loc's pageForm,
// which checkURLLen needs too: a loc that normalize's one scan finds in
// normal form (its scope known) is plain unless it holds an '@' or names
// a port (plainNormal), without plainURL's scan.
func plainPage(s string) (bool, pageForm) {
	key, scope := zeroRules.URLScope(s)
	form := pageForm{key, scope}
	if scope > 0 && plainNormal(s) {
		return true, form
	}
	return plainURL(s), form
}

// plainNormal reports whether s, which normalize's scan of normal forms
// passed (an http or https scheme in lower case, a host of letters,
// digits, '-', '.' and '_' with maybe a port, then only characters a URI
// may hold as they are and escapes, no '#'), is plain (plainURL): what
// plainURL refuses beyond that is an '@' anywhere and a port
// (FuzzNormalIsPlain).
func plainNormal(s string) bool {
	if strings.IndexByte(s, '@') >= 0 {
		return false
	}
	rest, _ := cutSchemeHTTP(s)
	end := strings.IndexByte(rest, '/') // a normal form has a path
	return end >= 0 && strings.IndexByte(rest[:end], ':') < 0
}

// checkURLLen is checkURL for a value that may have been cut: runes, when
// more than the value holds, is its full length in characters. plain is
// plainURL(raw), and form raw's pageForm when use is usePage and it was
// computed.
func (d *doc) checkURLLen(raw string, plain bool, form pageForm, runes, line, col int, what string, use urlUse, tloc locSchema) (string, bool) {
	// Most URLs are plain: the checks of the characters and the syntax,
	// which find nothing in them, are then skipped.
	s := raw
	if !plain {
		s = collapse(raw)
	}
	if s == "" {
		d.reportAt(ruleLocMissing, line, col, "%s is empty", what)
		return s, false
	}
	msg := ""
	if !plain {
		msg = uriSyntax(s)
	}
	if msg != "" {
		d.reportAt(ruleLocSyntax, line, col, "%s %s is not a valid URI: %s", what, clip(s), msg)
	}
	n := max(runes, len(s)) // stands for the count where it decides nothing
	if len(s) < 4*12 || len(s) > formats.MaxLocLength {
		// Only then can the count of characters be under 12 or over
		// the limit (a character is 1 to 4 bytes).
		n = max(utf8.RuneCountInString(s), runes)
	}
	if tloc && n < 12 {
		d.reportAt(ruleLocTooShort, line, col, "%s %s has %d characters; the schema requires at least 12", what, clip(s), n)
	}
	if n > formats.MaxLocLength && (tloc || use == usePage) {
		d.reportAt(ruleLocTooLong, line, col, "%s has %d characters, more than %d", what, n, formats.MaxLocLength)
	}
	if !plain && !absoluteHTTP(s) {
		d.reportAt(ruleLocNotAbsolute, line, col, "%s %s is not an absolute http or https URL", what, clip(s))
		return s, false
	}
	c, bad := "", false
	if !plain {
		c, bad = badURIChar(s)
	}
	if bad {
		if _, err := formats.ParseLoc(s, nil); errors.Is(err, formats.ErrLocSpace) {
			d.reportAt(ruleLocEscaping, line, col, "%s %q holds several URLs run together (%q separates them): readers skip it", what, clip(s), c)
		} else {
			d.reportAt(ruleLocEscaping, line, col, "%s %s holds %q, which must be percent-encoded", what, clip(s), c)
		}
	}
	port, hasPort := "", false
	if !plain {
		port, hasPort = urlPort(s)
	}
	if hasPort {
		if _, usable := uri.ParsePort(port); !usable {
			d.reportAt(ruleLocNotAbsolute, line, col, "%s %s names port %q: the port of an http(s) URL is a number from 1 to %d",
				what, clip(s), port, uri.MaxPort)
		}
	}
	if use == usePage || use == useChild {
		d.checkScope(s, line, col, what, use)
	}
	// A page's normal form, which duplicate-url and url-twins compare, and
	// the length of its prefix that is its normalize.ScopeKey (0: unknown),
	// which a strict conversion's Rewrite takes (xmlEvents.NormalForm).
	key, scope := "", 0
	if use == usePage {
		if form.key == "" || s != raw {
			form.key, form.scope = zeroRules.URLScope(s)
		}
		key, scope = form.key, form.scope
	}
	// A URL in normal form is tidy (Safe removes only what Key does), so
	// that most need no second normalization.
	if (use == usePage || use == useChild) && key != s {
		if tidy := normalize.Safe(s); tidy != s {
			d.reportAt(ruleLocUntidy, line, col, "%s %s: write %s (a fragment, the default port, dot segments and an empty query do not change the page)",
				what, clip(s), clip(tidy))
		}
	}
	if use == usePage {
		if sessionID(s) {
			d.reportAt(ruleSessionID, line, col, "%s %s holds a session id", what, clip(s))
		}
		d.checkSeen(s, key, scope, line, col, what)
	}
	return s, true
}

// plainURL reports, in one scan, whether s is an absolute http(s) URL that
// the checks of characters and syntax find nothing wrong with: no white
// space (collapse keeps it as it is), only ASCII characters a URI may hold
// (badURIChar), no fragment, brackets, user information or port, every %
// an escape (uri.AnyURIProblem), and a host (absoluteHTTP). False says
// nothing: the checks tell.
func plainURL(s string) bool {
	rest, ok := cutSchemeHTTP(s)
	if !ok {
		return false
	}
	// The authority: a host, and no port or user information.
	i := 0
	for ; i < len(rest); i++ {
		switch uriClass[rest[i]] {
		case uriPlain:
			continue
		case uriEnd:
		case uriBad:
			return false
		default: // ':' or '%'
			if rest[i] == ':' || !escapeAt(rest, i) {
				return false
			}
			continue
		}
		break
	}
	if i == 0 {
		return false // no host
	}
	// The path and the query.
	for ; i < len(rest); i++ {
		switch uriClass[rest[i]] {
		case uriPlain, uriEnd:
		case uriBad:
			return false
		default:
			if rest[i] == '%' && !escapeAt(rest, i) {
				return false
			}
		}
	}
	return true
}

// escapeAt reports whether s[i], a '%', starts an escape: two hex digits
// follow it.
func escapeAt(s string, i int) bool {
	return i+2 < len(s) && uri.IsHex(s[i+1]) && uri.IsHex(s[i+2])
}

// The classes of bytes plainURL tells apart.
const (
	uriPlain = iota // a character of a URI with no meaning to plainURL
	uriEnd          // '/' or '?': the authority ends
	uriBad          // what makes a URL not plain: notInURI, non-ASCII, '#', '[', ']', '@'
	uriOther        // ':' and '%'
)

// uriClass is the class of each byte for plainURL.
var uriClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= utf8.RuneSelf || notInURI[c] || strings.IndexByte("#[]@", byte(c)) >= 0:
			t[c] = uriBad
		case c == '/' || c == '?':
			t[c] = uriEnd
		case c == ':' || c == '%':
			t[c] = uriOther
		}
	}
	return
}()

// collapse applies the schema's whitespace collapsing: surrounding space
// removed, inner runs of space replaced by one space.
func collapse(s string) string {
	if collapsed(s) {
		return s
	}
	s = strings.Trim(s, " \t\r\n")
	if !strings.ContainsAny(s, "\t\r\n") && !strings.Contains(s, "  ") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' }), " ")
}

// collapsed reports whether collapse would return s as it is: no space
// around it, no tab or line break, no run of spaces (the common case,
// told in one scan).
func collapsed(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' && (c == '\t' || c == '\r' || c == '\n' || c == ' ' && s[i+1] == ' ') {
			return false
		}
	}
	return true
}

// clip shortens a value for a message.
func clip(s string) string {
	if len(s) <= 120 {
		return s
	}
	cut := 100
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// absoluteHTTP reports whether s is an absolute http or https URL with a
// host.
func absoluteHTTP(s string) bool {
	host, ok := authority(s)
	if !ok {
		return false
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	return host != ""
}

// cutSchemeHTTP returns what follows "http://" or "https://" (in any
// case).
func cutSchemeHTTP(s string) (string, bool) {
	// Most are written in lower case.
	if rest, ok := strings.CutPrefix(s, "https://"); ok {
		return rest, true
	}
	if rest, ok := strings.CutPrefix(s, "http://"); ok {
		return rest, true
	}
	for _, p := range []string{"http://", "https://"} {
		if len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) {
			return s[len(p):], true
		}
	}
	return "", false
}

// authority returns the host and port of an absolute http(s) URL: what
// follows the scheme, up to the path, without the user information.
func authority(s string) (string, bool) {
	rest, ok := cutSchemeHTTP(s)
	if !ok {
		return "", false
	}
	for end := 0; end < len(rest); end++ {
		if c := rest[end]; c == '/' || c == '?' || c == '#' {
			rest = rest[:end]
			break
		}
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	return rest, true
}

// hasUserinfo reports whether the absolute http(s) URL s has user
// information before its host.
func hasUserinfo(s string) bool {
	rest, _ := cutSchemeHTTP(s)
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '/', '?', '#':
			return false
		case '@':
			return true
		}
	}
	return false
}

// notInURI marks the ASCII characters a URI may not hold: controls,
// space, DEL and "<>\\^`{|}.
var notInURI = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c <= ' ' || c == 0x7F || strings.ContainsRune("\"<>\\^`{|}", rune(c))
	}
	return
}()

// badURIChar returns the first character of s a URI may not hold: one of
// notInURI, or any character outside ASCII.
func badURIChar(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, _ := utf8.DecodeRuneInString(s[i:])
			return string(r), true
		}
		if notInURI[c] {
			return s[i : i+1], true
		}
	}
	return "", false
}

// uriSyntax returns what makes s an invalid URI reference for the schema's
// anyURI, or "": uri.AnyURIProblem, the check the XML reader applies
// to what it keeps verbatim.
func uriSyntax(s string) string { return uri.AnyURIProblem(s) }

// urlPort returns the port of an absolute http(s) URL, and false when it
// names none.
func urlPort(s string) (string, bool) {
	rest, ok := authority(s)
	if !ok {
		return "", false
	}
	if strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", false
		}
		rest = rest[end+1:]
	}
	i := strings.IndexByte(rest, ':')
	if i < 0 {
		return "", false
	}
	return rest[i+1:], true
}

// noParam is a parameter name no URL holds once normalized (a control
// character is always percent-encoded), so that stripping it changes only
// what any stripping option changes: empty parameters.
var (
	zeroRules       *normalize.Options // the always-on rules alone: normalize.Key
	withoutSessions = &normalize.Options{StripSessionIDs: true}
	sameCleanup     = &normalize.Options{StripParams: []string{"\x00"}}
)

// sessionID reports whether the URL holds a session id, as a query or a
// path parameter: stripping session ids changes it more than the clean-up
// every stripping option makes.
func sessionID(s string) bool {
	i := strings.IndexByte(s, '?')
	if i < 0 {
		i = len(s)
	}
	if j := strings.IndexByte(s[:i], ';'); j >= 0 {
		i = j
	}
	if i == len(s) {
		return false // no path or query parameter to strip
	}
	if !mayNameSession(s[i:]) {
		return false
	}
	return withoutSessions.URL(s) != sameCleanup.URL(s)
}

// sessionWords are words one of which every session id name normalize
// strips holds (jsessionid, phpsessid, aspsessionid*, asp.net_sessionid,
// sid, sessionid, session_id, sessid, cfid, cftoken, oscsid, zenid),
// in lower case.
var sessionWords = []string{"sid", "session", "cfid", "cftoken", "zenid"}

// mayNameSession reports whether the parameters params could name a
// session id: they hold one of sessionWords in any case, or an escape
// (which normalizing may decode into one). When it says false,
// stripping session ids changes nothing, so sessionID need not
// normalize the URL twice to tell.
func mayNameSession(params string) bool {
	for i := 0; i < len(params); i++ {
		if !sessionStart[params[i]] {
			continue
		}
		if params[i] == '%' {
			return true
		}
		for _, w := range sessionWords {
			if w[0] == params[i]|0x20 && foldedPrefix(params[i:], w) {
				return true
			}
		}
	}
	return false
}

// sessionStart marks the bytes mayNameSession looks at: '%', and the
// first letters of sessionWords in either case.
var sessionStart = func() (t [256]bool) {
	t['%'] = true
	for _, w := range sessionWords {
		t[w[0]], t[w[0]&^0x20] = true, true
	}
	return
}()

// foldedPrefix reports whether s starts with w, a word of lower-case
// ASCII letters, in any case: as strings.EqualFold(s[:len(w)], w) says,
// a byte at a time (only the letter itself, or its upper case, sets
// the 0x20 bit to make it; a byte of a longer character holds none).
func foldedPrefix(s, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if s[j]|0x20 != w[j] {
			return false
		}
	}
	return true
}

// checkScope applies the host and directory rules, to both URLs in the
// form normalize.ScopeKey gives: no spelling of a URL ("/blog/../admin",
// "%2e%2e", "..;", an escaped backslash) escapes the directory, and the same
// origin spelled otherwise (":443", a trailing dot) is not another.
func (d *doc) checkScope(s string, line, col int, what string, use urlUse) {
	if d.scope == nil {
		return
	}
	key := normalize.ScopeKey(s)
	dir := normalize.ScopeKey(d.scope.String())
	origin := dir
	if rest, ok := cutSchemeHTTP(dir); ok {
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			origin = dir[:len(dir)-len(rest)+i+1]
		}
	}
	if !strings.HasPrefix(key, origin) {
		d.reportAt(ruleLocOtherHost, line, col, "%s %s is not on %s, where the sitemap is served", what, clip(s), strings.TrimSuffix(origin, "/"))
		return
	}
	if use == usePage && !strings.HasPrefix(key, dir) {
		d.reportAt(ruleLocOutsideDirectory, line, col, "%s %s is outside %s, the sitemap's directory", what, clip(s), dir)
	}
}
