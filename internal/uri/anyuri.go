package uri

import (
	"fmt"
	"strings"
)

// AnyURIProblem returns what makes s (its white space collapsed as the
// schema does) an invalid value of the sitemap schemas' xs:anyURI, as
// libxml2 (xmllint) checks it, or "" when it is valid. libxml2 first
// replaces the characters a URI may not hold by '_' (so they do not count
// here), then parses RFC 3986's grammar: every % starts an escape (but
// inside a bracketed host, which it does not look into); one # at most;
// '[' and ']' only around the host and in the fragment; a host of name
// characters followed by nothing, a port or the path; a port of at least
// one digit and at most 2,147,483,647 (an int). What ParseLoc returns
// always passes.
func AnyURIProblem(s string) string {
	if plainHTTP(s) {
		return ""
	}
	return anyURIProblem(s)
}

// anyURIProblem is AnyURIProblem without its fast path.
func anyURIProblem(s string) string {
	body, frag, hasFrag := strings.Cut(s, "#")
	if hasFrag && strings.IndexByte(frag, '#') >= 0 {
		return "more than one #"
	}
	rest := body
	if i := strings.IndexAny(body, ":/?"); i >= 0 && body[i] == ':' {
		if !ValidScheme(body[:i]) {
			return "a bad scheme before ':'"
		}
		rest = body[i+1:]
	}
	if strings.HasPrefix(rest, "//") {
		auth := rest[2:]
		end := strings.IndexAny(auth, "/?")
		if end < 0 {
			end = len(auth)
		}
		auth, rest = auth[:end], auth[end:]
		if msg := authoritySyntax(auth); msg != "" {
			return msg
		}
	}
	if badPercent(rest) || badPercent(frag) {
		return "a % not followed by two hex digits (write %25)"
	}
	if strings.ContainsAny(rest, "[]") {
		return "a [ or ] outside the host (write %5B and %5D)"
	}
	return ""
}

// plainHTTP reports, in one scan, whether s is an http or https URL of the
// form most are, which AnyURIProblem finds nothing wrong with: no
// fragment, user information or brackets, no port, every % an escape.
// False says nothing (AnyURIProblem's full check tells).
func plainHTTP(s string) bool {
	var rest string
	switch {
	case len(s) > len("https://") && strings.EqualFold(s[:len("https://")], "https://"):
		rest = s[len("https://"):]
	case len(s) > len("http://") && strings.EqualFold(s[:len("http://")], "http://"):
		rest = s[len("http://"):]
	default:
		return false
	}
	inAuthority := true
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '/', '?':
			inAuthority = false
		case '#', '[', ']', '@':
			return false
		case ':':
			if inAuthority {
				return false
			}
		case '%':
			if i+2 >= len(rest) || !IsHex(rest[i+1]) || !IsHex(rest[i+2]) {
				return false
			}
		}
	}
	return true
}

// maxSchemaPort is the highest port libxml2 parses (a C int).
const maxSchemaPort = 1<<31 - 1

// authoritySyntax is AnyURIProblem for the authority: userinfo, host, port.
func authoritySyntax(auth string) string {
	if strings.Count(auth, "@") > 1 {
		return "more than one @ in the host part"
	}
	if at := strings.IndexByte(auth, '@'); at >= 0 {
		if strings.ContainsAny(auth[:at], "[]") || badPercent(auth[:at]) {
			return "a [, ] or bad % in the user information"
		}
		auth = auth[at+1:]
	}
	port, hasPort := "", false
	if strings.HasPrefix(auth, "[") {
		end := strings.IndexByte(auth, ']')
		if end < 0 {
			return "an unclosed [ in the host"
		}
		after := auth[end+1:]
		if after != "" && !strings.HasPrefix(after, ":") {
			return "text after the ] of the host"
		}
		port, hasPort = strings.CutPrefix(after, ":")
	} else {
		var host string
		host, port, hasPort = strings.Cut(auth, ":")
		if strings.ContainsAny(host, "[]") {
			return "a [ or ] in the host"
		}
		if badPercent(host) {
			return "a % not followed by two hex digits (write %25)"
		}
	}
	if !hasPort {
		return ""
	}
	if port == "" {
		return "an empty port after ':'"
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if port[i] < '0' || port[i] > '9' {
			return "a port that is not a number"
		}
		if n = n*10 + int(port[i]-'0'); n > maxSchemaPort {
			return fmt.Sprintf("a port above %d", maxSchemaPort)
		}
	}
	return ""
}

// badPercent reports whether s holds a '%' that does not start an escape.
func badPercent(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !IsHex(s[i+1]) || !IsHex(s[i+2])) {
			return true
		}
	}
	return false
}

// ValidScheme reports whether s is a URI scheme: a letter, then
// letters, digits, '+', '-' and '.'.
func ValidScheme(s string) bool {
	if s == "" || !('a' <= s[0]|32 && s[0]|32 <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !('a' <= c|32 && c|32 <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}
