// Package sniff tells what an input is by how it starts: empty, text
// (and its first line), XML (and its root element), JSON (and whether it
// is a JSON Feed), HTML or binary data. The formats' detectors
// (formats.Format.Detect) decide on what it finds, and formats.Open and
// validate say with it what an input they cannot read looked like.
package sniff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Len is how many bytes of an input formats.Open looks at to recognize
// it: the prefix the detectors are given.
const Len = 16 << 10

// Content is the broad kind of an input, as sniffing sees it.
type Content uint8

// The kinds of content Of tells apart.
const (
	Empty Content = iota
	Text
	XML
	JSON
	HTML
	Binary
)

// Result is what Of found at the start of an input. The formats'
// detectors decide on it.
type Result struct {
	// Content is the broad kind of the input.
	Content Content
	// Root is the local name of the root element of XML content (without
	// any prefix), or "" when the prefix held none.
	Root string
	// RootName is the root element's name as written, prefix included.
	RootName string
	// JSONFeedVersion is the "version" of JSON content that is a JSON
	// Feed: a jsonfeed.org version URL, or a bare version number ("1",
	// "1.1", as some generators write it) in an object that has "items".
	JSONFeedVersion string
	// FirstLine is the first line of text content that is neither blank
	// nor a '#' comment, with surrounding space trimmed.
	FirstLine string
	// Junk is the number of bytes of non-XML text (a stray PHP warning, for
	// instance) before an XML declaration; formats.Open drops them.
	Junk int
}

// String describes the content for an error message, as in "not a sitemap
// or feed (looks like HTML)".
func (s *Result) String() string {
	switch s.Content {
	case Empty:
		return "empty"
	case HTML:
		return "looks like HTML"
	case Binary:
		return "binary data"
	case JSON:
		return "JSON that is not a JSON Feed: no jsonfeed.org \"version\""
	case XML:
		if s.RootName == "" {
			return "XML with no root element"
		}
		return fmt.Sprintf("XML with root element <%s>", s.RootName)
	}
	line := s.FirstLine
	if len(line) > 60 {
		line = line[:57] + "..."
	}
	return fmt.Sprintf("text whose first line is not a URL: %q", line)
}

// Of looks at the start of an input, already decoded to UTF-8, and tells
// what kind of content it is. Like image.Decode and gofeed's detector, it
// decides by what the input starts with (after a byte order mark and white
// space), never by something found further on: a URL list whose comment
// mentions <?xml, or whose later lines hold XML, stays a URL list, and an
// RSS feed quoting an XML document in its first item stays a feed.
//
// For XML it skips the XML declaration and other processing instructions,
// comments and a DOCTYPE to find the root element. Text before an XML
// declaration (reported as Junk) is passed over only when it is made of
// comments, or starts as a PHP diagnostic does ("Warning: …", or
// "<br />\n<b>Warning</b>: …"): the stray output of a broken generator. A
// JSON Feed is recognized by the "version" (and "items") of the top-level
// object. Text is sorted out by its first line that is neither blank nor a
// '#' comment, lines ending with LF, CRLF or CR; it is binary when its
// first binaryLen bytes hold a NUL.
func Of(prefix []byte) Result {
	p := bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf"))
	rest := bytes.TrimLeft(p, " \t\r\n\f")
	if len(rest) == 0 {
		return Result{Content: Empty}
	}
	i := commentsBeforeDeclaration(rest)
	if i == 0 && phpDiagnostic.Match(rest) {
		i = max(xmlDeclaration(rest), 0)
	}
	if i > 0 {
		s := sniffXML(rest[i:])
		s.Junk = len(prefix) - len(rest) + i
		return s
	}
	switch rest[0] {
	case '<':
		return sniffXML(rest)
	case '{', '[':
		return sniffJSON(rest)
	}
	if bytes.IndexByte(p[:min(len(p), binaryLen)], 0) >= 0 {
		return Result{Content: Binary}
	}
	s := Result{Content: Text, FirstLine: firstLine(p)}
	if s.FirstLine == "" {
		s.Content = Empty
	}
	return s
}

// binaryLen is how many bytes at the start of text Of looks at for a
// NUL, which makes it binary data (as net/http.DetectContentType does): a
// NUL further on is a damaged line of a text file, not a binary file.
const binaryLen = 512

// phpDiagnostic matches the start of what PHP prints when a script warns
// or fails before writing its document: as plain text ("Warning: x in
// y.php on line 3", "PHP Notice:  …") or as HTML ("<br />\n<b>Warning</b>:
// …").
var phpDiagnostic = regexp.MustCompile(`^(?:<br\s*/?>\s*)*(?:<b>)?(?:PHP )?(?:Warning|Notice|Deprecated|Strict Standards|(?:Catchable |Recoverable )?[Ff]atal error|Parse error)(?:</b>)?:`)

// commentsBeforeDeclaration returns where an XML declaration starts in p
// when only comments and white space come before it (markup that may not
// precede the declaration, but that a generator's template leaves there);
// else 0.
func commentsBeforeDeclaration(p []byte) int {
	off := 0
	for bytes.HasPrefix(p[off:], []byte("<!--")) {
		end := bytes.Index(p[off+4:], []byte("-->"))
		if end < 0 {
			return 0
		}
		off += 4 + end + 3
		off = len(p) - len(bytes.TrimLeft(p[off:], " \t\r\n\f"))
	}
	if off > 0 && xmlDeclaration(p[off:]) == 0 {
		return off
	}
	return 0
}

// firstLine returns the first line of p that is neither blank nor a '#'
// comment, trimmed, or "". Lines end with LF, CRLF or CR.
func firstLine(p []byte) string {
	for len(p) > 0 {
		line := p
		if i := bytes.IndexAny(p, "\r\n"); i >= 0 {
			line, p = p[:i], p[i+1:]
		} else {
			p = nil
		}
		if l := strings.TrimSpace(string(line)); l != "" && l[0] != '#' {
			return l
		}
	}
	return ""
}

// sniffJSON reads the top-level object of JSON content as far as the prefix
// goes, for a JSON Feed's "version" and "items". Members of nested values
// do not count: a JSON document that lists feeds is not a feed.
func sniffJSON(p []byte) Result {
	s := Result{Content: JSON}
	dec := json.NewDecoder(bytes.NewReader(p))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return s
	}
	var version string
	items := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		off := dec.InputOffset()
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			// The value goes on past the prefix.
			items = items || tok == "items" && bytes.HasPrefix(bytes.TrimLeft(p[off:], " \t\r\n:"), []byte("["))
			break
		}
		switch tok {
		case "version":
			json.Unmarshal(value, &version)
		case "items":
			items = len(value) > 0 && value[0] == '['
		}
	}
	switch {
	case jsonFeedVersion.MatchString(version):
		s.JSONFeedVersion = version
	case jsonBareVersion.MatchString(version) && items:
		s.JSONFeedVersion = version
	}
	return s
}

var (
	jsonFeedVersion = regexp.MustCompile(`^https?://jsonfeed\.org/version/`)
	jsonBareVersion = regexp.MustCompile(`^1(?:\.\d+)?$`)
)

// xmlDeclaration returns the index of the first XML declaration in p, or
// -1: "<?xml" followed by white space (not a processing instruction such
// as <?xml-stylesheet?>).
func xmlDeclaration(p []byte) int {
	off := 0
	for {
		i := bytes.Index(p[off:], []byte("<?xml"))
		if i < 0 {
			return -1
		}
		if j := off + i + 5; j < len(p) && (p[j] == ' ' || p[j] == '\t' || p[j] == '\r' || p[j] == '\n') {
			return off + i
		}
		off += i + 5
	}
}

// sniffXML finds the root element of XML content that starts with '<'.
func sniffXML(p []byte) Result {
	s := Result{Content: XML}
	for {
		p = bytes.TrimLeft(p, " \t\r\n\f")
		switch {
		case len(p) == 0:
			return s
		case bytes.HasPrefix(p, []byte("<?")):
			p = after(p, "?>")
		case bytes.HasPrefix(p, []byte("<!--")):
			p = after(p, "-->")
		case len(p) >= 9 && strings.EqualFold(string(p[:9]), "<!doctype"):
			name := bytes.TrimLeft(p[9:], " \t\r\n")
			if end := bytes.IndexAny(name, " \t\r\n[>"); end >= 0 && strings.EqualFold(string(name[:end]), "html") {
				s.Content = HTML
				return s
			}
			p = skipDoctype(p)
		case p[0] == '<':
			end := bytes.IndexAny(p[1:], " \t\r\n/>")
			if end < 0 {
				return s
			}
			s.RootName = string(p[1 : 1+end])
			s.Root = s.RootName[strings.IndexByte(s.RootName, ':')+1:]
			if strings.EqualFold(s.Root, "html") {
				s.Content = HTML
			}
			return s
		default:
			return s
		}
	}
}

// after returns what follows the first end in p, or nothing.
func after(p []byte, end string) []byte {
	if i := bytes.Index(p, []byte(end)); i >= 0 {
		return p[i+len(end):]
	}
	return nil
}

// skipDoctype returns what follows a DOCTYPE declaration, internal subset
// included.
func skipDoctype(p []byte) []byte {
	depth := 0
	var quote byte
	for i := 2; i < len(p); i++ {
		c := p[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '>' && depth <= 0:
			return p[i+1:]
		}
	}
	return nil
}
