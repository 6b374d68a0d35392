package html

import (
	"errors"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

var (
	errNoLoc     = errors.New("html: entry without a loc")
	errWrongKind = errors.New("html: a page of URLs and a page of sitemaps are separate documents")
)

// Encoder renders an HTML page (formats.Encoder): a table of the URLs of a
// sitemap, or of the sitemaps of an index when the options say Index. Its
// header and footer depend on that alone, so that every part of a split
// set has the same frame. The format's Writer, which formats.Register
// gives it, writes what the Encoder renders.
type Encoder struct {
	index bool
}

// NewEncoder returns the Encoder of a page written with opts. Of the
// options it uses only Index: a page lists either URLs or sitemaps.
func NewEncoder(opts formats.WriteOptions) *Encoder {
	return &Encoder{index: opts.Index}
}

// style is the page's CSS: a table at desktop width, a block per row at
// phone width, light and dark. At phone width the caption spans the page,
// and a cell with nothing to say (no lastmod, a count of zero) is left
// out, so that each URL is followed only by what it has.
const style = `:root { color-scheme: light dark; --line: #d0d7de; --muted: #57606a; --stripe: #f6f8fa; --link: #0550ae; }
@media (prefers-color-scheme: dark) { :root { --line: #30363d; --muted: #9198a1; --stripe: #161b22; --link: #58a6ff; } }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
table { border-collapse: collapse; width: 100%; }
caption { text-align: left; color: var(--muted); padding: 0 0 .75rem; }
th, td { border-bottom: 1px solid var(--line); padding: .4rem .6rem; text-align: left; vertical-align: top; }
thead th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); white-space: nowrap; }
tbody th { font-weight: normal; overflow-wrap: anywhere; }
tbody tr:nth-child(even) { background: var(--stripe); }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.date { white-space: nowrap; font-variant-numeric: tabular-nums; }
.title { display: block; color: var(--muted); font-size: .9rem; }
a { color: var(--link); text-decoration: none; }
a:hover, a:focus { text-decoration: underline; }
@media (max-width: 40rem) {
body { margin: 1rem auto; padding: 0 .75rem; font-size: 14px; }
thead { display: none; }
table, tbody, tr, th, td { display: block; }
tr { border-bottom: 1px solid var(--line); padding: .35rem 0; }
tbody th, td, td.num, td.date { border: 0; padding: .1rem .25rem; text-align: left; white-space: normal; }
caption { display: block; }
td { display: inline-block; color: var(--muted); font-size: .85rem; margin-right: .75rem; }
td:empty, td.zero { display: none; }
td[data-label]::before { content: attr(data-label) ": "; }
}
`

// columns are the header cells of a page of URLs after the URL's, with the
// class of their cells.
var columns = [...]struct{ label, class string }{
	{"Last modified", "date"},
	{"Images", "num"},
	{"Videos", "num"},
	{"News", "num"},
	{"Alternates", "num"},
}

// AppendHeader appends the page up to the first row: the head, the
// heading, and the table's caption and header row.
func (enc *Encoder) AppendHeader(dst []byte) []byte {
	title, caption, first := "Sitemap", "The URLs this sitemap lists, with the date each was last modified and how many images, videos, news articles and language alternates it has.", "URL"
	if enc.index {
		title, caption, first = "Sitemap index", "The sitemaps this index lists, with the date of the newest change in each.", "Sitemap"
	}
	b := append(dst, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"+
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"+
		"<meta name=\"robots\" content=\"noindex\">\n<title>"...)
	b = append(b, title...)
	b = append(b, "</title>\n<style>\n"...)
	b = append(b, style...)
	b = append(b, "</style>\n</head>\n<body>\n<main>\n<h1>"...)
	b = append(b, title...)
	b = append(b, "</h1>\n<table>\n<caption>"...)
	b = append(b, caption...)
	b = append(b, "</caption>\n<thead>\n<tr><th scope=\"col\">"...)
	b = append(b, first...)
	b = append(b, "</th>"...)
	n := len(columns)
	if enc.index {
		n = 1
	}
	for _, c := range columns[:n] {
		b = append(b, "<th scope=\"col\" class=\""...)
		b = append(b, c.class...)
		b = append(b, "\">"...)
		b = append(b, c.label...)
		b = append(b, "</th>"...)
	}
	return append(b, "</tr>\n</thead>\n<tbody>\n"...)
}

// AppendEntry appends the row of e: its URL (with its title, when it has
// one), its lastmod and, on a page of URLs, the counts of its extension
// data. An entry without a loc, or of the kind the page does not list, is
// refused.
func (enc *Encoder) AppendEntry(dst []byte, e *formats.Entry) ([]byte, error) {
	switch {
	case e.Loc == "":
		return dst, errNoLoc
	case (e.Kind == formats.KindSitemap) != enc.index:
		return dst, errWrongKind
	}
	b := append(dst, "<tr><th scope=\"row\">"...)
	b = appendLink(b, e.Loc)
	if e.Title != "" {
		b = append(b, "<span class=\"title\">"...)
		b = appendText(b, e.Title)
		b = append(b, "</span>"...)
	}
	b = append(b, "</th><td class=\"date\" data-label=\"Last modified\">"...)
	if !e.LastMod.IsZero() {
		d := e.LastMod.String()
		b = append(b, "<time datetime=\""...)
		b = appendText(b, d)
		b = append(b, "\">"...)
		b = appendText(b, d)
		b = append(b, "</time>"...)
	}
	b = append(b, "</td>"...)
	if !enc.index {
		var images, videos, news, alternates int
		if x := e.Ext; x != nil {
			images, videos, alternates = len(x.Images), len(x.Videos), len(x.Alternates)
			if x.News != nil {
				news = 1
			}
		}
		for i, n := range [...]int{images, videos, news, alternates} {
			c := columns[i+1]
			b = append(b, "<td class=\"num"...)
			if n == 0 {
				b = append(b, " zero"...)
			}
			b = append(b, "\" data-label=\""...)
			b = append(b, c.label...)
			b = append(b, "\">"...)
			b = strconv.AppendInt(b, int64(n), 10)
			b = append(b, "</td>"...)
		}
	}
	return append(b, "</tr>\n"...), nil
}

// appendLink appends loc as a link to itself, showing it decoded for
// reading; a loc that is not an http or https URL, or that holds
// characters no URL has, is shown and not linked.
func appendLink(b []byte, loc string) []byte {
	if !linkable(loc) {
		return appendText(b, loc)
	}
	b = append(b, "<a href=\""...)
	b = appendText(b, loc)
	b = append(b, "\">"...)
	b = appendText(b, readable(loc))
	return append(b, "</a>"...)
}

// Wrote does nothing: a page has nothing to say about its entries as a
// whole.
func (enc *Encoder) Wrote(*formats.Entry) {}

// AppendFooter appends what closes the table and the page.
func (enc *Encoder) AppendFooter(dst []byte) []byte {
	return append(dst, "</tbody>\n</table>\n</main>\n</body>\n</html>\n"...)
}

// Warnings returns nil: the page shows what it holds of every entry.
func (enc *Encoder) Warnings() []string { return nil }
