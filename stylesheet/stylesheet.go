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
// media type such as MediaType.
package stylesheet

import _ "embed" // the stylesheet

//go:embed sitemap.xsl
var xsl string

// MediaType is the media type to serve the stylesheet with. Browsers also
// accept application/xslt+xml, text/xml and application/xml.
const MediaType = "text/xsl; charset=utf-8"

// FileName is the name the stylesheet is usually served under.
const FileName = "sitemap.xsl"

// Default returns the default stylesheet, an XSLT 1.0 document in UTF-8.
func Default() []byte { return []byte(xsl) }
