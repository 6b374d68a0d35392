// Package normalize rewrites http and https URLs into one normal form, so
// that two spellings of the same page compare equal (the identity used to
// dedupe) and, when the user asks, so that a sitemap lists each page in one
// canonical spelling.
//
// [Options.URL] applies the rules below, in this order. Rules marked with
// an option apply only when that field of [Options] is set; the others
// always apply. [Key] applies the always-on rules alone.
//
//  1. Only absolute http and https URLs are rewritten. A string that does
//     not start with "http://" or "https://" (in any case) is returned as
//     it is.
//  2. The fragment is removed: everything from the first '#'.
//  3. The scheme is lower-cased. HTTPS: http becomes https.
//  4. The host is lower-cased and its percent-escapes decoded, and a host
//     holding non-ASCII characters is converted to punycode (IDNA lookup,
//     UTS #46): HTTPS://Bücher.Example/ becomes https://xn--bcher-kva.example/.
//     A host that is not a valid name once decoded is only lower-cased. An
//     IPv6 literal is lower-cased.
//  5. The port loses its leading zeros, and an empty port ("host:") and the
//     default port are removed: 80 for http, 443 for https. With HTTPS a
//     port that is the default of the URL's original scheme or of https is
//     removed (http://x:80/ becomes https://x/); any other port is kept
//     (http://x:8080/ becomes https://x:8080/).
//  6. WWW: HostAddWWW puts "www." before a host that is a registrable
//     domain (one label under a public suffix: example.com, example.co.uk,
//     user.github.io); HostRemoveWWW removes "www." from a host when what
//     follows is a registrable domain (www.example.com, not www2.example.com
//     nor www.blog.example.com). IP addresses are never changed.
//  7. Userinfo ("user:password@") is kept; its percent-encoding is
//     normalized as in rule 8.
//  8. Percent-encoding is normalized in the userinfo, the path and the
//     query: an escape of an unreserved character (ALPHA DIGIT - . _ ~) is
//     decoded (%7e becomes ~); any other escape is kept with its hex digits
//     upper-cased (%2f becomes %2F, which is not decoded: a reserved
//     character and its escape mean different things); a '%' that does not
//     start an escape becomes %25; a byte a URI may not hold (space, control
//     characters, " < > \ ^ ` { | } [ ] and every non-ASCII byte, so characters
//     are encoded as UTF-8) is percent-encoded. An escape is never encoded
//     again.
//  9. StripSessionIDs: path parameters whose name is a session id
//     (";jsessionid=ABC"; see [Options.StripSessionIDs]) are removed from
//     every path segment.
//  10. Dot segments are removed as RFC 3986 section 5.2.4 says
//     ("/a/./b/../c" becomes "/a/c", "/a/b/../../../c" becomes "/c", "/a/."
//     becomes "/a/"), and an empty path becomes "/".
//  11. TrailingSlash: SlashRemove removes the slashes that end the path
//     ("/a/" becomes "/a"); SlashAdd adds one to a path that does not end
//     in a slash, unless its last segment looks like a file name or holds a
//     path parameter ("/a;v=1"). A file name has an extension: a '.' after
//     its first character followed by 1 to 8 ASCII letters and digits, at
//     least one of them a letter ("a.html", "b.tar.gz"; not "v1.2" nor
//     ".well-known"). The path "/" is never changed, and the query is not
//     part of the path ("/a?q" becomes "/a/?q").
//  12. Query: StripParams, StripUTM and StripSessionIDs remove the
//     parameters they name (names compared once rule 8 is applied, ignoring
//     ASCII case: utm%5FSource is utm_source); when any of them or SortQuery is set, empty
//     parameters ("a=1&&b=2", a leading or trailing '&') are dropped too;
//     SortQuery sorts the parameters by name, keeping the order of those
//     with the same name. An empty query is removed with its '?':
//     "https://x/a?" is the same page as "https://x/a".
//
// Nothing else changes: the case of the path and the query, '+' and %20,
// repeated parameters and their order (without SortQuery), parameters with
// no value ("?a&b="), empty path segments ("/a//b"), a trailing dot in the
// host, and file names such as index.html are all kept. Only '&' separates
// query parameters (';' does not).
//
// The rules are idempotent: URL(URL(x)) == URL(x) for every string x. A URL
// that is already normal is returned as it is, in the common case without
// allocating, at the cost of one scan of the string. The length of the result is not
// checked: it may exceed the protocol's 2,048 characters when characters
// are encoded.
package normalize
