package live

import (
	"io"
	"strings"

	"golang.org/x/net/html"
)

// htmlHead is what the head of an HTML page says to search engines.
type htmlHead struct {
	// noindex is the robots meta element that says noindex, as
	// `<meta name="robots" content="noindex">`; "" when none does.
	noindex string
	// canonical is the href of the first link rel="canonical", as
	// written; base the href of the base element.
	canonical, base string
}

// readHead reads r, an HTML page, up to the end of its head (the end tag
// of head, or the start of body or of an element of the body) or of r,
// with the tokenizer of golang.org/x/net/html.
func readHead(r io.Reader) *htmlHead {
	h := &htmlHead{}
	z := html.NewTokenizer(r)
	for {
		switch z.Next() {
		case html.ErrorToken:
			return h
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "head" {
				return h
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			attrs := map[string]string{}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if _, dup := attrs[string(k)]; !dup {
					attrs[string(k)] = string(v)
				}
			}
			switch string(name) {
			case "meta":
				if isEngine(attrs["name"]) && attrs["name"] != "" && noindexDirective(attrs["content"]) && h.noindex == "" {
					h.noindex = `<meta name="` + attrs["name"] + `" content="` + attrs["content"] + `">`
				}
			case "link":
				if hasToken(attrs["rel"], "canonical") && h.canonical == "" {
					h.canonical = strings.TrimSpace(attrs["href"])
				}
			case "base":
				if h.base == "" {
					h.base = strings.TrimSpace(attrs["href"])
				}
			case "html", "head", "title", "script", "style", "noscript", "template", "object":
			default:
				// An element of the body: the head has ended.
				return h
			}
		}
	}
}

// hasToken reports whether the space-separated list holds tok, ignoring
// ASCII case.
func hasToken(list, tok string) bool {
	for f := range strings.FieldsSeq(list) {
		if strings.EqualFold(f, tok) {
			return true
		}
	}
	return false
}
