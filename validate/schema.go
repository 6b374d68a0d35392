package validate

import "github.com/feed2sitemap/feed2sitemap/formats"

// The content models of the official schemas: sitemap.xsd, siteindex.xsd
// and the image, video, news, mobile and xhtml extensions that
// sitemap-all.xsd imports.

// Namespaces.
const (
	nsSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
	nsImage   = "http://www.google.com/schemas/sitemap-image/1.1"
	nsVideo   = "http://www.google.com/schemas/sitemap-video/1.1"
	nsNews    = "http://www.google.com/schemas/sitemap-news/0.9"
	nsMobile  = "http://www.google.com/schemas/sitemap-mobile/1.0"
	nsXHTML   = "http://www.w3.org/1999/xhtml"
	nsXSI     = "http://www.w3.org/2001/XMLSchema-instance"
	nsXML     = "http://www.w3.org/XML/1998/namespace"
)

// elemDef is an element declaration.
type elemDef struct {
	name string
	// seq is the sequence of children of complex content; nil with value
	// nil means empty content.
	seq []particle
	// value checks simple content; nil for complex or empty content.
	value func(d *doc, f *frame, s string)
	// attrs are the allowed unqualified attributes; anyAttr allows any.
	attrs   []attrDef
	anyAttr bool
	// missing is the rule a missing required child breaks.
	missing *Rule
	// deprecated, when set, is reported as deprecated-tag.
	deprecated bool
	// start and end run when the element starts and ends.
	start, end func(d *doc, f *frame)
}

// particle is one item of a sequence: an element, or the ##other wildcard.
type particle struct {
	def      *elemDef
	any      bool
	min, max int // max 0 means unbounded
}

// attrDef is an attribute declaration.
type attrDef struct {
	name       string
	required   bool
	check      func(string) bool // nil: any string
	deprecated bool
}

func one(def *elemDef) particle      { return particle{def: def, min: 1, max: 1} }
func optional(def *elemDef) particle { return particle{def: def, max: 1} }
func many(def *elemDef, max int) particle {
	return particle{def: def, max: max}
}

var anyOther = particle{any: true}

// simple returns an element holding text checked by check, with rule r on
// failure.
func simple(name string, r *Rule, check func(string) bool) *elemDef {
	return &elemDef{name: name, value: func(d *doc, f *frame, s string) {
		if !check(s) {
			d.reportAt(r, f.line, f.col, "%s %q is not a valid value", f.name, clip(s))
		}
	}}
}

func anyString(string) bool { return true }

// uriElem is an element holding an extension URL (xsd:anyURI).
func uriElem(name string) *elemDef {
	return &elemDef{name: name, value: func(d *doc, f *frame, s string) {
		d.checkExtraURL(s, f)
	}}
}

func dateElem(name string) *elemDef {
	return simple(name, ruleExtensionValue, func(s string) bool { _, _, ok := xsdDate(s); return ok })
}

func maxChars(name string, n int, r *Rule) *elemDef {
	return &elemDef{name: name, value: func(d *doc, f *frame, s string) {
		if f.runes > n {
			d.reportAt(r, f.line, f.col, "%s has %d characters, more than %d", f.name, f.runes, n)
		}
	}}
}

func deprecated(e *elemDef) *elemDef { e.deprecated = true; return e }

// Core elements. The namespace they are matched in is the document's own
// (reported by the namespace rule when it is not sitemaps.org's).
var (
	defLoc        = &elemDef{name: "loc", value: (*doc).locValue}
	defLastmod    = &elemDef{name: "lastmod", value: (*doc).lastmodValue}
	defChangefreq = &elemDef{name: "changefreq", value: func(d *doc, f *frame, s string) {
		if !enum("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")(s) {
			d.reportAt(ruleChangefreqValue, f.line, f.col, "changefreq %q is not always, hourly, daily, weekly, monthly, yearly or never", clip(s))
		}
	}}
	defPriority = &elemDef{name: "priority", value: func(d *doc, f *frame, s string) {
		if p, ok := xsdDecimal(s); !ok || p < 0 || p > 1 {
			d.reportAt(rulePriorityRange, f.line, f.col, "priority %q is not a number from 0.0 to 1.0", clip(s))
		}
	}}
	defURL = &elemDef{name: "url", missing: ruleLocMissing,
		seq:   []particle{one(defLoc), optional(defLastmod), optional(defChangefreq), optional(defPriority), anyOther},
		start: (*doc).urlStart, end: (*doc).urlEnd}
	defURLSet = &elemDef{name: "urlset", missing: ruleNoEntries,
		seq: []particle{anyOther, {def: defURL, min: 1}}}
	defSitemap = &elemDef{name: "sitemap", missing: ruleLocMissing,
		seq:   []particle{one(defLoc), optional(defLastmod), anyOther},
		start: (*doc).urlStart} // end is set in init: following children refers back to the models
	defSitemapIndex = &elemDef{name: "sitemapindex", missing: ruleNoEntries,
		seq: []particle{anyOther, {def: defSitemap, min: 1}}}
)

// Image extension.
var defImage = &elemDef{name: "image", missing: ruleImageLoc, start: (*doc).imageStart, seq: []particle{
	one(uriElem("loc")),
	optional(deprecated(simple("caption", nil, anyString))),
	optional(deprecated(simple("geo_location", nil, anyString))),
	optional(deprecated(simple("title", nil, anyString))),
	optional(deprecated(uriElem("license"))),
}}

// Video extension.
var (
	defVideoTitle = maxChars("title", 100, ruleVideoLength)
	defVideoDesc  = maxChars("description", 2048, ruleVideoLength)
	relationship  = attrDef{name: "relationship", required: true, check: formats.IsRelationship}
	defVideo      = &elemDef{name: "video", missing: ruleVideoRequired, start: (*doc).videoStart, end: (*doc).videoEnd, seq: []particle{
		one(uriElem("thumbnail_loc")),
		one(defVideoTitle),
		one(defVideoDesc),
		optional(&elemDef{name: "content_loc", value: (*doc).contentLocValue}),
		optional(&elemDef{name: "player_loc", value: (*doc).playerLocValue, attrs: []attrDef{
			{name: "allow_embed", check: yesNo, deprecated: true}, {name: "autoplay", deprecated: true}}}),
		optional(simple("duration", ruleExtensionValue, func(s string) bool { return xsdNonNegative(s, 28800) })),
		optional(dateElem("expiration_date")),
		optional(simple("rating", ruleExtensionValue, func(s string) bool { r, ok := xsdDecimal(s); return ok && r >= 0 && r <= 5 })),
		many(&elemDef{name: "content_segment_loc", value: func(d *doc, f *frame, s string) { d.checkExtraURL(s, f) },
			attrs: []attrDef{{name: "duration", check: func(s string) bool { return xsdNonNegative(s, 28800) }}}}, 0),
		optional(simple("view_count", ruleExtensionValue, func(s string) bool { return xsdNonNegative(s, -1) })),
		optional(dateElem("publication_date")),
		many(simple("tag", nil, anyString), 32),
		optional(deprecated(maxChars("category", 256, ruleExtensionValue))),
		optional(simple("family_friendly", ruleExtensionValue, yesNo)),
		optional(&elemDef{name: "restriction", value: listValue(countryList), attrs: []attrDef{relationship}}),
		optional(deprecated(&elemDef{name: "gallery_loc", value: func(d *doc, f *frame, s string) { d.checkExtraURL(s, f) },
			attrs: []attrDef{{name: "title"}}})),
		many(deprecated(&elemDef{name: "price", value: func(*doc, *frame, string) {}, attrs: []attrDef{
			{name: "currency", check: upper3},
			{name: "type", check: formats.IsPriceType},
			{name: "resolution", check: formats.IsPriceResolution}}}), 0),
		optional(simple("requires_subscription", ruleExtensionValue, yesNo)),
		optional(&elemDef{name: "uploader", value: func(*doc, *frame, string) {}, attrs: []attrDef{{name: "info", check: func(s string) bool { return uriSyntax(collapse(s)) == "" }}}}),
		optional(deprecated(&elemDef{name: "tvshow", seq: []particle{
			one(simple("show_title", nil, anyString)),
			one(simple("video_type", ruleExtensionValue, formats.IsVideoType)),
			optional(simple("episode_title", nil, anyString)),
			optional(simple("season_number", ruleExtensionValue, positiveInt)),
			optional(simple("episode_number", ruleExtensionValue, positiveInt)),
			optional(dateElem("premier_date")),
		}})),
		optional(&elemDef{name: "platform", value: listValue(platformList), attrs: []attrDef{relationship}}),
		optional(simple("live", ruleExtensionValue, yesNo)),
		many(&elemDef{name: "id", value: func(*doc, *frame, string) {}, attrs: []attrDef{{name: "type", required: true,
			check: formats.IsVideoIDType}}}, 0),
	}}
)

func listValue(check func(string) bool) func(d *doc, f *frame, s string) {
	return func(d *doc, f *frame, s string) {
		if !check(s) {
			d.reportAt(ruleExtensionValue, f.line, f.col, "%s %q is not a valid list", f.name, clip(s))
		}
	}
}

// News extension.
var defNews = &elemDef{name: "news", missing: ruleNewsRequired, start: (*doc).newsStart, seq: []particle{
	one(&elemDef{name: "publication", missing: ruleNewsRequired, seq: []particle{
		one(simple("name", nil, anyString)),
		one(simple("language", ruleExtensionValue, newsLanguage)),
	}}),
	optional(simple("access", ruleExtensionValue, formats.IsNewsAccess)),
	optional(simple("genres", ruleExtensionValue, newsGenres)),
	one(&elemDef{name: "publication_date", value: (*doc).newsDateValue}),
	one(simple("title", nil, anyString)),
	optional(simple("keywords", nil, anyString)),
	optional(simple("stock_tickers", ruleExtensionValue, stockTickers)),
}}

// Mobile extension and xhtml links.
var (
	defMobile = &elemDef{name: "mobile", start: func(d *doc, f *frame) {
		d.reportAt(ruleMobileExtension, f.line, f.col, "mobile:mobile is obsolete; search engines ignore it")
	}}
	defXHTMLLink = &elemDef{name: "link", anyAttr: true, start: (*doc).linkStart}
)

// globals are the global element declarations of the extension schemas,
// which the ##other wildcards of a urlset accept.
var globals = map[string]map[string]*elemDef{
	nsImage:  {"image": defImage},
	nsVideo:  {"video": defVideo},
	nsNews:   {"news": defNews},
	nsMobile: {"mobile": defMobile},
	nsXHTML:  {"link": defXHTMLLink},
}

func init() {
	defSitemap.end = (*doc).sitemapEnd
	collectNames(coreNames, defURLSet)
	collectNames(coreNames, defSitemapIndex)
	for ns, defs := range globals {
		extNames[ns] = map[string]bool{}
		for _, def := range defs {
			collectNames(extNames[ns], def)
		}
	}
}

// coreNames and extNames are the element names each schema declares, to
// tell an element in the wrong place (element-order) from an unknown one
// (element-unknown).
var (
	coreNames = map[string]bool{}
	extNames  = map[string]map[string]bool{}
)

func collectNames(into map[string]bool, def *elemDef) {
	into[def.name] = true
	for _, q := range def.seq {
		if !q.any && !into[q.def.name] {
			collectNames(into, q.def)
		}
	}
}

// knownName reports whether local names an element of the schema of the
// parent p's namespace.
func knownName(p *frame, local string) bool {
	if names, ok := extNames[p.ns]; ok && p.def != defURL && p.def != defURLSet && p.def != defSitemap && p.def != defSitemapIndex {
		return names[local]
	}
	return coreNames[local]
}
