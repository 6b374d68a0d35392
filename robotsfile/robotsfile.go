// Package robotsfile writes the Sitemap: lines of a robots.txt file, and
// updates them in an existing file without touching anything else in it.
//
// A robots.txt Sitemap: line ("Sitemap: https://example.com/sitemap.xml")
// is the durable way to tell every search engine where a sitemap is; it
// stands outside the user-agent groups and may appear anywhere in the file.
//
// Update edits a file as bytes: the Sitemap: lines that belong to the
// sitemap set being declared are replaced by the new ones, and every other
// byte — comments, groups, other Sitemap: lines, line endings (LF, CRLF or
// CR), a byte order mark, a missing final newline — stays as it was. A
// Sitemap: line belongs to the set when its URL is one of the new URLs, or
// when it is in the same directory as one of them and its file name is one
// that output could have given a file of the same set: the same stem, with
// or without a part number and hash, the extension of a registered sitemap
// format (formats.Format.Sitemap: .xml or .txt) or of its index, gzipped or
// not (sitemap.xml, sitemap.xml.gz, sitemap-3-5b24b885.xml, ...). Lines of
// other sitemaps in the same directory, written by other tools, are left
// alone.
package robotsfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/robots"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// MaxSize is the largest robots.txt UpdateFile reads: far above what
// search engines read of one (Google reads 500 KiB).
const MaxSize = 8 << 20

// ErrTooLarge is returned by UpdateFile for a file over MaxSize.
var ErrTooLarge = errors.New("robotsfile: file larger than 8 MiB; not a robots.txt")

// ErrNotRobots is matched (with errors.Is) by the error of Check, and of
// UpdateFile, for content that is not a robots.txt file.
var ErrNotRobots = errors.New("robotsfile: not a robots.txt file")

// Check returns nil when src can be a robots.txt file, and otherwise an
// error matching ErrNotRobots that says why and where: content with NUL
// bytes or other control characters (binary, gzip), markup (an HTML or
// XML document, a sitemap: the first thing after a byte order mark and
// white space is "<", or a line starts with <?xml, <!DOCTYPE, <html,
// <urlset, ...), or lines none of which is a field ("name: value", as
// User-agent:, Disallow:, Sitemap:, or any other name; a URL is not one).
// Comments, blank lines, unknown fields and a few stray lines are fine, as
// in real robots.txt files; so is empty content.
func Check(src []byte) error {
	for i, c := range src {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
			return fmt.Errorf("%w: binary content (byte 0x%02x at offset %d)", reason.Of(ErrNotRobots), c, i)
		}
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")), " \t\r\n\f")
	if len(text) > 0 && text[0] == '<' {
		return fmt.Errorf("%w: it starts with markup (%.20q): an HTML or XML document", reason.Of(ErrNotRobots), text)
	}
	fields, other, first := 0, 0, 0
	for n, l := range splitLines(src) {
		line := bytes.TrimSpace(bytes.TrimPrefix(src[l.start:l.end], []byte("\xef\xbb\xbf")))
		switch {
		case len(line) == 0 || line[0] == '#':
			continue
		case markup.Match(line):
			return fmt.Errorf("%w: line %d is markup (%.20q): an HTML or XML document", reason.Of(ErrNotRobots), n+1, line)
		case field.Match(line):
			fields++
		default:
			if other++; first == 0 {
				first = n + 1
			}
		}
	}
	if fields == 0 && other > 0 {
		return fmt.Errorf("%w: no line is a robots.txt field (User-agent:, Disallow:, Sitemap:, ...); line %d is not one", reason.Of(ErrNotRobots), first)
	}
	return nil
}

// field matches a robots.txt field line: a name, a colon, and a value that
// does not start with "//" (which makes a URL, not a field).
var field = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*[ \t]*:(?:[^/]|/[^/]|/?$)`)

// markup matches a line that starts an HTML or XML document.
var markup = regexp.MustCompile(`(?i)^<(?:\?xml|!doctype|!--|html|head|body|urlset|sitemapindex|rss|feed|svg)\b`)

// Lines returns the Sitemap: lines that declare the sitemaps, in order, each
// ended by "\n". Each sitemap must be an absolute http or https URL as
// formats.ParseLoc returns it, without a fragment.
func Lines(sitemaps []string) ([]byte, error) {
	if err := check(sitemaps); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, s := range sitemaps {
		b.WriteString("Sitemap: ")
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// check returns an error when a sitemap URL cannot stand in a Sitemap:
// line.
func check(sitemaps []string) error {
	if len(sitemaps) == 0 {
		return errors.New("robotsfile: no sitemap to declare")
	}
	for _, s := range sitemaps {
		loc, err := formats.ParseLoc(s, nil)
		switch {
		case err != nil:
			return fmt.Errorf("robotsfile: sitemap URL %q: %w", s, err)
		case loc != s:
			return fmt.Errorf("robotsfile: sitemap URL %q is not in canonical form (%q)", s, loc)
		case strings.Contains(s, "#"):
			return fmt.Errorf("robotsfile: sitemap URL %q has a fragment, which robots.txt would read as a comment", s)
		}
	}
	return nil
}

// line is one line of a robots.txt file: its bytes without the line ending,
// and the ending ("\n", "\r\n", "\r", or "" for a last line without one).
type line struct {
	start, end int // of the text, in the file
	eol        string
}

// splitLines splits src into lines; a byte order mark stays in the first
// line's text.
func splitLines(src []byte) []line {
	var lines []line
	start := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			lines = append(lines, line{start, i, "\n"})
			start = i + 1
		case '\r':
			eol := "\r"
			if i+1 < len(src) && src[i+1] == '\n' {
				eol = "\r\n"
			}
			lines = append(lines, line{start, i, eol})
			i += len(eol) - 1
			start = i + 1
		}
	}
	if start < len(src) {
		lines = append(lines, line{start, len(src), ""})
	}
	return lines
}

// sitemapValue returns the value of a Sitemap: line (field name in any
// case, comment removed, trimmed), and false for any other line.
func sitemapValue(text []byte) (string, bool) {
	value, _, ok := robots.SitemapValue(bytes.TrimPrefix(text, []byte("\xef\xbb\xbf")))
	if !ok {
		return "", false
	}
	// The line as this file holds it may end in a carriage return or
	// other white space that the reader's lines never hold.
	return string(bytes.TrimSpace(value)), true
}

// family says which existing Sitemap: lines belong to the set being
// declared.
type family struct {
	keys  map[string]bool // normal forms of the new URLs
	dirs  map[string][]*regexp.Regexp
	robot *url.URL // where relative values resolve: the first URL's host
}

// sitemapExtensions returns the file name extensions of the files of a
// sitemap set, without their dots, as a regular expression alternation
// ("txt|xml"): those of the writable sitemap formats
// (formats.Format.Sitemap) and of the formats of their indexes.
func sitemapExtensions() string {
	var exts []string
	for _, f := range formats.Formats() {
		if !f.CanWrite() || !f.Sitemap {
			continue
		}
		all := f.Extensions
		if index, err := formats.Lookup(f.Index); err == nil {
			all = append(slices.Clip(all), index.Extensions...)
		}
		for _, ext := range all {
			exts = append(exts, regexp.QuoteMeta(strings.TrimPrefix(ext, ".")))
		}
	}
	slices.Sort(exts)
	return strings.Join(slices.Compact(exts), "|")
}

func newFamily(sitemaps []string) *family {
	f := &family{keys: map[string]bool{}, dirs: map[string][]*regexp.Regexp{}}
	exts := sitemapExtensions()
	// The names output gives files: STEM, or STEM-N-HASH, then a sitemap
	// extension, then .gz or not. Group 1 is the stem.
	partName := regexp.MustCompile(`(?i)^(.*?)(?:-[0-9]+-[0-9a-f]{8})?\.(?:` + exts + `)(?:\.gz)?$`)
	for _, s := range sitemaps {
		key := normalize.Key(s)
		f.keys[key] = true
		dir, name := splitURL(key)
		if f.robot == nil {
			f.robot, _ = url.Parse(dir)
			f.robot = f.robot.ResolveReference(&url.URL{Path: "/robots.txt"})
		}
		stem := name
		if m := partName.FindStringSubmatch(name); m != nil {
			stem = m[1]
		}
		re := regexp.MustCompile(`^(?i:` + regexp.QuoteMeta(stem) + `)(?:-[0-9]+-[0-9a-f]{8})?\.(?i:` + exts + `)(?i:\.gz)?$`)
		f.dirs[dir] = append(f.dirs[dir], re)
	}
	return f
}

// splitURL splits a URL in normal form, without query or fragment, into
// its directory (up to the last slash of the path) and file name.
func splitURL(loc string) (dir, name string) {
	u, err := url.Parse(loc)
	if err != nil || u.RawQuery != "" || u.Fragment != "" {
		return loc, ""
	}
	p := u.EscapedPath()
	i := strings.LastIndexByte(p, '/')
	dir = strings.TrimSuffix(loc, p[i+1:])
	name, err = url.PathUnescape(p[i+1:])
	if err != nil {
		return loc, ""
	}
	return dir, name
}

// belongs reports whether a Sitemap: line's value names a file of the set.
func (f *family) belongs(value string) bool {
	loc, err := formats.ParseLoc(value, f.robot)
	if err != nil {
		return false
	}
	key := normalize.Key(loc)
	if f.keys[key] {
		return true
	}
	dir, name := splitURL(key)
	for _, re := range f.dirs[dir] {
		if name != "" && re.MatchString(name) {
			return true
		}
	}
	return false
}

// Update returns the robots.txt src with the Sitemap: lines of the set
// replaced by lines for sitemaps (see the package documentation for which
// lines belong to the set). The new lines take the place of the first line
// replaced, with its line ending; the other lines replaced are removed with
// theirs. When no line belongs to the set, the new lines are appended,
// after a blank line unless the file ends with one, with the line ending
// the file uses most. When the lines of the set already declare exactly
// sitemaps, in order, src is returned as it is (so Update is idempotent),
// and changed is false.
func Update(src []byte, sitemaps []string) (out []byte, changed bool, err error) {
	if err := check(sitemaps); err != nil {
		return nil, false, err
	}
	f := newFamily(sitemaps)
	lines := splitLines(src)
	var matched []int
	same := true
	for i, l := range lines {
		v, ok := sitemapValue(src[l.start:l.end])
		if !ok || !f.belongs(v) {
			continue
		}
		if len(matched) >= len(sitemaps) || v != sitemaps[len(matched)] {
			same = false
		}
		matched = append(matched, i)
	}
	if same && len(matched) == len(sitemaps) {
		return src, false, nil
	}
	eol := commonEOL(lines)
	var b bytes.Buffer
	b.Grow(len(src) + 64*len(sitemaps))
	writeNew := func(last string) {
		for i, s := range sitemaps {
			b.WriteString("Sitemap: ")
			b.WriteString(s)
			if i < len(sitemaps)-1 {
				b.WriteString(eol)
			} else {
				b.WriteString(last)
			}
		}
	}
	if len(matched) == 0 {
		b.Write(src)
		if n := len(lines); n > 0 {
			last := lines[n-1]
			text := bytes.TrimPrefix(src[last.start:last.end], []byte("\xef\xbb\xbf"))
			if last.eol == "" && len(text) > 0 {
				b.WriteString(eol) // end the last line
			}
			if len(bytes.TrimSpace(text)) > 0 {
				b.WriteString(eol) // a blank line before the new ones
			}
		}
		writeNew(eol)
		return b.Bytes(), true, nil
	}
	next := 0 // the next byte of src to copy
	for k, i := range matched {
		l := lines[i]
		start := l.start
		if i == 0 && bytes.HasPrefix(src[l.start:l.end], []byte("\xef\xbb\xbf")) {
			start += 3 // keep the byte order mark
		}
		b.Write(src[next:start])
		next = l.end + len(l.eol)
		if k == 0 {
			writeNew(l.eol)
		}
	}
	b.Write(src[next:])
	out = b.Bytes()
	return out, !bytes.Equal(out, src), nil
}

// commonEOL returns the line ending the file uses most, "\n" when it has
// none.
func commonEOL(lines []line) string {
	counts := map[string]int{}
	for _, l := range lines {
		if l.eol != "" {
			counts[l.eol]++
		}
	}
	best := "\n"
	for _, eol := range []string{"\r\n", "\r"} {
		if counts[eol] > counts[best] {
			best = eol
		}
	}
	return best
}

// UpdateFile updates the Sitemap: lines of the robots.txt file at path as
// Update does, and replaces the file atomically, keeping its permissions,
// when its content changed: through a symbolic link, as
// internal/atomicfile writes. A file that does not exist is created with
// the lines alone. A file that is not a robots.txt (Check), or that is not
// a file at all (a directory, a FIFO, a device), is refused and left as it
// was. It reports whether the file changed.
func UpdateFile(path string, sitemaps []string) (changed bool, err error) {
	if _, err := atomicfile.Target(path); err != nil {
		return false, err
	}
	src, err := readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		src, err = nil, nil
	}
	if err != nil {
		return false, err
	}
	if err := Check(src); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	out, changed, err := Update(src, sitemaps)
	if err != nil || !changed {
		return false, err
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return false, err
	}
	return true, nil
}

// readFile reads a file of at most MaxSize bytes.
func readFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
	}
	return b, nil
}
