package normalize

import "strings"

// Safe returns loc with only the rules that never change the page a URL
// names applied: the fragment removed (rule 2), an empty or default port
// removed (rule 5: 80 for http, 443 for https, with leading zeros), dot
// segments removed from the path (rule 10, literal "." and ".." only), and
// an empty query removed with its '?'. Everything else (the case of the
// scheme and host, escapes, the query's parameters) stays as written; that
// is Options.URL's work. A loc that needs none of them is returned as it
// is, without allocating. A string that is not an absolute http or https
// URL is returned unchanged.
func Safe(loc string) string {
	n, https := schemeLen(loc)
	if n == 0 {
		return loc
	}
	s := loc
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	rest := s[n:]
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	auth, path, query := rest[:end], rest[end:], ""
	if q := strings.IndexByte(path, '?'); q >= 0 {
		path, query = path[:q], path[q:]
	}
	if query == "?" {
		query = ""
	}
	userinfo, hostport := "", auth
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		userinfo, hostport = auth[:at+1], auth[at+1:]
	}
	if host, port, hasPort := splitHostPort(hostport); hasPort && cleanPort(port, https) == "" {
		hostport = host
	}
	if hasDotSegment(path) {
		path = string(removeDotSegments([]byte(path)))
	}
	if len(s[:n])+len(userinfo)+len(hostport)+len(path)+len(query) == len(loc) {
		return loc // nothing removed: the same string
	}
	return s[:n] + userinfo + hostport + path + query
}

// hasDotSegment reports whether path, empty or starting with '/', holds a
// "." or ".." segment.
func hasDotSegment(path string) bool {
	for {
		i := strings.Index(path, "/.")
		if i < 0 {
			return false
		}
		path = path[i+1:]
		seg := path
		if j := strings.IndexByte(seg, '/'); j >= 0 {
			seg = seg[:j]
		}
		if isDotSegment(seg) {
			return true
		}
	}
}
