package formats

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// SniffLen is how many bytes of an input Open looks at to recognize it.
const SniffLen = 16 << 10

// Content is the broad kind of an input, as sniffing sees it.
type Content uint8

// The kinds of content Sniff tells apart.
const (
	ContentEmpty Content = iota
	ContentText
	ContentXML
	ContentJSON
	ContentHTML
	ContentBinary
)

// Sniffed is what Sniff found at the start of an input. Formats' Detect
// functions decide on it.
type Sniffed struct {
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
	// instance) before an XML declaration; Open drops them.
	Junk int
}

// String describes the content for an error message, as in "not a sitemap
// or feed (looks like HTML)".
func (s *Sniffed) String() string {
	switch s.Content {
	case ContentEmpty:
		return "empty"
	case ContentHTML:
		return "looks like HTML"
	case ContentBinary:
		return "binary data"
	case ContentJSON:
		return "JSON that is not a JSON Feed: no jsonfeed.org \"version\""
	case ContentXML:
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

var (
	jsonFeedVersion = regexp.MustCompile(`"version"\s*:\s*"(https?:(?:\\?/){2}jsonfeed\.org(?:\\?/)version(?:\\?/)[^"]*)"`)
	jsonBareVersion = regexp.MustCompile(`"version"\s*:\s*"(1(?:\.\d+)?)"`)
	jsonItems       = regexp.MustCompile(`"items"\s*:\s*\[`)
)

// Sniff looks at the start of an input, already decoded to UTF-8, and tells
// what kind of content it is. For XML it skips a byte order mark,
// whitespace, the XML declaration and other processing instructions,
// comments and a DOCTYPE to find the root element.
func Sniff(prefix []byte) Sniffed {
	p := bytes.TrimPrefix(prefix, []byte("\xef\xbb\xbf"))
	rest := bytes.TrimLeft(p, " \t\r\n\f")
	if len(rest) == 0 {
		return Sniffed{Content: ContentEmpty}
	}
	switch rest[0] {
	case '<':
		if i := xmlDeclaration(rest); i > 0 && !bytes.HasPrefix(rest, []byte("<?xml")) {
			// Markup before the XML declaration, which may only come
			// first: a PHP warning in HTML, say.
			s := sniffXML(rest[i:])
			s.Junk = len(prefix) - len(rest) + i
			return s
		}
		return sniffXML(rest)
	case '{', '[':
		s := Sniffed{Content: ContentJSON}
		if m := jsonFeedVersion.FindSubmatch(rest); m != nil {
			s.JSONFeedVersion = strings.ReplaceAll(string(m[1]), `\/`, "/")
		} else if m := jsonBareVersion.FindSubmatch(rest); m != nil && jsonItems.Match(rest) {
			s.JSONFeedVersion = string(m[1])
		}
		return s
	}
	if bytes.IndexByte(p, 0) >= 0 {
		return Sniffed{Content: ContentBinary}
	}
	if i := xmlDeclaration(p); i > 0 {
		s := sniffXML(p[i:])
		s.Junk = len(prefix) - len(p) + i
		return s
	}
	s := Sniffed{Content: ContentText}
	for line := range bytes.Lines(p) {
		l := strings.TrimSpace(string(line))
		if l != "" && l[0] != '#' {
			s.FirstLine = l
			break
		}
	}
	if s.FirstLine == "" {
		s.Content = ContentEmpty
	}
	return s
}

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
func sniffXML(p []byte) Sniffed {
	s := Sniffed{Content: ContentXML}
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
				s.Content = ContentHTML
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
				s.Content = ContentHTML
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
