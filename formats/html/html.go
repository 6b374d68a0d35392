// Package html writes a sitemap as a page for people: a standalone HTML5
// document that lists the URLs with their last modification dates and how
// many images, videos, news articles and language alternates each has, as
// a table a browser shows without XSLT or script, readable at phone width.
// Importing the package registers the format as "html", written to files
// named *.html; as an input it reads a directory of built pages, a static
// site (SiteReader).
//
// # The page
//
// The document is complete on its own: lang, charset and viewport, its
// style in a <style> element (no external resource, no script), and one
// <table> with a <caption> and header cells scoped to their column, each
// URL the header of its row. On a narrow screen each row becomes a block:
// the URL on its own line, the other cells after it, each named by its
// column, leaving out those with nothing to say (no lastmod, a count of
// zero). The page asks search engines not to index it (robots noindex):
// the sitemap itself is what they read.
//
// Each URL is a link to the URL exactly as written; what the link shows is
// decoded for reading: percent-escapes of UTF-8 characters are shown as
// the characters (/caf%C3%A9 as /café) and a punycode host in Unicode
// (xn--caf-dma.example as café.example), except what could disguise a
// URL: escapes of ASCII characters, control, invisible and direction
// characters stay escaped. A URL that is not http or https is shown, never
// linked. Every text and attribute is escaped, so no URL, title or date
// can add markup.
//
// # Split sets
//
// The Encoder renders each entry on its own, so that a big set is split
// into pages at the protocol's limits like a sitemap; the index of the
// parts is itself an HTML page (Index "html") whose rows link to the part
// pages, so that `-o out/sitemap.html --base-url https://example.com/`
// gives a browsable set. With --one-file it is one page whatever its size.
package html

import (
	"github.com/feed2sitemap/feed2sitemap/formats"
)

// Format is the registered HTML view.
var Format = formats.Register(&formats.Format{
	Name:        "html",
	Description: "an HTML page for people: the URLs with their dates and extension counts, readable at phone width, no script; read from a directory of built pages (a static site)",
	NewEncoder:  func(o formats.WriteOptions) formats.Encoder { return NewEncoder(o) },
	ReadDir:     func(d *formats.Dir, o formats.OpenOptions) formats.Reader { return NewSiteReader(d, o) },
	Extensions:  []string{".html"},
	Carries:     formats.ExtImage | formats.ExtVideo | formats.ExtNews | formats.ExtAlternates,
	Index:       "html",
	Tidy:        true,
	OneFile:     true,
})
