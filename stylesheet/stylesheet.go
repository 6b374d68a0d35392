// Package stylesheet holds the default XSL stylesheet of feed2sitemap, which
// shows a sitemap or a sitemap index in a browser as a readable table.
//
// An XML sitemap names its stylesheet with an instruction before the root
// element (formats.WriteOptions.Stylesheet writes it):
//
//	<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
//
// and a browser that opens the sitemap renders it through the stylesheet.
// Search engines ignore the instruction.
//
// The stylesheet is XSLT 1.0, the version browsers run, and self-contained:
// its CSS is inline and it loads nothing. A urlset becomes a table of its
// URLs (each a link), their lastmod, changefreq and priority when any URL
// has them, and image and video counts when any URL has images or videos,
// under the number of URLs; an index becomes a table of its child sitemaps
// with their lastmod. Elements are matched in the sitemaps.org namespace,
// and images and videos in Google's image and video namespaces, whatever
// prefixes the sitemap gives them.
//
// Browsers apply a stylesheet only from the same origin (scheme, host and
// port) as the document: serve it beside the sitemap, and name it with a
// path ("/sitemap.xsl") or a URL on the same origin. Serve it with an XML
// media type such as MediaType. Or name DataURL instead: the sitemap then
// carries the stylesheet (about 13 KB more per file), with nothing to
// serve and no origin to match.
//
// # When the stylesheet cannot load
//
// What Chromium (156) shows, as the browser tests record it:
//
//   - the stylesheet missing (404), on another origin, not XSLT (cut
//     short, an HTML page), or named by a path while the sitemap is opened
//     from a file:// URL: a blank page, with no element at all. Chromium
//     stops building the document at the instruction and waits for the
//     stylesheet, so nothing in the sitemap can show instead: not a
//     second, CSS, instruction (it is not even fetched), not a message in
//     the document. This can only be prevented: serve the stylesheet
//     beside the sitemap (feed2sitemap convert warns when the file it
//     names is not there or is not XSL), or name DataURL, which loads from
//     anywhere, file:// included.
//   - a browser without XSLT (Chromium is removing it): Chromium's own
//     message, "This document cannot be formatted as intended. It uses
//     XSLT, which the browser does not support.", above the XML tree. A
//     second, CSS, instruction would replace that tree with a styled one,
//     for this case only, in every file; the message says more.
//   - a stylesheet whose own CSS fails to load: the table, unstyled. This
//     stylesheet's CSS is inline.
//
// Until Chromium removes XSLT, it lays a banner over every page made with
// it, announcing the removal. The HTML view of formats/html needs no XSLT.
package stylesheet

import (
	_ "embed" // the stylesheet
	"encoding/base64"
	"regexp"
)

//go:embed sitemap.xsl
var xsl string

// MediaType is the media type to serve the stylesheet with. Browsers also
// accept application/xslt+xml, text/xml and application/xml.
const MediaType = "text/xsl; charset=utf-8"

// FileName is the name the stylesheet is usually served under.
const FileName = "sitemap.xsl"

// Default returns the default stylesheet, an XSLT 1.0 document in UTF-8.
func Default() []byte { return []byte(xsl) }

// DataURL returns the default stylesheet as a data: URL (base64) of
// about 13 KB, to name in a sitemap's instruction instead of the URL of a
// file: the sitemap then carries its stylesheet, and browsers that run
// XSLT show the table with no file to serve, whatever the sitemap's host,
// and from a file:// URL too. The stylesheet is the default one without
// its comments and indentation, so that the URL stays well inside the
// 16 KB a reader looks at to find the sitemap's root element.
func DataURL() string {
	return "data:text/xsl;base64," + base64.StdEncoding.EncodeToString([]byte(compact(xsl)))
}

var (
	comments = regexp.MustCompile(`(?s)<!--.*?-->`)
	indent   = regexp.MustCompile(`\n[ \t\n]*`)
)

// compact returns the stylesheet xsl without comments, indentation and
// blank lines: the same transformation (whitespace at the start of a line
// is never significant in it), smaller.
func compact(xsl string) string {
	return indent.ReplaceAllString(comments.ReplaceAllString(xsl, ""), "\n")
}
