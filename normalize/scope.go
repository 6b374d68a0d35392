package normalize

import (
	"strings"
)

// ScopeKey returns the form of loc that a scope rule compares: the
// scheme, host, port and path a server may serve it as, so that no
// spelling of a URL passes for one under a directory it is not under, nor
// for another origin when it is the same. It is Key(loc) with the query
// and fragment removed, the trailing dot of the host removed
// ("example.com." is example.com), and, in the path, escapes of '%'
// decoded ("%252e" is "%2e", which some servers decode twice), a '\' or
// an escaped '\' or '/' taken as a '/' (as Windows servers and proxies
// do), path parameters (";x") removed from every segment (as Java servers
// do: "/..;/" is "/../"), then dot segments removed again ("/blog/../admin"
// and "/blog/%2E%2e/admin" are "/admin"). Default ports are removed by Key
// (https://example.com:443/ is https://example.com/).
//
// Use it on both sides: strings.HasPrefix(ScopeKey(loc), dir) where dir is
// the directory of ScopeKey(scope). A string that is not an http or https
// URL is returned unchanged.
func ScopeKey(loc string) string {
	k, scope := zeroOptions.URLScope(loc)
	if scope > 0 {
		return k[:scope] // the common case, found in one scan
	}
	return scopeKeyOf(k)
}

// scopeKeyOf returns the ScopeKey of k, a loc in its Key form.
func scopeKeyOf(k string) string {
	n, _ := schemeLen(k)
	if n == 0 {
		return k
	}
	rest := k[n:]
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	authority, path := rest[:end], rest[end:]
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	if at := strings.LastIndexByte(authority, '@'); at >= 0 {
		authority = authority[at+1:]
	}
	host, port, hasPort := splitHostPort(authority)
	if trimmed := strings.TrimRight(host, "."); trimmed != "" {
		host = trimmed
	}
	if hasPort {
		host += ":" + port
	}
	if host == authority && len(path) == len(rest)-end && !strings.ContainsAny(path, `%;\`) {
		return k // the common case: Key is the scope key
	}
	if path == "" {
		path = "/"
	}
	p := scopePath(path)
	return k[:n] + host + string(p)
}

// maxDecodings bounds how many times the escapes of '%' are decoded.
const maxDecodings = 3

// scopePath returns the path as ScopeKey describes.
func scopePath(path string) []byte {
	p := []byte(path)
	for range maxDecodings {
		q := decodePercent25(p)
		if len(q) == len(p) {
			break
		}
		p = appendNormalEscapes(nil, string(q))
	}
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		switch {
		case p[i] == '\\':
			out = append(out, '/')
		case p[i] == '%' && i+2 < len(p) && (p[i+1] == '5' && upper(p[i+2]) == 'C' || p[i+1] == '2' && upper(p[i+2]) == 'F'):
			out = append(out, '/')
			i += 2
		case p[i] == ';':
			for i+1 < len(p) && p[i+1] != '/' {
				i++
			}
		default:
			out = append(out, p[i])
		}
	}
	out = removeDotSegments(out)
	if len(out) == 0 {
		out = append(out, '/')
	}
	return out
}

// decodePercent25 returns p with each "%25" that is followed by two hex
// digits decoded to '%'.
func decodePercent25(p []byte) []byte {
	var out []byte
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+4 < len(p) && p[i+1] == '2' && p[i+2] == '5' && isHex(p[i+3]) && isHex(p[i+4]) {
			if out == nil {
				out = append(make([]byte, 0, len(p)), p[:i]...)
			}
			out = append(out, '%')
			i += 2
			continue
		}
		if out != nil {
			out = append(out, p[i])
		}
	}
	if out == nil {
		return p
	}
	return out
}
