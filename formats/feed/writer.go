package feed

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// Namespaces the writers declare.
const (
	// AtomNamespace is the namespace of Atom 1.0.
	AtomNamespace = "http://www.w3.org/2005/Atom"
	// MediaNamespace is the namespace of Media RSS, in which both writers
	// write images and videos.
	MediaNamespace = "http://search.yahoo.com/mrss/"
)

// RSSFormat is the registered "rss" format: an RSS 2.0 document of the
// entries, chosen by --to rss or an output file name ending in .rss.
var RSSFormat = formats.Register(&formats.Format{
	Name:        "rss",
	Description: "RSS 2.0 feed of the entries, in the order given (write only)",
	NewWriter:   func(w io.Writer, o formats.WriteOptions) formats.Writer { return NewRSSWriter(w, o) },
	Extensions:  []string{".rss"},
	Carries:     formats.ExtImage | formats.ExtVideo,
	Feed:        true,
	NewestFirst: true,
})

// AtomFormat is the registered "atom" format: an Atom 1.0 document of the
// entries, chosen by --to atom or an output file name ending in .atom.
var AtomFormat = formats.Register(&formats.Format{
	Name:        "atom",
	Description: "Atom 1.0 feed of the entries, in the order given (write only)",
	NewWriter:   func(w io.Writer, o formats.WriteOptions) formats.Writer { return NewAtomWriter(w, o) },
	Extensions:  []string{".atom"},
	Carries:     formats.ExtImage | formats.ExtVideo | formats.ExtAlternates,
	Feed:        true,
	NewestFirst: true,
})

// now is the clock of the Atom writer, for the one date it cannot take
// from the entries; tests replace it.
var now = time.Now

// ErrClosed is returned by Writer.Write after Close.
var ErrClosed = errors.New("feed: write to a closed writer")

// Writer writes entries as an RSS 2.0 or Atom 1.0 document, one item per
// entry in the order given, streaming: it holds one entry at a time, and
// the document's head until the first entry (whose loc and lastmod may be
// needed to fill it). Close writes the end of the document and flushes;
// it does not close the underlying io.Writer.
//
// The package documentation of the writers says what each element holds,
// and what is written when the source did not say.
type Writer struct {
	w       *bufio.Writer
	atom    bool
	opts    formats.WriteOptions
	started bool
	closed  bool
	err     error
	updated string // Atom: the feed's updated, for entries with no lastmod
	// undated counts the Atom entries whose updated is the feed's, and
	// firstUndated is the loc of the first.
	undated      int
	firstUndated string
	buf          bytes.Buffer
}

// NewRSSWriter returns a writer of an RSS 2.0 document to w.
func NewRSSWriter(w io.Writer, opts formats.WriteOptions) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), opts: opts}
}

// NewAtomWriter returns a writer of an Atom 1.0 document to w.
func NewAtomWriter(w io.Writer, opts formats.WriteOptions) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), opts: opts, atom: true}
}

// Write writes e as one item (RSS) or entry (Atom), after the document's
// head when e is the first. Errors of the underlying writer are sticky.
func (w *Writer) Write(e formats.Entry) error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	w.buf.Reset()
	if !w.started {
		w.head(&e)
	}
	if w.atom {
		w.atomEntry(&e)
	} else {
		w.rssItem(&e)
	}
	return w.flush(false)
}

// Close writes the head when no entry was written, and the end of the
// document, and flushes. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	if w.err != nil {
		return w.err
	}
	w.buf.Reset()
	if !w.started {
		w.head(nil)
	}
	if w.undated > 0 && w.opts.Warn != nil {
		what := "1 Atom entry"
		if w.undated > 1 {
			what = fmt.Sprintf("%d Atom entries", w.undated)
		}
		w.opts.Warn(fmt.Sprintf("%s with no date (the first %s): Atom requires <updated>, "+
			"so theirs is the feed's, %s, a date they never had", what, w.firstUndated, w.updated))
	}
	if w.atom {
		w.buf.WriteString("</feed>\n")
	} else {
		w.buf.WriteString("</channel>\n</rss>\n")
	}
	return w.flush(true)
}

// flush moves what w.buf holds to the output, and flushes it when final.
func (w *Writer) flush(final bool) error {
	if _, err := w.w.Write(w.buf.Bytes()); err != nil {
		w.err = err
		return err
	}
	if final {
		w.err = w.w.Flush()
	}
	return w.err
}

// site returns the site a feed is about, as scheme://host/, from its link,
// its id when that is an http(s) URL, or its first entry's loc; "" when
// none is known.
func (w *Writer) site(first *formats.Entry) string {
	cands := []string{w.opts.Feed.Link, w.opts.Feed.ID}
	if first != nil {
		cands = append(cands, first.Loc)
	}
	for _, c := range cands {
		if !isAbsoluteHTTP(c) {
			continue
		}
		if u, err := url.Parse(uri.TrimSpace(c)); err == nil && u.Host != "" {
			return strings.ToLower(u.Scheme) + "://" + u.Host + "/"
		}
	}
	return ""
}

// hostOf returns the host of a site URL "scheme://host/".
func hostOf(site string) string {
	if i := strings.Index(site, "://"); i >= 0 {
		return strings.TrimSuffix(site[i+3:], "/")
	}
	return site
}

// head writes the document's head; first is the first entry, nil when
// there is none.
func (w *Writer) head(first *formats.Entry) {
	w.started = true
	f := w.opts.Feed
	site := w.site(first)
	title := uri.TrimSpace(f.Title)
	if title == "" {
		title = hostOf(site)
	}
	link := uri.TrimSpace(f.Link)
	if link == "" {
		link = site
	}
	media := w.opts.Uses&(formats.ExtImage|formats.ExtVideo) != 0
	b := &w.buf
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	root := `<rss version="2.0"`
	if w.atom {
		root = `<feed xmlns="` + AtomNamespace + `"`
	}
	b.WriteString(root)
	if media {
		b.WriteString(` xmlns:media="` + MediaNamespace + `"`)
	}
	b.WriteString(">\n")
	if w.atom {
		id := uri.TrimSpace(f.ID)
		if id == "" {
			id = link
		}
		w.updated = now().UTC().Format(time.RFC3339)
		if d := entryDate(first); !d.IsZero() {
			w.updated = atomDate(d)
		}
		element(b, "id", id)
		element(b, "title", title)
		if d := uri.TrimSpace(f.Description); d != "" {
			element(b, "subtitle", d)
		}
		element(b, "updated", w.updated)
		if link != "" {
			writeLink(b, "alternate", link, "", "")
		}
		if host := hostOf(site); host != "" {
			b.WriteString("<author><name>")
			escape(b, host, false)
			b.WriteString("</name></author>\n")
		}
		return
	}
	b.WriteString("<channel>\n")
	description := uri.TrimSpace(f.Description)
	if description == "" {
		description = title
	}
	element(b, "title", title) // plain text, escaped once
	element(b, "link", link)
	element(b, "description", htmlEscape(description))
}

// rssItem writes e as an RSS item.
func (w *Writer) rssItem(e *formats.Entry) {
	b := &w.buf
	b.WriteString("<item>\n")
	element(b, "title", itemTitle(e)) // plain text, escaped once
	element(b, "link", e.Loc)
	b.WriteString(`<guid isPermaLink="true">`)
	escape(b, e.Loc, false)
	b.WriteString("</guid>\n")
	if !e.LastMod.IsZero() {
		element(b, "pubDate", e.LastMod.Time().Format(time.RFC1123Z))
	}
	if e.Summary != "" {
		element(b, "description", htmlEscape(e.Summary))
	}
	if u, typ := enclosure(e.Ext); u != "" {
		b.WriteString(`<enclosure url="`)
		escape(b, u, true)
		b.WriteString(`" length="0" type="` + typ + "\"/>\n")
	}
	w.media(e.Ext)
	b.WriteString("</item>\n")
}

// atomEntry writes e as an Atom entry.
func (w *Writer) atomEntry(e *formats.Entry) {
	b := &w.buf
	b.WriteString("<entry>\n")
	element(b, "id", e.Loc)
	element(b, "title", itemTitle(e))
	updated := w.updated
	if d := entryDate(e); !d.IsZero() {
		updated = atomDate(d)
	} else {
		if w.undated == 0 {
			w.firstUndated = e.Loc
		}
		w.undated++
	}
	element(b, "updated", updated)
	w.alternates(e)
	if x := e.Ext; x != nil {
		for _, im := range x.Images {
			writeLink(b, "enclosure", im.Loc, "", mimeType(im.Loc, "image/"))
		}
		for _, v := range x.Videos {
			if v.ContentLoc != "" {
				writeLink(b, "enclosure", v.ContentLoc, "", mimeType(v.ContentLoc, "video/"))
			}
		}
	}
	if e.Summary != "" {
		b.WriteString(`<summary type="text">`)
		escape(b, e.Summary, false)
		b.WriteString("</summary>\n")
	}
	w.media(e.Ext)
	b.WriteString("</entry>\n")
}

// alternates writes the page's own link and its language versions so
// that a reader taking the first link rel="alternate" (gofeed) and one
// taking the last (Python's feedparser) both find the page itself: with
// other languages, the page comes first, untyped and without hreflang,
// then the other languages, then the page again with its language
// (hreflang="und", undetermined, when it is unknown). Atom allows it: no
// two of these links have the same type and hreflang.
func (w *Writer) alternates(e *formats.Entry) {
	b := &w.buf
	var alts []formats.Alternate
	selfLang := ""
	if e.Ext != nil {
		for _, a := range e.Ext.Alternates {
			if a.Href == e.Loc && selfLang == "" {
				selfLang = a.Hreflang
				continue
			}
			alts = append(alts, a)
		}
	}
	if len(alts) == 0 {
		writeLink(b, "alternate", e.Loc, selfLang, "")
		return
	}
	writeLink(b, "alternate", e.Loc, "", "")
	for _, a := range alts {
		writeLink(b, "alternate", a.Href, a.Hreflang, "")
	}
	if selfLang == "" {
		selfLang = undeterminedLanguage
	}
	writeLink(b, "alternate", e.Loc, selfLang, "")
}

// undeterminedLanguage is the BCP 47 tag of a language not known, which
// the Atom writer gives the page's own last link when its language is
// unknown, and the reader takes as no language.
const undeterminedLanguage = "und"

// entryDate returns the date an Atom entry is updated: its lastmod, else
// its news publication date; zero when it has neither (or e is nil).
func entryDate(e *formats.Entry) formats.LastMod {
	switch {
	case e == nil:
		return formats.LastMod{}
	case !e.LastMod.IsZero():
		return e.LastMod
	case e.Ext != nil && e.Ext.News != nil:
		return e.Ext.News.PublicationDate
	}
	return formats.LastMod{}
}

// media writes the images and videos of x as Media RSS elements:
// media:content medium="image" for each image, and media:content
// medium="video" for each video, with its player, title, description and
// thumbnail inside.
func (w *Writer) media(x *formats.Extensions) {
	if x == nil || len(x.Images) == 0 && len(x.Videos) == 0 {
		return
	}
	b := &w.buf
	ns := ""
	if w.opts.Uses&(formats.ExtImage|formats.ExtVideo) == 0 {
		ns = ` xmlns:media="` + MediaNamespace + `"` // not declared on the root
	}
	for _, im := range x.Images {
		b.WriteString(`<media:content` + ns + ` url="`)
		escape(b, im.Loc, true)
		b.WriteString("\" medium=\"image\"/>\n")
	}
	for _, v := range x.Videos {
		b.WriteString(`<media:content` + ns)
		if v.ContentLoc != "" {
			b.WriteString(` url="`)
			escape(b, v.ContentLoc, true)
			b.WriteString(`"`)
		}
		b.WriteString(` medium="video"`)
		if v.Duration > 0 {
			b.WriteString(` duration="` + strconv.Itoa(v.Duration) + `"`)
		}
		b.WriteString(">\n")
		if v.PlayerLoc != "" {
			b.WriteString(`<media:player url="`)
			escape(b, v.PlayerLoc, true)
			b.WriteString("\"/>\n")
		}
		b.WriteString(`<media:title type="plain">`)
		escape(b, v.Title, false)
		b.WriteString("</media:title>\n" + `<media:description type="plain">`)
		escape(b, v.Description, false)
		b.WriteString("</media:description>\n")
		if v.ThumbnailLoc != "" {
			b.WriteString(`<media:thumbnail url="`)
			escape(b, v.ThumbnailLoc, true)
			b.WriteString("\"/>\n")
		}
		b.WriteString("</media:content>\n")
	}
}

// itemTitle returns the title of an entry's item: its title when the
// source gave one, else the path of its URL (with its query), "/" for a
// site's home, unescaped when that leaves no white space or control
// character.
func itemTitle(e *formats.Entry) string {
	if t := uri.TrimSpace(e.Title); t != "" {
		return t
	}
	u, err := url.Parse(e.Loc)
	if err != nil {
		return e.Loc
	}
	p := u.EscapedPath()
	if unescaped, err := url.PathUnescape(p); err == nil && readablePath(unescaped) {
		p = unescaped
	}
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	return p
}

// readablePath reports whether an unescaped URL path reads back as the
// same title: valid UTF-8 with no white space or control character, which
// a reader collapses or drops (those stay percent-encoded).
func readablePath(p string) bool {
	return utf8.ValidString(p) && strings.IndexFunc(p, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}) < 0
}

// enclosure returns the one enclosure of an RSS item (RSS 2.0 allows one):
// the first video file, else the first image, whose MIME type the
// extension of its file name tells; "" when there is none.
func enclosure(x *formats.Extensions) (string, string) {
	if x == nil {
		return "", ""
	}
	for _, v := range x.Videos {
		if t := mimeType(v.ContentLoc, "video/"); v.ContentLoc != "" && t != "" {
			return v.ContentLoc, t
		}
	}
	for _, im := range x.Images {
		if t := mimeType(im.Loc, "image/"); t != "" {
			return im.Loc, t
		}
	}
	return "", ""
}

// mimeTypes are the MIME types the writers name, by file name extension.
var mimeTypes = map[string]string{
	".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png", ".gif": "image/gif",
	".webp": "image/webp", ".avif": "image/avif", ".svg": "image/svg+xml", ".bmp": "image/bmp",
	".tif": "image/tiff", ".tiff": "image/tiff", ".heic": "image/heic",
	".mp4": "video/mp4", ".m4v": "video/x-m4v", ".mov": "video/quicktime", ".webm": "video/webm",
	".ogv": "video/ogg", ".mkv": "video/x-matroska", ".avi": "video/x-msvideo", ".wmv": "video/x-ms-wmv",
	".flv": "video/x-flv", ".mpg": "video/mpeg", ".mpeg": "video/mpeg", ".3gp": "video/3gpp",
}

// mimeType returns the MIME type of the file a URL names, by the extension
// of its path, when it starts with prefix ("image/", "video/"); "" when
// unknown.
func mimeType(u, prefix string) string {
	p := u
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	t := mimeTypes[strings.ToLower(path.Ext(p))]
	if !strings.HasPrefix(t, prefix) {
		return ""
	}
	return t
}

// atomDate formats a lastmod as an RFC 3339 date-time, to the second (a
// date alone is its midnight, in its zone).
func atomDate(l formats.LastMod) string {
	return l.Time().Format(time.RFC3339)
}

// element writes <name>s</name> and a newline, s escaped.
func element(b *bytes.Buffer, name, s string) {
	b.WriteString("<" + name + ">")
	escape(b, s, false)
	b.WriteString("</" + name + ">\n")
}

// writeLink writes an Atom link; hreflang and type are left out when empty.
func writeLink(b *bytes.Buffer, rel, href, hreflang, typ string) {
	b.WriteString(`<link rel="` + rel + `" href="`)
	escape(b, href, true)
	b.WriteString(`"`)
	if hreflang != "" {
		b.WriteString(` hreflang="`)
		escape(b, hreflang, true)
		b.WriteString(`"`)
	}
	if typ != "" {
		b.WriteString(` type="` + typ + `"`)
	}
	b.WriteString("/>\n")
}

// htmlEscape escapes the characters HTML gives a meaning to, for plain
// text in an element that RSS readers take as HTML (item titles and
// descriptions), so that it reads back as the same text.
func htmlEscape(s string) string {
	if !strings.ContainsAny(s, "<>&") {
		return s
	}
	return htmlEscaper.Replace(s)
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// escape writes s XML-escaped (quotes too when attr), leaving out the
// characters XML 1.0 cannot hold and invalid UTF-8.
func escape(b *bytes.Buffer, s string, attr bool) {
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>':
			b.WriteString("&gt;")
		case c == '"' && attr:
			b.WriteString("&quot;")
		case c == '\r' || (c == '\n' || c == '\t') && attr:
			// A reader turns a raw carriage return into a line feed, and
			// tabs and line feeds in attributes into spaces.
			b.WriteString("&#" + strconv.Itoa(int(c)) + ";")
		case c == '\n' || c == '\t':
			b.WriteRune(c)
		case c < 0x20, c == utf8.RuneError && size == 1, c == 0xFFFE, c == 0xFFFF:
			// not XML (a real U+FFFD is kept)
		default:
			b.WriteRune(c)
		}
	}
}
