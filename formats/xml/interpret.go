package xml

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// interpret puts the captured element n into r.ext when the model can
// hold it, and reports false when it cannot (it is then kept as foreign).
// A bad value drops its field, or its item, with a warning.
func (r *Reader) interpret(n *cnode) (bool, error) {
	if r.kind == formats.KindSitemap {
		return false, nil
	}
	x := r.ext
	switch n.t.name.Space + " " + n.t.name.Local {
	case ImageNamespace + " image":
		i := len(x.Images)
		x.Images = append(x.Images, formats.Image{})
		ok, err := r.fields(n, &extschema.Image.Field, ImageNamespace, unsafe.Pointer(&x.Images[i]))
		loc := x.Images[i].Loc
		if ok && err == nil && loc == "" {
			err = r.warnf(n.t.line, n.t.col, false, "<%s> without a usable <loc> ignored", n.qname())
		}
		if ok && loc != "" && i == formats.MaxImages {
			r.imagesCut++
		}
		if !ok || loc == "" || i == formats.MaxImages {
			x.Images = x.Images[:i]
		}
		return ok, err
	case VideoNamespace + " video":
		i := len(x.Videos)
		x.Videos = append(x.Videos, formats.Video{})
		ok, err := r.fields(n, &extschema.Video.Field, VideoNamespace, unsafe.Pointer(&x.Videos[i]))
		keep := ok
		if ok && err == nil {
			keep, err = r.judge(n, &extschema.Video.Field, unsafe.Pointer(&x.Videos[i]))
		}
		if !keep {
			x.Videos = x.Videos[:i]
		}
		return ok, err
	case NewsNamespace + " news":
		if x.News != nil {
			return false, nil
		}
		nw, ok, err := r.news(n)
		if ok && nw != nil && err == nil {
			if m := nw.Missing(); m != nil {
				return true, r.incomplete(n, m)
			}
		}
		if ok && nw != nil {
			x.News = nw
		}
		return ok, err
	case XHTMLNamespace + " link":
		a, ok, err := r.link(n)
		if ok && a.Href != "" {
			x.Alternates = append(x.Alternates, a)
		}
		return ok, err
	case MobileNamespace + " mobile":
		if x.Mobile || len(n.kids) > 0 || !n.onlySpace() {
			return false, nil
		}
		x.Mobile = true
		return true, nil
	}
	return false, nil
}

// incomplete drops the extension element n, which lacks the required
// fields m (formats.Video.Missing, say), with a warning: written without
// them, it would make the sitemap invalid.
func (r *Reader) incomplete(n *cnode, m []string) error {
	return r.warnf(n.t.line, n.t.col, false, "<%s> dropped: no %s (required)", n.qname(), strings.Join(m, ", no "))
}

// loc parses a URL-valued field, warning and returning "" when it is bad.
func (r *Reader) loc(k *cnode, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	loc, err := formats.ParseLoc(s, r.opts.Base)
	if err != nil {
		return "", r.warn(k.t.line, k.t.col, false, fmt.Errorf("<%s> ignored: %w", k.qname(), err))
	}
	return loc, nil
}

// checked returns s when it is empty or check accepts it, and else ""
// after a warning saying what it should be.
func (r *Reader) checked(k *cnode, s string, check func(string) bool, want string) (string, error) {
	if s == "" || check(s) {
		return s, nil
	}
	return "", r.notA(k, s, want)
}

// date parses a date-valued field, warning when it is bad. A date-time
// without a time zone keeps its date, as a lastmod does (valid for the
// schema, ambiguous for W3C Datetime: a note, not an error in strict
// mode), so that news data keeps its required publication_date.
func (r *Reader) date(k *cnode, s string) (formats.LastMod, error) {
	lm, err := formats.ParseLastMod(s)
	if err != nil {
		if d, ok := vocab.DateOfZoneless(s); ok {
			r.opts.Note(k.t.line, k.t.col, fmt.Errorf("<%s> %q has no time zone: kept as the date %s", k.qname(), clip([]byte(s)), d))
			return d, nil
		}
		return formats.LastMod{}, r.warn(k.t.line, k.t.col, false, fmt.Errorf("<%s> ignored: %w", k.qname(), err))
	}
	return lm, nil
}

// integer parses an integer field from lo to hi, warning when it is bad.
func (r *Reader) integer(k *cnode, s string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q is not a whole number from %d to %d", k.qname(), clip([]byte(s)), lo, hi)
	}
	return v, nil
}

// qname is the element's name as the document wrote it.
func (n *cnode) qname() string {
	if n.t.prefix == "" {
		return n.t.name.Local
	}
	return n.t.prefix + ":" + n.t.name.Local
}

func (r *Reader) news(n *cnode) (nw *formats.News, ok bool, err error) {
	nw = &formats.News{}
	ok, err = r.fields(n, &extschema.News.Field, NewsNamespace, unsafe.Pointer(nw))
	badDate := false // a publication_date was given, unusable
	for _, k := range n.kids {
		badDate = badDate || k.t.name.Local == "publication_date"
	}
	if ok && err == nil && badDate && nw.PublicationDate.IsZero() {
		// The schema requires the date: the news data without the one
		// the source gave would make the written sitemap invalid.
		return nil, true, r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> dropped: its publication_date is unusable", n.qname()))
	}
	if ok && err == nil && nw.PublicationLanguage != "" && !vocab.IsNewsLanguage(nw.PublicationLanguage) {
		if lang, mapped := vocab.NewsLanguage(nw.PublicationLanguage); mapped {
			// The meaning is clear (en-US is en): the code the schema
			// takes, said unless only the case changes (zh-TW is zh-tw).
			var werr error
			if !strings.EqualFold(uri.TrimSpace(nw.PublicationLanguage), lang) {
				werr = r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> language %q written as %q, the ISO 639 code the news schema takes",
					n.qname(), clip([]byte(nw.PublicationLanguage)), lang))
			}
			nw.PublicationLanguage = lang
			return nw, ok, werr
		}
		return nil, true, r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> dropped: its language %q is not an ISO 639 code (en, zh-cn, zh-tw)",
			n.qname(), clip([]byte(nw.PublicationLanguage))))
	}
	return nw, ok, err
}

// link reads an <xhtml:link rel="alternate">; any other link, one with
// other attributes or content, or one whose href is not an http(s) URL
// (an app link), is not for the model.
func (r *Reader) link(n *cnode) (a formats.Alternate, ok bool, err error) {
	if len(n.kids) > 0 || uri.TrimSpace(strings.Join(n.text, "")) != "" {
		return a, false, nil
	}
	rel := false
	for _, at := range n.t.attrs {
		switch {
		case at.name.Space != "":
			return a, false, nil
		case at.name.Local == "rel" && at.value == "alternate":
			rel = true
		case at.name.Local == "hreflang":
			a.Hreflang = at.value
		case at.name.Local == "media":
			a.Media = at.value
		case at.name.Local != "href":
			return a, false, nil
		}
	}
	href := uri.TrimSpace(n.attr("href"))
	if !rel || href == "" {
		return a, false, nil
	}
	if a.Hreflang != "" && !vocab.IsLanguage(strings.Trim(a.Hreflang, " \t\r\n")) {
		// xs:language: kept, even verbatim, it would make the written
		// sitemap invalid.
		return formats.Alternate{}, true, r.warnf(n.t.line, n.t.col, false, "<%s> ignored: hreflang %q is not a language tag (en, en-GB, x-default)",
			n.qname(), clip([]byte(a.Hreflang)))
	}
	if a.Href, err = formats.ParseLoc(href, r.opts.Base); err != nil {
		if isHTTP(href) {
			return formats.Alternate{}, true, r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> ignored: %w", n.qname(), err))
		}
		// Not a page (an android-app: link, say): kept verbatim.
		return a, false, nil
	}
	return a, true, nil
}

// isHTTP reports whether s starts with an http or https scheme, in any
// case.
func isHTTP(s string) bool {
	return len(s) >= 5 && strings.EqualFold(s[:5], "http:") || len(s) >= 6 && strings.EqualFold(s[:6], "https:")
}
