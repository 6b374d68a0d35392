// Package validate checks sitemaps, sitemap indexes, text sitemaps, feeds and
// robots.txt files against the sitemap protocol, the official XML schemas
// and today's search-engine rules, and reports each problem as a Finding: the
// rule broken (a stable id, see Rules), its severity, the source, line and
// column, and a one-line message; the rule carries the fix.
//
// A Validator reads the raw bytes of each document as a stream (gzip layers
// removed, at most 52,428,800 bytes), so that it sees the encoding, the size
// and exact positions. It never expands entities or processes a DTD, and its
// memory is bounded: the duplicate and twin rules keep 64-bit hashes of the
// URLs' normal forms (package normalize) in a table of 16-byte slots, for
// at most Options.MaxRemembered URLs (DefaultMaxRemembered: 32 MiB);
// later URLs are compared with those and counted by Validator.Forgotten.
//
// XML is checked against content models transcribed from sitemap.xsd,
// siteindex.xsd and the image, video, news, mobile and xhtml extension
// schemas; rules whose Schema field is true report only what those schemas
// (or XML well-formedness) reject, so a document has no such finding exactly
// when xmllint finds it valid. The other rules go further, where the schemas
// are silent: absolute URLs, escaping, scope, limits, dates in the future,
// duplicates, news age, hreflang reciprocity and deprecated tags.
//
// A sitemap index's children, and the sitemaps a robots.txt lists, are
// opened through Options.OpenChild and checked too, one level deep: an index
// that lists another index is an index-nested error.
//
// A Validator is the state of one run: URLs are compared across every
// document it checks (duplicate-url, url-twins), unless Options.Independent
// makes each Check a run of its own, as a converter checking its inputs one
// by one wants. Check reads a document from an io.Reader; Writer takes it
// from a caller that reads the input itself (through io.TeeReader); Observe
// shares the caller's own XML reader (feed2sitemap convert --strict), whose
// tokens the rules check in step with it or, once Deferred, behind it on
// a goroutine of the caller's. Report gathers findings and writes them for
// people or as JSON.
package validate
