package convert

import (
	"strings"
)

// Key returns the identity of a loc for deduplication: the loc as the model
// holds it (scheme and host already lower-case, see formats.ParseLoc) with
// the default port and the fragment removed. Two entries with the same Key
// are the same page.
func Key(loc string) string {
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		loc = loc[:i]
	}
	rest, port := "", ""
	switch {
	case strings.HasPrefix(loc, "http://"):
		rest, port = loc[len("http://"):], ":80"
	case strings.HasPrefix(loc, "https://"):
		rest, port = loc[len("https://"):], ":443"
	default:
		return loc
	}
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	if strings.HasSuffix(rest[:end], port) {
		cut := len(loc) - len(rest) + end
		return loc[:cut-len(port)] + loc[cut:]
	}
	return loc
}
