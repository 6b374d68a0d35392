package validate

import (
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// The hooks of the elements of the content models (schema.go): what the
// XML check does at their start, their end and with their values.

// Hooks of the core elements.

func (d *doc) urlStart(f *frame) {
	x := d.x
	x.entries++
	x.urlBuf = urlState{line: f.line, col: f.col}
	x.url = &x.urlBuf
}

func (d *doc) urlEnd(f *frame) {
	u := d.x.url
	d.x.url = nil
	if u == nil || u.loc == "" {
		return
	}
	if u.images > formats.MaxImages {
		d.reportAt(ruleImageCount, f.line, f.col, "%d images for %s, more than 1,000", u.images, clip(u.loc))
	}
	if u.hasNews {
		d.news++
	}
	if u.alternates > 0 && !u.selfLink {
		d.reportAt(ruleHreflangSelf, f.line, f.col, "%s lists hreflang alternates but not itself", clip(u.loc))
	}
	d.hreflang.page(u.hash)
}

func (d *doc) sitemapEnd(f *frame) {
	u := d.x.url
	d.x.url = nil
	if u != nil && u.loc != "" {
		d.followChild(u.loc, u.line, u.col)
	}
}

func (d *doc) locValue(f *frame, s string) {
	u := d.x.url
	use := usePage
	what := "loc"
	if d.x.index {
		use, what = useChild, "sitemap loc"
	}
	// s is a view of the element's text (the loc's definition is
	// transient): what is kept of it is a copy, in a string of its own for
	// a child sitemap, which is followed, in the buffer of the page's loc
	// (keepLoc) for a page.
	if use == useChild {
		s = strings.Clone(s)
	} else {
		s = d.x.keepLoc(s)
	}
	var plain bool // not empty, and without user information
	var form pageForm
	if use == usePage {
		plain, form = plainPage(s)
	} else {
		plain = plainURL(s)
	}
	if !plain && collapse(s) == "" {
		d.reportAt(ruleLocMissing, f.line, f.col, "%s is empty", what)
		return
	}
	runes := 0
	if len(f.text) == maxText {
		runes = f.runeCount() // the value was cut
	}
	before := d.errors
	loc, ok := d.checkURLLen(s, plain, form, runes, f.line, f.col, what, use, true)
	if ok && !plain && d.errors == before && hasUserinfo(loc) {
		// The readers skip a URL with user information (formats.ParseLoc),
		// which the URL rules let pass: an error, as in a text list.
		if _, err := formats.ParseLoc(loc, nil); err != nil {
			d.reportAt(ruleLocNotAbsolute, f.line, f.col, "%s %v; readers skip it", what, err)
			return
		}
	}
	if ok && u != nil {
		u.loc = loc
		if seen := d.x.seen; seen.loc == loc && seen.key != "" {
			u.key, u.hash = seen.key, seen.hash
		} else {
			u.key = normalize.Key(loc)
			u.hash = d.v.pageID(u.key)
		}
	}
}

func (d *doc) lastmodValue(f *frame, s string) {
	d.checkDate(s, f.line, f.col, "lastmod", ruleLastmodFormat)
}

// checkDate checks a date value with the schema's type and the W3C and
// future rules.
func (d *doc) checkDate(s string, line, col int, what string, format *Rule) bool {
	t, zoned, ok := xsdDate(s)
	if !ok {
		d.reportAt(format, line, col, "%s %q is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDThh:mm:ss±hh:mm)", what, clip(s))
		return false
	}
	dateTime := strings.Contains(s, "T")
	if dateTime && !zoned {
		d.reportAt(ruleLastmodTimezone, line, col, "%s %q has no time zone", what, clip(collapse(s)))
	}
	// A date is late enough to be in the future when its day has begun
	// nowhere yet (UTC+14); a date-time, when it is more than a minute away.
	if format == ruleLastmodFormat && t.After(d.v.futureFrom(dateTime)) {
		d.reportAt(ruleLastmodFuture, line, col, "%s %s is in the future", what, collapse(s))
	}
	return true
}

// Hooks of the extensions.

// checkExtraURL checks an extension's URL value (xsd:anyURI).
func (d *doc) checkExtraURL(s string, f *frame) (string, bool) {
	what := strings.TrimPrefix(f.name, ":")
	if collapse(s) == "" {
		d.reportAt(ruleLocNotAbsolute, f.line, f.col, "%s is empty", what)
		return "", false
	}
	return d.checkURL(s, f.line, f.col, what, useExtra, false)
}

func (d *doc) imageStart(f *frame) {
	if d.x.url != nil {
		d.x.url.images++
	}
}

func (d *doc) newsStart(f *frame) {
	if d.x.url != nil {
		d.x.url.hasNews = true
	}
}

func (d *doc) newsDateValue(f *frame, s string) {
	if !d.checkDate(s, f.line, f.col, "news:publication_date", ruleExtensionValue) {
		return
	}
	if t, _, _ := xsdDate(s); t.Before(d.v.opts.Now.Add(-48 * hour)) {
		d.reportAt(ruleNewsAge, f.line, f.col, "the article was published on %s, more than two days ago", collapse(s))
	}
}

func (d *doc) contentLocValue(f *frame, s string) {
	d.videoState().content = true
	loc, ok := d.checkExtraURL(s, f)
	if ok && d.x.url != nil && d.x.url.key != "" && normalize.Key(loc) == d.x.url.key {
		d.reportAt(ruleVideoContentLoc, f.line, f.col, "video:content_loc is the page's own URL")
	}
}

func (d *doc) playerLocValue(f *frame, s string) {
	d.videoState().player = true
	d.checkExtraURL(s, f)
}

func (d *doc) videoStart(f *frame) { d.x.video = &videoState{} }

// linkStart records an xhtml:link hreflang alternate of the current url.
func (d *doc) linkStart(f *frame) {
	attrs := d.x.attrs
	rel, _ := attr(attrs, "rel")
	lang, hasLang := attr(attrs, "hreflang")
	if hasLang && !xsLanguage(collapse(lang)) {
		d.reportAt(ruleExtensionValue, f.line, f.col, "hreflang %q is not a language tag (xs:language: en, en-GB, x-default)", clip(lang))
	}
	if rel != "alternate" || !hasLang {
		return
	}
	href, ok := attr(attrs, "href")
	if !ok {
		d.reportAt(ruleLocNotAbsolute, f.line, f.col, "the hreflang alternate has no href")
		return
	}
	loc, ok := d.checkURL(href, f.line, f.col, "hreflang href", useExtra, false)
	u := d.x.url
	if !ok || u == nil || u.key == "" {
		return
	}
	u.alternates++
	if key := normalize.Key(loc); key == u.key {
		u.selfLink = true
	} else {
		d.hreflang.edge(u.hash, d.v.pageID(key), f.line, f.col, loc)
	}
}

func (d *doc) videoState() *videoState {
	if d.x.video == nil {
		d.x.video = &videoState{}
	}
	return d.x.video
}

func (d *doc) videoEnd(f *frame) {
	v := d.videoState()
	d.x.video = nil
	if !v.content && !v.player {
		d.reportAt(ruleVideoLocation, f.line, f.col, "the video has neither video:content_loc nor video:player_loc")
	}
}
