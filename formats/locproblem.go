package formats

import (
	"fmt"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// LocProblem returns what the protocol forbids in a URL as a document
// wrote it, or nil: a value AnyURIProblem refuses (a bad %, several #, [
// or ] outside the host), or a character that must be percent-encoded
// (space and control characters, non-ASCII characters, host included,
// and the delimiters RFC 3986 excludes). ParseLoc repairs both when
// reading; strict readers refuse such a URL, as validation does.
func LocProblem(s string) error {
	if p := uri.AnyURIProblem(s); p != "" {
		return fmt.Errorf("not a valid URI as written: %s: %q", p, clip(s))
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7F || strings.ContainsRune(uriExcluded, r) && r != '[' && r != ']' {
			return fmt.Errorf("%q must be percent-encoded (and a host written in punycode): %q", r, clip(s))
		}
	}
	return nil
}
