package html

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// MaxTokenBytes is the longest token (a tag with its attributes, a
// script's text) a page may hold: a page with a longer one is read up to
// it. The head of a real page is a few kilobytes; an inline script in it
// rarely over a hundred.
const MaxTokenBytes = 4 << 20

// errTokenTooLong is the warning about a page read up to a token longer
// than MaxTokenBytes.
var errTokenTooLong = errors.New("a tag or script longer than 4 MiB: the page was read up to it")

// The meta dates a page may give, in the order of preference: when it was
// modified, then when it was published.
const (
	dateArticleModified  = iota // <meta property="article:modified_time">
	dateOGUpdated               // <meta property="og:updated_time">
	dateLDModified              // JSON-LD dateModified
	dateArticlePublished        // <meta property="article:published_time">
	dateLDPublished             // JSON-LD datePublished
	dateKinds
)

// dateNames name the meta dates in warnings.
var dateNames = [dateKinds]string{"article:modified_time", "og:updated_time", "JSON-LD dateModified",
	"article:published_time", "JSON-LD datePublished"}

// head is what a page says about itself in its <head>, and its images,
// as written (URLs unresolved, dates unparsed).
type head struct {
	noindex    bool
	canonical  string
	base       string // <base href>
	dates      [dateKinds]string
	alternates []rawAlternate
	images     []string // og:image, then <img src> in the body
}

// rawAlternate is a <link rel="alternate" hreflang> as written.
type rawAlternate struct{ hreflang, href string }

// parseHead reads a page with the HTML tokenizer, one token at a time, up
// to the end of its head, or, with images, to its end for the <img>
// elements of its body. What ends the head is what ends it for a browser:
// </head>, <body>, or an element that has no place in a head. A page cut
// short or that is not HTML gives what was read; a token longer than
// MaxTokenBytes gives what was read before it, with errTokenTooLong; a
// reading error of r gives what was read, with the error.
func parseHead(r io.Reader, images bool) (head, error) {
	var h head
	z := html.NewTokenizer(r)
	z.SetMaxBuf(MaxTokenBytes)
	inHead := true
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			err := z.Err()
			switch {
			case err == io.EOF:
				return h, nil
			case errors.Is(err, html.ErrBufferExceeded):
				return h, errTokenTooLong
			}
			return h, err
		case html.EndTagToken:
			if name, _ := z.TagName(); inHead && atom.Lookup(name) == atom.Head {
				inHead = false
				if !images {
					return h, nil
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			if inHead {
				switch a {
				case atom.Html, atom.Head, atom.Title, atom.Style, atom.Noscript, atom.Template:
					continue
				case atom.Meta, atom.Link, atom.Base:
					if hasAttr {
						h.headElement(a, attrs(z))
					}
					continue
				case atom.Script:
					if hasAttr && isJSONLD(attrs(z)["type"]) && z.Next() == html.TextToken {
						h.jsonLD(z.Text())
					}
					continue
				}
				inHead = false
				if !images {
					return h, nil
				}
			}
			if a == atom.Img && hasAttr {
				if src := strings.TrimSpace(attrs(z)["src"]); src != "" {
					h.images = append(h.images, src)
				}
			}
		}
	}
}

// attrs returns the attributes of the tag just read, the first of each
// name (the tokenizer lower-cases names and unescapes values).
func attrs(z *html.Tokenizer) map[string]string {
	m := map[string]string{}
	for {
		k, v, more := z.TagAttr()
		if _, dup := m[string(k)]; !dup {
			m[string(k)] = string(v)
		}
		if !more {
			return m
		}
	}
}

// headElement takes what a <meta>, <link> or <base> of the head says.
func (h *head) headElement(a atom.Atom, at map[string]string) {
	switch a {
	case atom.Base:
		if h.base == "" {
			h.base = strings.TrimSpace(at["href"])
		}
	case atom.Link:
		rels := strings.Fields(strings.ToLower(at["rel"]))
		href := strings.TrimSpace(at["href"])
		switch {
		case href == "":
		case slices.Contains(rels, "canonical"):
			if h.canonical == "" {
				h.canonical = href
			}
		case slices.Contains(rels, "alternate") && strings.TrimSpace(at["hreflang"]) != "":
			h.alternates = append(h.alternates, rawAlternate{hreflang: strings.TrimSpace(at["hreflang"]), href: href})
		}
	case atom.Meta:
		key := at["property"]
		if key == "" {
			key = at["name"]
		}
		content := strings.TrimSpace(at["content"])
		switch k := strings.ToLower(strings.TrimSpace(key)); k {
		case "robots", "googlebot":
			if noindex(content) {
				h.noindex = true
			}
		case "og:image", "og:image:url":
			if content != "" {
				h.images = append(h.images, content)
			}
		case "article:modified_time":
			h.setDate(dateArticleModified, content)
		case "og:updated_time":
			h.setDate(dateOGUpdated, content)
		case "article:published_time":
			h.setDate(dateArticlePublished, content)
		}
	}
}

// setDate keeps the first value of a kind of date.
func (h *head) setDate(kind int, v string) {
	if h.dates[kind] == "" {
		h.dates[kind] = v
	}
}

// noindex reports whether a robots meta's content asks not to index the
// page: noindex or none among its values, in any case and order,
// separated by commas or white space (a line break included).
func noindex(content string) bool {
	for _, v := range strings.FieldsFunc(strings.ToLower(content), func(r rune) bool { return r == ',' || r == ' ' || '\t' <= r && r <= '\r' }) {
		if v == "noindex" || v == "none" {
			return true
		}
	}
	return false
}

// isJSONLD reports whether a script's type is JSON-LD.
func isJSONLD(typ string) bool {
	mt, _, _ := strings.Cut(typ, ";")
	return strings.EqualFold(strings.TrimSpace(mt), "application/ld+json")
}

// jsonLD takes the dates of a JSON-LD script: dateModified and
// datePublished of its top-level object (or of each object of a
// top-level array), or of the objects of its @graph, the first found.
// Nested objects (an author, a comment) are about other things. A script
// that is not JSON is ignored, as search engines ignore it.
func (h *head) jsonLD(text []byte) {
	var v any
	if json.Unmarshal(bytes.TrimSpace(text), &v) != nil {
		return
	}
	var objects []map[string]any
	add := func(v any) {
		if o, ok := v.(map[string]any); ok {
			objects = append(objects, o)
			if g, ok := o["@graph"].([]any); ok {
				for _, x := range g {
					if o, ok := x.(map[string]any); ok {
						objects = append(objects, o)
					}
				}
			}
		}
	}
	if list, ok := v.([]any); ok {
		for _, x := range list {
			add(x)
		}
	} else {
		add(v)
	}
	for _, o := range objects {
		if s, ok := o["dateModified"].(string); ok {
			h.setDate(dateLDModified, s)
		}
		if s, ok := o["datePublished"].(string); ok {
			h.setDate(dateLDPublished, s)
		}
	}
}
