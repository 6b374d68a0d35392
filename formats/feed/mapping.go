package feed

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mmcdole/gofeed/atom"
	ext "github.com/mmcdole/gofeed/extensions"
	jsonfeed "github.com/mmcdole/gofeed/json"
	"github.com/mmcdole/gofeed/rss"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/datenames"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// item is what one feed item says about its page, whatever the format: the
// candidates for loc and for lastmod, each in order of precedence.
type item struct {
	title   text
	summary []text // candidates for the summary, in order
	line    int    // line of the item in the input; 0 when unknown
	lang    string // the item's own language; "" when it inherits the feed's
	// langSet says the item's language was given, as xml:lang="" when
	// lang is "": unknown, not the feed's.
	langSet bool
	locs    []candidate
	dates   []dateCandidate
	// published are the candidates for the publication date (for news).
	published []dateCandidate
	// why tells, when locs is empty, why the item has no link.
	why string

	images     []mediaRef // images, as written
	thumbs     []mediaRef // media:thumbnail, images unless a video's thumbnail
	videos     []videoRef
	alternates []alternateRef // Atom links rel="alternate" with hreflang
}

// alternateRef is a language version of an item, as written.
type alternateRef struct {
	hreflang, href string
}

// candidate is a value that may give an entry's loc.
type candidate struct {
	what  string // the element it came from, for messages: "link", "guid"
	value string
	// absolute says the value counts only when it is itself an absolute
	// http(s) URL (a guid or a JSON id), never resolved against a base.
	absolute bool
}

// dateCandidate is a value that may give an entry's lastmod.
type dateCandidate struct {
	what   string
	raw    string
	parsed *time.Time // gofeed's reading of raw, in UTC; nil when none
}

// entry maps the nth item (1-based) to an entry. It reports false when the
// item is skipped, and an error only when a warning is one (strict mode).
func (r *Reader) entry(n int, it *item) (formats.Entry, bool, error) {
	loc, err := r.loc(n, it)
	if err != nil || loc == "" {
		return formats.Entry{}, false, err
	}
	lastmod, err := r.lastmod(n, it)
	if err != nil {
		return formats.Entry{}, false, err
	}
	e := formats.Entry{Loc: loc, LastMod: lastmod, Kind: formats.KindURL}
	if err := r.describe(n, it, &e); err != nil {
		return formats.Entry{}, false, err
	}
	return e, true, nil
}

// describe fills the title, summary and extensions of e, the entry of the
// nth item, from the item; the title and summary only when they are
// wanted (ReadOptions.SkipTexts).
func (r *Reader) describe(n int, it *item, e *formats.Entry) error {
	if !r.opts.SkipTexts {
		e.Title = it.title.plain(MaxTitle)
		e.Summary = firstText(MaxSummary, it.summary...)
	}
	var err error
	e.Ext, err = r.extensions(n, it, e)
	return err
}

// name names the nth item for a message: `item 3 ("Title")`.
func (it *item) name(n int) string {
	t := strings.Join(strings.Fields(it.title.value), " ")
	if t == "" {
		return fmt.Sprintf("item %d", n)
	}
	if len(t) > 60 {
		i := 57
		for i > 0 && t[i]&0xc0 == 0x80 { // do not cut a character in two
			i--
		}
		t = t[:i] + "..."
	}
	return fmt.Sprintf("item %d (%q)", n, t)
}

// loc returns the loc of the nth item: its first candidate that is an
// absolute http(s) URL once resolved. It returns "" when the item is
// skipped, after a warning.
func (r *Reader) loc(n int, it *item) (string, error) {
	var first error
	var firstWhat string
	for _, c := range it.locs {
		var loc string
		var err error
		if c.absolute {
			loc, err = parseLoc(c.value, nil)
		} else {
			loc, err = parseLoc(c.value, r.base)
		}
		if err != nil {
			if first == nil {
				first, firstWhat = err, c.what
			}
			continue
		}
		if first != nil {
			werr := r.opts.Warning(it.line, 0, false,
				fmt.Errorf("%s: %s unusable (%v); used its %s", it.name(n), firstWhat, first, c.what))
			if werr != nil {
				return "", werr
			}
		}
		return loc, nil
	}
	var msg error
	switch {
	case first != nil:
		msg = fmt.Errorf("%s skipped: %s: %w", it.name(n), firstWhat, first)
	case it.why != "":
		msg = fmt.Errorf("%s has no link (%s)", it.name(n), it.why)
	default:
		msg = fmt.Errorf("%s has no link", it.name(n))
	}
	return "", r.opts.Warning(it.line, 0, true, msg)
}

// lastmod returns the lastmod of the nth item from its first date
// candidate that gives a date; a zero LastMod when it has none. A present
// but unusable date is reported with a warning that says why (not a date,
// names that are not English), and so is a date-time whose time zone is
// missing or unknown, of which only the date is kept.
func (r *Reader) lastmod(n int, it *item) (formats.LastMod, error) {
	var bad []string
	for _, d := range it.dates {
		raw := uri.TrimSpace(d.raw)
		if raw == "" {
			continue
		}
		lm, why := parseDate(raw, d.parsed)
		desc := fmt.Sprintf("%s %q %s", d.what, raw, why)
		if lm.IsZero() {
			bad = append(bad, desc)
			continue
		}
		var msg string
		switch {
		case why != "" && len(bad) > 0:
			msg = fmt.Sprintf("%s; %s: kept as the date %s", strings.Join(bad, "; "), desc, lm)
		case why != "":
			msg = fmt.Sprintf("%s: kept as the date %s", desc, lm)
		case len(bad) > 0:
			msg = fmt.Sprintf("%s; used its %s", strings.Join(bad, "; "), d.what)
		}
		if msg != "" {
			if werr := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: %s", it.name(n), msg)); werr != nil {
				return formats.LastMod{}, werr
			}
		}
		return lm, nil
	}
	if len(bad) > 0 {
		werr := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: lastmod dropped: %s",
			it.name(n), strings.Join(bad, "; ")))
		return formats.LastMod{}, werr
	}
	return formats.LastMod{}, nil
}

var (
	// timeOfDay finds a time of day in a date.
	timeOfDay = regexp.MustCompile(`\d:\d\d`)
	// explicitZone matches a date that ends with a numeric UTC offset or a
	// zone name gofeed resolves to its offset.
	explicitZone = regexp.MustCompile(`(?i)(?:\d[+-]\d\d(?::?\d\d)?|\s[+-]\d\d(?::?\d\d)?|\dZ|\b(?:UT|UTC|GMT|Z|[ECMP][SD]T|WET|WEST|BST|CET|CEST|EET|EEST)(?:\s*[+-]\d\d:?\d\d)?(?:\s*\([A-Za-z]+\))?)$`)
	// monthName finds an English month name or abbreviation.
	monthName = regexp.MustCompile(`(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b`)
	// yearFirst matches a numeric date that starts with a four-digit year.
	yearFirst = regexp.MustCompile(`^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$`)
	// zoneName matches a time of day followed by a zone name, which
	// formats.ParseLastMod and gofeed did not know.
	zoneName = regexp.MustCompile(`\d:\d\d(?::\d\d)?\s+([A-Za-z]{1,5})$`)
)

// parseDate reads a feed date. It tries formats.ParseLastMod, which keeps
// the precision and zone of W3C Datetime and RFC 822 dates, then gofeed's
// wider reading when it is unambiguous: a date-time that names its zone
// (taken in UTC, to the second), or a date alone with a month name or a
// leading year (taken as a date). A date-time without a time zone, or with
// one neither knows, gives its date as written, and why says so; a numeric
// day/month order that may be either is refused. When the lastmod is zero,
// why says why the value is no date.
func parseDate(raw string, parsed *time.Time) (lm formats.LastMod, why string) {
	lm, err := formats.ParseLastMod(raw)
	if err == nil {
		return lm, ""
	}
	if names := datenames.Foreign(raw); len(names) > 0 {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = strconv.Quote(n)
		}
		return formats.LastMod{}, "has day or month names that are not English (" + strings.Join(q, ", ") + ")"
	}
	if lm, ok := vocab.DateOfZoneless(raw); ok {
		return lm, "has no time zone"
	}
	if m := zoneName.FindStringSubmatchIndex(raw); m != nil && !explicitZone.MatchString(raw) {
		if lm, ok := vocab.DateOfZoneless(raw[:m[2]]); ok {
			return lm, fmt.Sprintf("has an unknown time zone %q", raw[m[2]:m[3]])
		}
	}
	if parsed == nil || parsed.IsZero() {
		return formats.LastMod{}, "is not a date"
	}
	if timeOfDay.MatchString(raw) {
		if explicitZone.MatchString(raw) {
			lm := formats.NewLastMod(parsed.UTC(), formats.PrecisionSecond)
			return lm, outOfRange(lm) // zero: out of the schema's range
		}
		// gofeed reads a time without a zone as UTC: its date is the one
		// written.
		y, m, d := parsed.Date()
		lm := formats.NewLastMod(time.Date(y, m, d, 0, 0, 0, 0, time.UTC), formats.PrecisionDay)
		if lm.IsZero() {
			return lm, outOfRange(lm)
		}
		return lm, "has no time zone"
	}
	if monthName.MatchString(raw) || yearFirst.MatchString(raw) {
		y, m, d := parsed.Date()
		lm := formats.NewLastMod(time.Date(y, m, d, 0, 0, 0, 0, time.UTC), formats.PrecisionDay)
		return lm, outOfRange(lm)
	}
	return formats.LastMod{}, "is not a date with a known day and month order"
}

// outOfRange returns why a date gofeed read is no lastmod when lm is zero,
// "" otherwise.
func outOfRange(lm formats.LastMod) string {
	if lm.IsZero() {
		return "is outside the dates a sitemap can hold"
	}
	return ""
}

// isAbsoluteHTTP reports whether s, trimmed, starts with an http or https
// scheme.
func isAbsoluteHTTP(s string) bool {
	s = uri.TrimSpace(s)
	return len(s) >= 7 && strings.EqualFold(s[:7], "http://") ||
		len(s) >= 8 && strings.EqualFold(s[:8], "https://")
}

// firstExt returns the value of the first extension element prefix:name.
func firstExt(e ext.Extensions, prefix, name string) string {
	if vs := e[prefix][name]; len(vs) > 0 {
		return vs[0].Value
	}
	return ""
}

// isAlternate reports whether an Atom link relation names the page itself:
// "alternate" (gofeed gives it to links without rel), or its IANA URI.
func isAlternate(rel string) bool {
	rel = uri.TrimSpace(rel)
	return rel == "" || strings.EqualFold(rel, "alternate") ||
		strings.EqualFold(rel, "http://www.iana.org/assignments/relation/alternate")
}

// rssItem maps an RSS item: <link>s in order, then a permalink <guid>, then
// atom:link alternates; atom:updated, dcterms:modified, dc:date, then
// pubDate, dcterms:issued, dcterms:created.
func rssItem(i *rss.Item) item {
	// RSS titles are plain text, XML-decoded once, as gofeed and the feed
	// readers show them (an &amp;amp; is shown as &amp;).
	it := item{title: plainText(i.Title)}
	it.summary = []text{htmlText(i.Description), htmlText(i.Content)}
	var duration string
	if it.title.value == "" && i.DublinCoreExt != nil && len(i.DublinCoreExt.Title) > 0 {
		it.title = plainText(i.DublinCoreExt.Title[0])
	}
	if dc := i.DublinCoreExt; dc != nil {
		if len(dc.Description) > 0 {
			it.summary = append(it.summary, htmlText(dc.Description[0]))
		}
		if len(dc.Language) > 0 {
			it.lang = dc.Language[0]
		}
	}
	if itu := i.ITunesExt; itu != nil {
		it.summary = append(it.summary, htmlText(itu.Summary), htmlText(itu.Subtitle))
		duration = itu.Duration
	}
	ctx := it.addMRSS(i.Extensions, duration)
	enclosures := i.Enclosures
	if len(enclosures) == 0 && i.Enclosure != nil {
		enclosures = []*rss.Enclosure{i.Enclosure}
	}
	for _, e := range enclosures {
		if e != nil {
			it.addEnclosure("enclosure", e.URL, e.Type, ctx, videoRef{duration: duration})
		}
	}
	links := i.Links
	if len(links) == 0 && i.Link != "" {
		links = []string{i.Link}
	}
	for _, l := range links {
		if uri.TrimSpace(l) != "" {
			it.locs = append(it.locs, candidate{what: "link", value: l})
		}
	}
	if g := i.GUID; g != nil && uri.TrimSpace(g.Value) != "" {
		perma := uri.TrimSpace(g.IsPermalink)
		switch {
		case perma != "" && !strings.EqualFold(perma, "true"):
			it.why = "its guid is not a permalink"
		case !isAbsoluteHTTP(g.Value):
			it.why = "its guid is not an http(s) URL"
		default:
			it.locs = append(it.locs, candidate{what: "guid", value: g.Value, absolute: true})
		}
	}
	for _, l := range i.Extensions["atom"]["link"] {
		if href := l.Attrs["href"]; uri.TrimSpace(href) != "" && isAlternate(l.Attrs["rel"]) {
			it.locs = append(it.locs, candidate{what: "atom:link", value: href})
		}
	}
	// Modified: atom:updated, dcterms:modified, dc:date (and dcterms:date,
	// the same element in the newer namespace); published: pubDate,
	// dcterms:issued, dcterms:created. The lastmod is the first of them
	// all, the news date the first published one, else dc:date.
	ext := func(prefix, name string) []dateCandidate {
		if v := firstExt(i.Extensions, prefix, name); uri.TrimSpace(v) != "" {
			return []dateCandidate{{what: prefix + ":" + name, raw: v}}
		}
		return nil
	}
	var dcDate []dateCandidate
	if dc := i.DublinCoreExt; dc != nil && len(dc.Date) > 0 {
		dcDate = []dateCandidate{{what: "dc:date", raw: dc.Date[0]}}
	}
	dcDate = append(dcDate, ext("dcterms", "date")...)
	if i.PubDate != "" {
		it.published = append(it.published, dateCandidate{what: "pubDate", raw: i.PubDate, parsed: i.PubDateParsed})
	}
	it.published = append(append(it.published, ext("dcterms", "issued")...), ext("dcterms", "created")...)
	it.dates = append(append(append(ext("atom", "updated"), ext("dcterms", "modified")...), dcDate...), it.published...)
	it.published = append(it.published, dcDate...)
	return it
}

// atomEntry maps an Atom entry: its alternate links in order; updated, then
// published.
func atomEntry(e *atom.Entry) item {
	// Plain text, the default, until setAtomTypes says otherwise.
	it := item{title: plainText(e.Title), summary: []text{plainText(e.Summary)}}
	if c := e.Content; c != nil && uri.TrimSpace(c.Src) == "" {
		it.summary = append(it.summary, plainText(c.Value))
	}
	ctx := it.addMRSS(e.Extensions, "")
	var rels []string
	for _, l := range e.Links {
		if uri.TrimSpace(l.Href) == "" {
			continue
		}
		switch {
		case isAlternate(l.Rel):
			it.locs = append(it.locs, candidate{what: "link", value: l.Href})
			if h := uri.TrimSpace(l.Hreflang); h != "" {
				it.alternates = append(it.alternates, alternateRef{hreflang: h, href: l.Href})
			}
			continue
		case strings.EqualFold(uri.TrimSpace(l.Rel), "enclosure"):
			it.addEnclosure("link rel=enclosure", l.Href, l.Type, ctx, videoRef{title: plainText(l.Title)})
		}
		rels = append(rels, l.Rel)
	}
	if len(rels) > 0 {
		it.why = "only rel=" + strings.Join(rels, ", rel=") + " links"
	}
	if e.Updated != "" {
		it.dates = append(it.dates, dateCandidate{what: "updated", raw: e.Updated, parsed: e.UpdatedParsed})
	}
	if e.Published != "" {
		it.dates = append(it.dates, dateCandidate{what: "published", raw: e.Published, parsed: e.PublishedParsed})
	}
	for i := len(it.dates) - 1; i >= 0; i-- { // published, then updated
		it.published = append(it.published, it.dates[i])
	}
	return it
}

// setAtomTypes marks the title, summary and content of an Atom entry as
// HTML when their type attributes, which gofeed does not keep, say so.
func (it *item) setAtomTypes(a atomTypes) {
	it.title.html = a.title
	if len(it.summary) > 0 {
		it.summary[0].html = a.summary
	}
	if len(it.summary) > 1 {
		it.summary[1].html = a.content
	}
}

// jsonItem maps a JSON Feed item: url, then id when it is an absolute
// http(s) URL, never external_url; date_modified, then date_published.
func jsonItem(i *jsonfeed.Item) item {
	it := item{
		title:   plainText(i.Title),
		summary: []text{plainText(i.Summary), plainText(i.ContentText), htmlText(i.ContentHTML)},
		lang:    i.Language,
	}
	it.addMedia(mediaImage, "image", i.Image, videoRef{})
	it.addMedia(mediaImage, "banner_image", i.BannerImage, videoRef{})
	if i.Attachments != nil {
		for _, a := range *i.Attachments {
			var d string
			if a.DurationInSeconds > 0 {
				d = strconv.FormatInt(a.DurationInSeconds, 10)
			}
			// The item's image is the video's thumbnail.
			it.addEnclosure("attachment", a.URL, a.MimeType, mrssContext{thumbnail: i.Image},
				videoRef{title: plainText(a.Title), duration: d})
		}
	}
	if uri.TrimSpace(i.URL) != "" {
		it.locs = append(it.locs, candidate{what: "url", value: i.URL})
	}
	if isAbsoluteHTTP(i.ID) {
		it.locs = append(it.locs, candidate{what: "id", value: i.ID, absolute: true})
	}
	if len(it.locs) == 0 && uri.TrimSpace(i.ExternalURL) != "" {
		it.why = "external_url is another site's page"
	}
	it.dates = append(it.dates,
		dateCandidate{what: "date_modified", raw: i.DateModified},
		dateCandidate{what: "date_published", raw: i.DatePublished})
	it.published = []dateCandidate{it.dates[1], it.dates[0]}
	return it
}
