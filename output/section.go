package output

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// SectionFunc returns the key of the section a loc belongs to: entries
// with the same key are written to the same child sitemaps (see
// Options.SectionOf). "" is the root section, named RootSection.
type SectionFunc func(loc string) string

// RootSection is the name of the section of the key "": the pages at the
// top of the site, which are in no directory.
const RootSection = "root"

// maxSectionName is the longest a section's name may be in a file name,
// in bytes: longer names are cut.
const maxSectionName = 48

// ByPath returns the SectionFunc of the directories of a URL's path, up to
// depth of them: a page is in the section of its directory, so
// https://example.com/blog/ and https://example.com/blog/post are in
// "blog", and with depth 2, https://example.com/shop/shoes/red is in
// "shop/shoes" and https://example.com/shop/bag in "shop". The pages at
// the top (https://example.com/, /about, /index.html) are in the root
// section. Segments are percent-decoded; empty ones (//) are skipped.
func ByPath(depth int) SectionFunc {
	depth = max(depth, 1)
	return func(loc string) string {
		_, rest := splitHost(loc)
		if i := strings.IndexAny(rest, "?#"); i >= 0 {
			rest = rest[:i]
		}
		dir := rest[:strings.LastIndexByte(rest, '/')+1]
		// The first depth segments of dir, "/a/b/" to "a/b": a part of
		// the loc, unless one is empty or percent-encoded.
		start := strings.IndexFunc(dir, func(r rune) bool { return r != '/' })
		if start < 0 {
			return ""
		}
		end, next := start, start
		for n := 0; n < depth && next < len(dir); n++ {
			end = next + strings.IndexByte(dir[next:], '/')
			next = end + 1
		}
		if key := dir[start:end]; !strings.HasSuffix(key, "/") && !strings.Contains(key, "//") && !strings.Contains(key, "%") {
			return key
		}
		var segs []string
		for seg := range strings.SplitSeq(dir, "/") {
			if seg == "" {
				continue
			}
			if d, err := url.PathUnescape(seg); err == nil {
				seg = d
			}
			if segs = append(segs, seg); len(segs) == depth {
				break
			}
		}
		return strings.Join(segs, "/")
	}
}

// ByHost returns the SectionFunc of a URL's host (and port), lower-cased:
// one section per host, for a set that lists several hosts' pages (with
// cross-submission: each host's robots.txt names the index).
func ByHost() SectionFunc {
	return func(loc string) string {
		host, _ := splitHost(loc)
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		return strings.ToLower(host)
	}
}

// splitHost returns the authority of an absolute URL and what follows it
// (the path, query and fragment); a loc with no scheme is all path.
func splitHost(loc string) (host, rest string) {
	i := strings.Index(loc, "://")
	if i < 0 {
		return "", loc
	}
	host = loc[i+3:]
	j := strings.IndexAny(host, "/?#")
	if j < 0 {
		return host, ""
	}
	return host[:j], host[j:]
}

// SectionName returns the name a section's key is given in file names:
// lower-case, letters a to z, digits, '.', '_' and '-' kept, any run of
// other characters (a '/' between segments, spaces, letters beyond ASCII)
// one '-', no '-' or '.' at either end, at most 48 bytes; "root" for the
// key "", and "section" for a key with nothing left. Different keys may
// get the same name: a set makes them unique (see Options.SectionOf).
func SectionName(key string) string {
	if key == "" {
		return RootSection
	}
	b := make([]byte, 0, len(key))
	for _, r := range strings.ToLower(key) {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			r = '-'
		}
		if r == '-' && len(b) > 0 && b[len(b)-1] == '-' {
			continue
		}
		b = append(b, byte(r))
	}
	name := strings.Trim(string(b), "-.")
	if len(name) > maxSectionName {
		name = strings.TrimRight(name[:maxSectionName], "-.")
	}
	if name == "" {
		return "section"
	}
	return name
}

// nameSections gives each section a name of its own, deterministically:
// in the order of their keys, a section whose name (SectionName) is taken
// gets the first of name-2, name-3, ... that is free. It returns the
// sections in the order of their names, the order they are written in.
func nameSections(list []*section) []*section {
	slices.SortFunc(list, func(a, b *section) int { return cmp.Compare(a.key, b.key) })
	used := make(map[string]bool, len(list))
	for _, sec := range list {
		base := SectionName(sec.key)
		name := base
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		used[name] = true
		sec.name = name
	}
	slices.SortFunc(list, func(a, b *section) int { return cmp.Compare(a.name, b.name) })
	return list
}
