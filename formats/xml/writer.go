package xml

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/asciiset"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// Namespace is the sitemaps.org namespace the writer declares.
const Namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

// The bytes that open and close the documents an Encoder renders with
// no stylesheet, extension namespace or document-level element.
const (
	URLSetHeader = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="` + Namespace + `">` + "\n"
	URLSetFooter = "</urlset>\n"
	IndexHeader  = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="` + Namespace + `">` + "\n"
	IndexFooter  = "</sitemapindex>\n"
)

// extensionNamespaces are the extensions, in the order the writer declares
// them, with their conventional prefixes.
var extensionNamespaces = [...]struct {
	ext    formats.ExtensionSet
	prefix string
	uri    string
}{
	{formats.ExtImage, "image", ImageNamespace},
	{formats.ExtVideo, "video", VideoNamespace},
	{formats.ExtNews, "news", NewsNamespace},
	{formats.ExtAlternates, "xhtml", XHTMLNamespace},
	{formats.ExtMobile, "mobile", MobileNamespace},
}

// ErrMixedKinds is returned by Writer.Write (and Encoder.AppendEntry) for
// an entry whose kind differs from the document's: a page in a sitemap
// index, or a child sitemap in a urlset.
var ErrMixedKinds = errors.New("xml: cannot mix pages and child sitemaps in one sitemap")

// errNoLoc is returned by Write for an entry without a loc.
var errNoLoc = errors.New("xml: entry has no loc")

// NewWriter returns a writer of a sitemap to w: what an Encoder renders.
// The first entry decides the document: a urlset for formats.KindURL, a
// sitemap index for formats.KindSitemap; Write returns ErrMixedKinds, and
// writes nothing, for an entry of the other kind. With no entry at all,
// Close writes an empty urlset, or an empty sitemap index when opts.Index
// is set. Close says what the Encoder's Warnings say through opts.Warn.
func NewWriter(w io.Writer, opts formats.WriteOptions) formats.Writer {
	return Format.NewWriter(w, opts)
}

// Encoder renders an XML urlset, or a sitemap index when
// WriteOptions.Index is set: it is the formats.Encoder of the XML format.
// The output is deterministic: the same entries always give the same
// bytes, laid out one entry per line with no indentation, elements in
// schema order, and unknown fields omitted.
//
// The header is the XML declaration, the stylesheet instruction when
// WriteOptions.Stylesheet is set, the root start tag (declaring the
// namespaces of WriteOptions.Uses, for a urlset; an index declares none),
// then the document-level elements of WriteOptions.Head, one a line: they
// must be well-formed, self-contained XML, as the Reader makes them.
//
// An entry is loc, lastmod, changefreq and priority for a page; loc and
// lastmod for a child sitemap. Extension data (Entry.Ext) follows the
// core elements of a <url>: images, videos, news, hreflang alternates
// (xhtml:link), the mobile marker, then the foreign elements, verbatim.
// An entry holding an extension outside Uses is still valid XML: each of
// its elements of that extension declares the namespace on itself. A
// <sitemap> of an index holds only foreign elements. Images, videos and
// news data that lack a field the protocol requires (formats.Video.Missing,
// say) are left out: never an empty required element.
//
// Warnings say, of the entries written: the first whose extension data
// was left out for a missing field; that there were more than
// formats.MaxNews entries with news data (package output splits a set
// before); and how many had news data published more than
// 48 hours before the Encoder was made: Google News sitemaps list
// only the articles of the last two days.
type Encoder struct {
	opts formats.WriteOptions
	kind formats.Kind // of the document, from opts.Index
	now  time.Time
	// news counts the entries written with news data; oldNews those whose
	// article was published more than vocab.NewsAge before now,
	// oldestNews being the first of them.
	news       int
	oldNews    int
	oldestNews string
	// incomplete names the first extension data left out because it
	// lacks a required field.
	incomplete string
}

// NewEncoder returns the Encoder of a document written with opts: a
// sitemap index when opts.Index is set, else a urlset.
func NewEncoder(opts formats.WriteOptions) *Encoder {
	k := formats.KindURL
	if opts.Index {
		k = formats.KindSitemap
	}
	return &Encoder{opts: opts, kind: k, now: time.Now()}
}

// AppendHeader appends the document's header: declaration, stylesheet
// instruction, root start tag and document-level elements.
func (c *Encoder) AppendHeader(b []byte) []byte {
	o := &c.opts
	b = append(b, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"...)
	if o.Stylesheet != "" {
		b = append(b, `<?xml-stylesheet type="text/xsl" href="`...)
		b = appendEscapedXML(b, o.Stylesheet, true)
		b = append(b, `"?>`+"\n"...)
	}
	if c.kind == formats.KindSitemap {
		b = append(b, `<sitemapindex xmlns="`+Namespace+`">`+"\n"...)
	} else {
		b = append(b, `<urlset xmlns="`+Namespace+`"`...)
		for _, x := range extensionNamespaces {
			if o.Uses&x.ext != 0 {
				b = append(b, ` xmlns:`+x.prefix+`="`+x.uri+`"`...)
			}
		}
		b = append(b, ">\n"...)
	}
	for _, h := range o.Head {
		b = append(b, h...)
		b = append(b, '\n')
	}
	return b
}

// AppendFooter appends the root end tag.
func (c *Encoder) AppendFooter(b []byte) []byte {
	if c.kind == formats.KindSitemap {
		return append(b, IndexFooter...)
	}
	return append(b, URLSetFooter...)
}

// AppendEntry appends e as a <url> or <sitemap> element and a newline. It
// returns an error, appending nothing, for an entry without a loc or of
// the other kind than the document's (ErrMixedKinds). The loc is scanned
// once, escaped as it is copied.
func (c *Encoder) AppendEntry(b []byte, e *formats.Entry) ([]byte, error) {
	switch {
	case e.Loc == "":
		return b, errNoLoc
	case e.Kind != c.kind:
		return b, ErrMixedKinds
	}
	return appendEntry(b, e, c.opts.Uses), nil
}

// Wrote counts e for the Warnings: extension data left out, news data
// and its age.
func (c *Encoder) Wrote(e *formats.Entry) {
	if e.Ext == nil {
		return
	}
	if c.incomplete == "" {
		// appendEntry left these out.
		if what := e.Ext.Incomplete(); what != "" {
			c.incomplete = e.Loc + ": " + what
		}
	}
	if e.Ext.News != nil {
		c.news++
		if pd := e.Ext.News.PublicationDate; !pd.IsZero() && c.now.Sub(pd.Time()) > vocab.NewsAge {
			if c.oldNews++; c.oldNews == 1 {
				c.oldestNews = strings.Clone(e.Loc) // kept past Write: not the caller's memory
			}
		}
	}
}

// Warnings returns what the entries written call for (see Encoder).
func (c *Encoder) Warnings() []string {
	var msgs []string
	if c.incomplete != "" {
		msgs = append(msgs, fmt.Sprintf("extension data without a required field left out (the first: %s)", c.incomplete))
	}
	if c.news > formats.MaxNews {
		msgs = append(msgs, fmt.Sprintf("%d entries with news data in one sitemap, over the %d a news sitemap may hold: split them into files of at most %d, in an index",
			c.news, formats.MaxNews, formats.MaxNews))
	}
	if c.oldNews > 0 {
		msgs = append(msgs, fmt.Sprintf("%s with news data published more than two days ago (the first: %s): Google News sitemaps should list only the articles of the last two days",
			plural(c.oldNews, "entry", "entries"), c.oldestNews))
	}
	return msgs
}

// appendEntry appends an entry as the Encoder renders it: loc, lastmod,
// changefreq and priority for a page; loc and lastmod for a child sitemap;
// then the extension elements.
func appendEntry(b []byte, e *formats.Entry, uses formats.ExtensionSet) []byte {
	if e.Kind == formats.KindSitemap {
		b = append(b, "<sitemap><loc>"...)
	} else {
		b = append(b, "<url><loc>"...)
	}
	b = appendEscaped(b, e.Loc)
	b = append(b, "</loc>"...)
	if !e.LastMod.IsZero() {
		b = append(b, "<lastmod>"...)
		b = e.LastMod.AppendText(b)
		b = append(b, "</lastmod>"...)
	}
	if e.Kind == formats.KindSitemap {
		if e.Ext != nil {
			b = appendForeign(b, e.Ext)
		}
		return append(b, "</sitemap>\n"...)
	}
	if e.ChangeFreq != "" {
		b = append(b, "<changefreq>"...)
		b = appendEscaped(b, string(e.ChangeFreq))
		b = append(b, "</changefreq>"...)
	}
	if e.Priority.IsSet() {
		b = append(b, "<priority>"...)
		b = e.Priority.AppendText(b)
		b = append(b, "</priority>"...)
	}
	if e.Ext != nil {
		b = appendExt(b, e.Ext, uses)
	}
	return append(b, "</url>\n"...)
}

// escapes holds the replacement of each byte XML text must escape.
var escapes = [256]string{
	'&':  "&amp;",
	'\'': "&apos;",
	'"':  "&quot;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// unescaped are the ASCII bytes escapes leaves as they are.
var unescaped = asciiset.Of(func(c byte) bool { return escapes[c] == "" })

// appendEscaped appends s with & ' " < > escaped.
func appendEscaped(b []byte, s string) []byte {
	last, i := 0, 0
	for {
		if i += unescaped.Span(s[i:]); i == len(s) {
			return append(b, s[last:]...)
		}
		if r := escapes[s[i]]; r != "" {
			b = append(b, s[last:i]...)
			b = append(b, r...)
			last = i + 1
		}
		// (A byte from 0x80 up, left as it is: the run of them too.)
		for i++; i < len(s) && s[i] >= 0x80; i++ {
		}
	}
}
