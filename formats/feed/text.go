package feed

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// The longest texts the reader keeps, in characters.
const (
	// MaxTitle is the longest Entry.Title the reader keeps.
	MaxTitle = 256
	// MaxSummary is the longest Entry.Summary the reader keeps.
	MaxSummary = 2048
	// maxVideoTitle and maxVideoDescription are the protocol's limits
	// of video:title and video:description.
	maxVideoTitle       = 100
	maxVideoDescription = 2048
)

// text is a text of a feed, as the feed gives it: HTML (RSS descriptions,
// Atom text constructs) or plain text (the JSON Feed fields other than
// content_html).
type text struct {
	value string
	html  bool
}

// htmlText and plainText make a text.
func htmlText(s string) text  { return text{value: s, html: true} }
func plainText(s string) text { return text{value: s} }

// firstText returns the first of ts that is not empty once made plain, made
// plain and cut to max characters.
func firstText(max int, ts ...text) string {
	for _, t := range ts {
		if s := t.plain(max); s != "" {
			return s
		}
	}
	return ""
}

// plain returns t as plain text of at most max characters: markup removed
// and entities decoded when it is HTML, every run of white space (Unicode
// spaces and control characters included) made one space, trimmed, and cut
// at a word boundary when it is longer than max.
func (t text) plain(max int) string {
	s := t.value
	if t.html && strings.ContainsAny(s, "<&") {
		s = stripHTML(s)
	}
	return clip(collapse(s), max)
}

// blockTags are the HTML elements that separate words.
var blockTags = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "br": true, "dd": true, "div": true,
	"dl": true, "dt": true, "figcaption": true, "figure": true, "footer": true, "h1": true, "h2": true, "h3": true,
	"h4": true, "h5": true, "h6": true, "header": true, "hr": true, "img": true, "li": true, "ol": true, "p": true,
	"pre": true, "section": true, "table": true, "td": true, "th": true, "tr": true, "ul": true,
}

// stripHTML returns the text of an HTML fragment: tags and comments removed
// (block elements leave a space), entities decoded, the content of script,
// style and similar elements dropped.
func stripHTML(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	b.Grow(len(s))
	skip := 0 // depth inside elements whose content is not text
	for {
		switch tt := z.Next(); tt {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch tag {
			case "script", "style", "template", "noscript", "iframe", "object", "svg", "math":
				if tt == html.StartTagToken {
					skip++
				} else if tt == html.EndTagToken && skip > 0 {
					skip--
				}
			}
			if blockTags[tag] {
				b.WriteByte(' ')
			}
		}
	}
}

// collapse replaces every run of white space and control characters in s,
// and invalid UTF-8, by one space, and trims s.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, c := range s {
		if unicode.IsSpace(c) || unicode.IsControl(c) || c == utf8.RuneError || c == '\uFEFF' || c == 0xFFFE || c == 0xFFFF {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(c)
	}
	return b.String()
}

// clip cuts s, a collapsed text, to at most max characters: at the last
// space within the limit when there is one in its second half, else at the
// limit.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	end := 0
	for i := 0; i < max; i++ {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	cut := s[:end]
	if sp := strings.LastIndexByte(cut, ' '); sp > 0 && utf8.RuneCountInString(cut[:sp]) >= max/2 {
		cut = cut[:sp]
	}
	return strings.TrimRight(cut, " ")
}
