package validate

import "github.com/feed2sitemap/feed2sitemap/internal/extschema"

// The content models of the official schemas: sitemap.xsd, siteindex.xsd
// and the image, video, news, mobile and xhtml extensions that
// sitemap-all.xsd imports.

// Namespaces.
const (
	nsSitemap = "http://www.sitemaps.org/schemas/sitemap/0.9"
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
	// transient says value keeps nothing of s (not even in a finding's
	// arguments, which are formatted at once): s is then a view of the
	// element's text, not a copy.
	transient bool
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

var anyOther = particle{any: true}

// changefreqs checks a changefreq value: one of the schema's words,
// exactly (a switch, which tells most values by their length alone).
func changefreqs(s string) bool {
	switch s {
	case "always", "hourly", "daily", "weekly", "monthly", "yearly", "never":
		return true
	}
	return false
}

// Core elements. The namespace they are matched in is the document's own
// (reported by the namespace rule when it is not sitemaps.org's).
var (
	defLoc        = &elemDef{name: "loc", value: (*doc).locValue, transient: true} // it copies what it keeps
	defLastmod    = &elemDef{name: "lastmod", value: (*doc).lastmodValue, transient: true}
	defChangefreq = &elemDef{name: "changefreq", value: func(d *doc, f *frame, s string) {
		if !changefreqs(s) {
			d.reportAt(ruleChangefreqValue, f.line, f.col, "changefreq %q is not always, hourly, daily, weekly, monthly, yearly or never", clip(s))
		}
	}, transient: true}
	defPriority = &elemDef{name: "priority", value: func(d *doc, f *frame, s string) {
		if !priorityOK(s) {
			d.reportAt(rulePriorityRange, f.line, f.col, "priority %q is not a number from 0.0 to 1.0", clip(s))
		}
	}, transient: true}
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

// The extension elements, as the tables of extschema declare them (names,
// order, cardinality, attributes, the check of each value by its kind),
// with what validate says beside them: the rules of a missing child, the
// hooks that follow an element, and the checks of its own that some values
// have (the length of a video title, a news date's age...), by path.
var extSpecial = map[string]func(def *elemDef){
	"image/image": func(def *elemDef) { def.missing, def.start = ruleImageLoc, (*doc).imageStart },
	"video/video": func(def *elemDef) {
		def.missing, def.start, def.end = ruleVideoRequired, (*doc).videoStart, (*doc).videoEnd
	},
	"video/video/title":          maxChars(100, ruleVideoLength),
	"video/video/description":    maxChars(2048, ruleVideoLength),
	"video/video/category":       maxChars(256, ruleExtensionValue),
	"video/video/content_loc":    func(def *elemDef) { def.value = (*doc).contentLocValue },
	"video/video/player_loc":     func(def *elemDef) { def.value = (*doc).playerLocValue },
	"video/video/restriction":    func(def *elemDef) { def.value = listValue(countryList) },
	"video/video/platform":       func(def *elemDef) { def.value = listValue(platformList) },
	"news/news":                  func(def *elemDef) { def.missing, def.start = ruleNewsRequired, (*doc).newsStart },
	"news/news/publication":      func(def *elemDef) { def.missing = ruleNewsRequired },
	"news/news/publication_date": func(def *elemDef) { def.value = (*doc).newsDateValue },
	"mobile/mobile": func(def *elemDef) {
		def.start = func(d *doc, f *frame) {
			d.reportAt(ruleMobileExtension, f.line, f.col, "mobile:mobile is obsolete; search engines ignore it")
		}
	},
	// Any attribute: linkStart checks those of an alternate.
	"xhtml/link": func(def *elemDef) { def.attrs, def.anyAttr, def.start = nil, true, (*doc).linkStart },
}

// extDef returns the declaration of the element f of an extension table,
// whose path (prefix/names) names its special handling in extSpecial.
func extDef(f *extschema.Field, path string) *elemDef {
	def := &elemDef{name: f.Name, deprecated: f.Deprecated}
	for i := range f.Attrs {
		a := &f.Attrs[i]
		def.attrs = append(def.attrs, attrDef{name: a.Name, required: a.Required, check: kindCheck(a.Kind, a.Lo, a.Hi, a.Check),
			deprecated: a.Deprecated})
	}
	switch f.Kind {
	case extschema.Group:
		for i := range f.Fields {
			c := &f.Fields[i]
			def.seq = append(def.seq, particle{def: extDef(c, path+"/"+c.Name), min: c.Min, max: c.Max})
		}
	case extschema.Empty:
	case extschema.Loc:
		def.value = func(d *doc, f *frame, s string) { d.checkExtraURL(s, f) }
	case extschema.Text:
		if f.Check == nil {
			def.value = func(*doc, *frame, string) {}
			break
		}
		fallthrough
	default:
		check, r := kindCheck(f.Kind, f.Lo, f.Hi, f.Check), ruleExtensionValue
		def.value = func(d *doc, fr *frame, s string) {
			if !check(s) {
				d.reportAt(r, fr.line, fr.col, "%s %q is not a valid value", fr.name, clip(s))
			}
		}
	}
	if special := extSpecial[path]; special != nil {
		special(def)
	}
	return def
}

// kindCheck returns the check of a value of kind k (bounded by lo and hi)
// with the check of its row: nil for any text.
func kindCheck(k extschema.Kind, lo, hi int, check func(string) bool) func(string) bool {
	switch k {
	case extschema.Loc:
		return func(s string) bool { return uriSyntax(collapse(s)) == "" }
	case extschema.Date:
		return func(s string) bool { _, _, ok := xsdDate(s); return ok }
	case extschema.Int:
		if lo == 0 {
			return func(s string) bool { return xsdNonNegative(s, hi) }
		}
		return positiveInt
	case extschema.Count:
		return func(s string) bool { return xsdNonNegative(s, -1) }
	case extschema.Decimal:
		return func(s string) bool { v, ok := xsdDecimal(s); return ok && v >= float64(lo) && v <= float64(hi) }
	}
	return check
}

// maxChars makes an element's value a text of at most n characters,
// breaking rule r past them.
func maxChars(n int, r *Rule) func(def *elemDef) {
	return func(def *elemDef) {
		def.value = func(d *doc, f *frame, s string) {
			if runes := f.runeCount(); runes > n {
				d.reportAt(r, f.line, f.col, "%s has %d characters, more than %d", f.name, runes, n)
			}
		}
	}
}

func listValue(check func(string) bool) func(d *doc, f *frame, s string) {
	return func(d *doc, f *frame, s string) {
		if !check(s) {
			d.reportAt(ruleExtensionValue, f.line, f.col, "%s %q is not a valid list", f.name, clip(s))
		}
	}
}

// globals are the global element declarations of the extension schemas,
// which the ##other wildcards of a urlset accept.
var globals = map[string]map[string]*elemDef{}

func init() {
	for _, x := range extschema.Extensions {
		globals[x.Space] = map[string]*elemDef{x.Name: extDef(&x.Field, x.Prefix+"/"+x.Name)}
	}
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
	if p.def == defURL || p.def == defURLSet || p.def == defSitemap || p.def == defSitemapIndex {
		return coreNames[local]
	}
	if names, ok := extNames[p.ns]; ok {
		return names[local]
	}
	return coreNames[local]
}
