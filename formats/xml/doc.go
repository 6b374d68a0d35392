// Package xml reads and writes XML sitemaps: urlset documents listing pages
// and sitemapindex documents listing child sitemaps, as sitemaps.org 0.9
// defines them. Importing the package registers the format as "xml".
//
// The Reader streams: it holds one entry at a time, never the document, and
// never expands or fetches DOCTYPE entities. It matches elements by local
// name only, so the sitemaps.org namespace, the old Google 0.84 and 0.9
// namespaces, no namespace at all and a namespace bound to a prefix
// (<sit:urlset>) are all read alike; namespace problems are left to
// validation.
//
// In the default, lenient mode the reader keeps every entry it safely can
// and reports what it dropped to ReadOptions.Warn with line and column. In
// strict mode every such warning is returned by Next as an error instead,
// and the XML itself is parsed strictly (a bare '&', an undeclared entity
// such as &nbsp; or a mismatched end tag is a syntax error; in lenient mode
// they are kept literally or repaired).
//
// A bare '&' or an undeclared entity in lenient mode is kept as it is, so
// that https://example.com/?a=1&b=2 is read whole, not cut at the '&'. A
// value holding one (a field's text, an entry's bare text used as its loc,
// the text of an extension element) earns one warning, at the line and
// column of its first such '&' (text split by child elements, which a
// field should not have, counts as one value per run between tags; an
// entry's bare text that is not used earns none). Strict mode makes it a
// syntax error.
//
// Decisions on broken input:
//
//   - A root element other than urlset or sitemapindex is an error naming it.
//   - A <sitemap> inside a <urlset>, or a <url> inside a <sitemapindex>, is
//     skipped with a warning; the two kinds are never mixed in one stream.
//   - A <url> or <sitemap> with no <loc> child but bare text of its own
//     (<sitemap>https://example.com/a.xml</sitemap>) takes that text as its
//     loc, with a warning. With neither it is skipped with a warning.
//   - A loc that is not an absolute http(s) URL after resolution against
//     ReadOptions.Base, is too long, or holds several URLs separated by
//     space skips the entry with a warning. Several <loc> elements in one
//     entry skip it too.
//   - A bad lastmod, changefreq or priority drops only that field, with a
//     warning; the entry is kept. A repeated field keeps the first.
//   - A <url> opened inside another <url> (a missing </url>) rejects the
//     outer entry with a warning rather than gluing the two together; the
//     inner entry is read normally.
//   - An element named like a sitemap element (url, sitemap, loc,
//     lastmod, changefreq, priority) in another namespace, or under an
//     undeclared prefix, is not that element: inside an entry it is kept
//     as foreign extension data when its namespace is a URI, and skipped
//     as unknown otherwise.
//   - Extension elements (image, video, news, mobile, xhtml:link) are read
//     into the entry's formats.Extensions, matched by namespace URI whatever
//     their prefix, and the Writer writes them back: XML to XML loses
//     nothing. A bad extension value drops that field with a warning. Any
//     other element of a namespace of its own inside an entry (a PageMap,
//     say), and an extension element with a child or attribute the model
//     has no field for, is kept verbatim as foreign extension data.
//   - An element of a namespace of its own directly under the root, outside
//     every entry (ResourceSync's rs:md and rs:ln), is kept verbatim as a
//     document-level element: see Head. An extension's element there is
//     unknown.
//   - Unknown elements without a namespace of their own (in the sitemap's
//     namespace, or in none) are skipped, with one warning per element name
//     and document.
//   - Content after the root element ends (a second root, text) is ignored
//     with a warning and reading stops there; in strict mode it is an
//     error.
//   - Elements nested more than MaxDepth deep, more than MaxNamespaces
//     namespace declarations in scope, and a run of more than
//     MaxTextLength bytes without markup, are errors, so memory stays
//     bounded. Namespaces are looked up through an index, so thousands of
//     declarations cost linear time.
//   - A syntax error or read error part-way returns a *formats.ParseError
//     with the position where reading stopped; the entries returned before
//     it stay valid.
//
// # Observing, and validation in strict mode
//
// An Observer (NewObservedReader, or ReadOptions.Observer) is given every
// token the reader reads, as written and positioned, by both paths: the
// rules of package validate are such an observer, so that validate and
// feed2sitemap convert --strict check a document in the reader's own pass
// instead of parsing it again. A program that links package validate also
// holds every strict reader that has no observer of its own to those rules
// (RegisterRules): a strict reader then reads a document to its end
// exactly when validate finds no error in it. Two warnings about what the
// schema allows are notes, never errors in strict mode: a lastmod without
// a time zone, and an extension's top element before the first <url>.
//
// # Two paths, one behaviour
//
// The reader has two parsers. The general path is encoding/xml, which
// reads any XML. The fast path is a scanner of its own for the plain
// sitemaps generators write (see fast.go for the subset it knows), about
// eight to ten times faster. Every document starts on the fast path; at
// the first thing the fast path does not know for certain (a DOCTYPE, a
// namespace prefix, an extension or unknown element, an attribute on an
// element inside the root, anything malformed, the end of the input before the document ends, an
// entry longer than 64 KiB), it hands the rest of the document over to
// the general path, at the start of the entry (or other item) it was
// reading, with nothing of that item processed yet. Both paths feed the
// same handlers the same elements, text and positions, so the entries,
// warnings and errors (their lines and columns included) are the same,
// whichever path reads which part of a document; a differential fuzz
// test holds the two to it.
package xml
