package validate

import (
	"fmt"
	"slices"
)

// Severity says how bad a finding is.
type Severity uint8

// Severities. An Error is something the protocol or the official schemas
// forbid; a Warning is search-engine advice the document does not follow.
const (
	Error Severity = iota
	Warning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText returns the severity's name, as String does.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "error" or "warning".
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("validate: unknown severity %q", b)
	}
	return nil
}

// Rule is one check of the validator. Its ID is stable: it names the rule in
// the output, in the JSON report and in docs/validation-rules.md (generated from Rules).
type Rule struct {
	// ID is the rule's kebab-case name, such as "loc-not-absolute".
	ID string
	// Severity is the severity of every finding of the rule.
	Severity Severity
	// Schema is true when every finding of the rule is a document the
	// official XML schemas (or XML well-formedness) reject, so that xmllint
	// agrees with the validator on it.
	Schema bool
	// Meaning says in one line what the rule checks.
	Meaning string
	// Fix says in one line how to fix a finding.
	Fix string
}

func rule(id string, sev Severity, schema bool, meaning, fix string) *Rule {
	r := &Rule{ID: id, Severity: sev, Schema: schema, Meaning: meaning, Fix: fix}
	allRules = append(allRules, r)
	return r
}

var allRules []*Rule

// The rules, in the order docs/validation-rules.md lists them.
var (
	ruleUnknownFormat = rule("unknown-format", Error, false,
		"the input is empty or is not an XML sitemap, sitemap index, feed, text sitemap or robots.txt",
		"serve a sitemap, an index, a feed, a URL list or a robots.txt")
	ruleGzip = rule("gzip", Error, false,
		"the gzip data is corrupt or truncated",
		"compress the file again, completely")
	ruleEncoding = rule("encoding", Error, false,
		"the document is not encoded in UTF-8 (a declared charset, UTF-16 or UTF-32)",
		"save the file as UTF-8 and declare encoding=\"UTF-8\"")
	ruleInvalidUTF8 = rule("invalid-utf8", Error, true,
		"bytes that are not valid UTF-8",
		"re-encode the text as UTF-8")
	ruleInvalidChar = rule("invalid-char", Error, true,
		"a character XML 1.0 forbids (control characters, U+FFFE, U+FFFF)",
		"remove the character")
	ruleXMLSyntax = rule("xml-syntax", Error, true,
		"the document is not well-formed XML (or uses an undeclared prefix or entity, or has an XML declaration after white space, a comment or other text)",
		"escape & as &amp; and < as &lt;, close every element, keep one root element")
	ruleDoctype = rule("doctype", Error, false,
		"a DOCTYPE declaration; its entities are never expanded",
		"remove the DOCTYPE")
	ruleNamespace = rule("namespace", Error, true,
		"sitemap elements are not in the namespace http://www.sitemaps.org/schemas/sitemap/0.9 (missing, or an old Google namespace)",
		"declare xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" on the root element")
	ruleRootElement = rule("root-element", Error, true,
		"the root element is not urlset or sitemapindex",
		"make urlset (a sitemap) or sitemapindex (an index) the root element")
	ruleElementOrder = rule("element-order", Error, true,
		"an element or text where the schema does not allow it: out of order, repeated, or in the wrong parent",
		"write loc, lastmod, changefreq, priority in this order, then extension elements, each once")
	ruleElementUnknown = rule("element-unknown", Error, true,
		"an element no official schema declares (an unknown name, or a namespace other than the sitemap and its image, video, news, mobile and xhtml extensions)",
		"remove the element, or fix its name or namespace")
	ruleAttribute = rule("attribute", Error, true,
		"an attribute the schema does not allow, or a required attribute missing",
		"remove the attribute (only xmlns and xsi: attributes are allowed on sitemap elements)")
	ruleNoEntries = rule("no-entries", Error, true,
		"a urlset without url or a sitemapindex without sitemap",
		"list at least one URL, or do not publish the file")
	ruleLocMissing = rule("loc-missing", Error, true,
		"a url or sitemap element has no loc, or an empty one",
		"give every entry a <loc> with its absolute URL")
	ruleLocSyntax = rule("loc-syntax", Error, true,
		"a URL that is not a valid URI: a % not followed by two hex digits, several #, [ or ] outside the host, a bad port or authority",
		"percent-encode % as %25, [ as %5B and ] as %5D, and fix the URL")
	ruleLocTooShort = rule("loc-too-short", Error, true,
		"a loc shorter than the 12 characters the schema requires",
		"write the full absolute URL")
	ruleLocTooLong = rule("loc-too-long", Error, true,
		"a loc longer than 2,048 characters",
		"shorten the URL")
	ruleLocNotAbsolute = rule("loc-not-absolute", Error, false,
		"a URL that is not an absolute http or https URL with a host (and a port from 1 to 65535, if any)",
		"write the full URL, with http:// or https:// and the host")
	ruleLocEscaping = rule("loc-escaping", Error, false,
		"a URL holding characters a URI may not hold (space, non-ASCII, \" < > \\ ^ ` { | })",
		"percent-encode them as UTF-8 (é is %C3%A9, a space %20) and the host in punycode")
	ruleLocOtherHost = rule("loc-other-host", Error, false,
		"a URL on another scheme or host than the sitemap itself",
		"list only URLs of the sitemap's host, or set up cross-submission in the other host's robots.txt")
	ruleLocOutsideDirectory = rule("loc-outside-directory", Error, false,
		"a URL outside the directory the sitemap is served from",
		"move the sitemap up to the site's root, or remove the URL")
	ruleLastmodFormat = rule("lastmod-format", Error, true,
		"a date that is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ss[.f](Z|±hh:mm) (the schema's xsd:date or xsd:dateTime)",
		"write a W3C date such as 2024-05-01 or 2024-05-01T10:30:00+02:00")
	ruleLastmodTimezone = rule("lastmod-timezone", Warning, false,
		"a date-time without time zone: valid for the schema, ambiguous for W3C Datetime",
		"add Z or an offset such as +02:00")
	ruleLastmodFuture = rule("lastmod-future", Warning, false,
		"a lastmod in the future",
		"write when the page really changed; never a date to come")
	ruleChangefreqValue = rule("changefreq-value", Error, true,
		"a changefreq that is not always, hourly, daily, weekly, monthly, yearly or never (exactly, without spaces)",
		"use one of the seven values, or leave changefreq out (search engines ignore it)")
	rulePriorityRange = rule("priority-range", Error, true,
		"a priority that is not a decimal number from 0.0 to 1.0",
		"write a number such as 0.5, or leave priority out (search engines ignore it)")
	ruleTooManyURLs = rule("too-many-urls", Error, false,
		"more than 50,000 URLs (or sitemaps) in one file",
		"split the file into sitemaps of at most 50,000 URLs listed by an index")
	ruleTooLarge = rule("too-large", Error, false,
		"more than 52,428,800 bytes uncompressed; checking stops there",
		"split the file into smaller sitemaps listed by an index")
	ruleIndexNested = rule("index-nested", Error, false,
		"a sitemap index lists another sitemap index",
		"list the child index's sitemaps directly, or submit the indexes separately")
	ruleChildUnreadable = rule("child-unreadable", Error, false,
		"a sitemap an index or robots.txt lists cannot be read",
		"publish the child sitemap where the index says, or remove it from the index")
	ruleDuplicateURL = rule("duplicate-url", Warning, false,
		"the same page (after URL normalization) is listed twice",
		"list each page once")
	ruleURLTwins = rule("url-twins", Warning, false,
		"a page is listed under http and https, or with and without www.",
		"list only the canonical version of each URL")
	ruleLocUntidy = rule("loc-untidy", Warning, false,
		"a URL holds what never changes the page: a fragment (#...), the default port (:443, :80), dot segments (/./, /../) or an empty query (?)",
		"write it without them (feed2sitemap does by default), so that each page has one spelling")
	ruleSessionID = rule("session-id", Warning, false,
		"a URL holds a session id (jsessionid, PHPSESSID, sid, ...)",
		"remove the session id")
	ruleImageLoc = rule("image-loc", Error, true,
		"an image:image without image:loc",
		"give the image its image:loc")
	ruleImageCount = rule("image-count", Error, false,
		"more than 1,000 images for one URL",
		"list at most 1,000 images per page")
	ruleVideoRequired = rule("video-required", Error, true,
		"a video:video without thumbnail_loc, title or description",
		"add the missing elements")
	ruleVideoLocation = rule("video-location", Error, false,
		"a video:video with neither content_loc nor player_loc",
		"add video:content_loc (the media file) or video:player_loc (the player)")
	ruleVideoLength = rule("video-length", Error, true,
		"a video title over 100 characters or a description over 2,048",
		"shorten the title or description")
	ruleVideoContentLoc = rule("video-content-loc", Error, false,
		"a video:content_loc equal to the page's loc",
		"point content_loc at the video file, not the page")
	ruleExtensionValue = rule("extension-value", Error, true,
		"an extension value the extension's schema rejects (a duration, rating, yes/no, language, date, country or platform list)",
		"write the value the extension's documentation asks for")
	ruleNewsRequired = rule("news-required", Error, true,
		"a news:news without publication (name, language), publication_date or title",
		"add the missing elements")
	ruleNewsAge = rule("news-age", Warning, false,
		"a news article published more than two days ago",
		"list only the articles of the last two days in a news sitemap")
	ruleNewsCount = rule("news-count", Error, false,
		"more than 1,000 news:news URLs in one sitemap",
		"split the news sitemap, or drop older articles")
	ruleHreflangSelf = rule("hreflang-self", Warning, false,
		"a URL with hreflang alternates that does not list itself among them",
		"add an xhtml:link rel=\"alternate\" for the page's own language and URL")
	ruleHreflangReciprocal = rule("hreflang-reciprocal", Warning, false,
		"an hreflang alternate listed in the same file does not link back",
		"give every language version the same set of xhtml:link alternates")
	ruleDeprecatedTag = rule("deprecated-tag", Warning, false,
		"an extension element search engines no longer read (image caption, title, geo_location, license; video category, gallery_loc, price, tvshow, player_loc allow_embed/autoplay)",
		"remove it")
	ruleMobileExtension = rule("mobile-extension", Warning, false,
		"the obsolete mobile extension (mobile:mobile)",
		"remove mobile:mobile and its namespace; search engines ignore it since 2016")
	ruleTextLine = rule("text-line", Warning, false,
		"a text sitemap line that is a comment; a text sitemap holds URLs and nothing else",
		"remove the comment lines")
	ruleFeedInvalid = rule("feed-invalid", Error, false,
		"the feed cannot be read as RSS, Atom or JSON Feed",
		"fix the feed's syntax")
	ruleFeedItem = rule("feed-item", Warning, false,
		"a feed item or field a sitemap cannot use (no usable link, a bad date)",
		"give every item an absolute link and W3C or RFC 822 dates")
	ruleEntriesInvalid = rule("entries-invalid", Error, false,
		"a document of another format (a CSV export, JSON Lines) that its reader cannot read to its end",
		"fix the document where the message says; feed2sitemap formats lists what each format accepts")
	ruleEntrySkipped = rule("entry-skipped", Error, false,
		"a row or line of a document of another format (a CSV export, JSON Lines) that its reader skips, or a value it ignores (an error, as strict reading has it)",
		"give every entry an absolute URL and values in the forms the format's reader takes")
	// The live rules, of validate --live (package live): they check the
	// pages listed, on the web, not the documents.
	_ = rule("live-status", Error, false,
		"a listed page answered 4xx (an error); 429, 5xx, no answer, or an address the remote-host policy refuses are warnings",
		"list only pages that answer 200, or make the page answer again")
	_ = rule("live-redirect", Warning, false,
		"a listed page redirects; the message names where it leads",
		"list the URL the redirect leads to instead")
	_ = rule("live-noindex", Error, false,
		"a listed page says noindex (or none): X-Robots-Tag, unscoped or for googlebot or bingbot, or a robots, googlebot or bingbot meta element",
		"remove the noindex, or leave the page out of the sitemap")
	_ = rule("live-canonical", Warning, false,
		"a listed page names another URL as canonical (link rel=\"canonical\" or a Link header), compared resolved and normalized",
		"list the canonical URL instead, or make the page name itself")
	_ = rule("live-robots", Error, false,
		"the host's robots.txt disallows a listed page to Googlebot, Bingbot or * (RFC 9309); a robots.txt answering 5xx or not at all disallows the whole site (a warning)",
		"allow the page in robots.txt, or leave it out of the sitemap")
)

// Rules returns every rule, in the order docs/validation-rules.md lists them.
func Rules() []*Rule { return slices.Clone(allRules) }

// LookupRule returns the rule with the given id, or nil.
func LookupRule(id string) *Rule {
	for _, r := range allRules {
		if r.ID == id {
			return r
		}
	}
	return nil
}
