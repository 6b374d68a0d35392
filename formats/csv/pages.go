package csv

import "strings"

// A crawler's export lists every URL it met: redirects, errors, pages that
// say noindex, images, scripts and style sheets. A sitemap lists the pages
// a search engine should index, so rows that an export's own columns say
// are not such pages are left out, as crawlers' own sitemap exports do:
// a Status Code column that is not 2xx, an Indexability column that says
// Non-Indexable, a Content Type column that is neither HTML nor PDF. An
// export without those columns (a Search Console export, a spreadsheet)
// is read whole. Rows left out so are no problem of the document: they
// are not warned about (LeftOut counts them).

// The header names of those columns, normalized.
var (
	statusNames       = []string{"status code", "http status code", "response code"}
	indexabilityNames = []string{"indexability"}
	contentTypeNames  = []string{"content type"}
)

// pageColumns are the indexes of the columns that say whether a row is an
// indexable page, -1 for none, and the rows they left out, by reason.
type pageColumns struct {
	status, indexability, contentType int
	left                              [3]int // status, non-indexable, not a page's type
}

func (p *pageColumns) find(header []string) {
	p.status = column(header, statusNames)
	p.indexability = column(header, indexabilityNames)
	p.contentType = column(header, contentTypeNames)
}

// keep reports whether a row is an indexable page by its export's columns,
// counting it when it is not.
func (p *pageColumns) keep(r *Reader, rec []string) bool {
	if s, _, _ := r.cell(rec, p.status); s != "" && !(len(s) == 3 && s[0] == '2') {
		p.left[0]++
		return false
	}
	if s, _, _ := r.cell(rec, p.indexability); strings.EqualFold(strings.ReplaceAll(s, " ", "-"), "non-indexable") {
		p.left[1]++
		return false
	}
	if s, _, _ := r.cell(rec, p.contentType); s != "" && !pageType(s) {
		p.left[2]++
		return false
	}
	return true
}

// pageType reports whether a Content-Type is a page's: HTML, XHTML or PDF.
func pageType(s string) bool {
	mt, _, _ := strings.Cut(strings.ToLower(s), ";")
	switch strings.TrimSpace(mt) {
	case "text/html", "application/xhtml+xml", "application/pdf":
		return true
	}
	return false
}

// LeftOut returns how many rows the reader has left out so far because the
// export's own columns say they are not indexable pages: not 2xx, marked
// Non-Indexable, or neither HTML nor PDF (formats.ExtraReader).
func (r *Reader) LeftOut() int { return r.pages.left[0] + r.pages.left[1] + r.pages.left[2] }

// Head returns nil: an export has no document-level elements
// (formats.ExtraReader).
func (r *Reader) Head() []string { return nil }
