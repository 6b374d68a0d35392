package feed

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/mmcdole/gofeed/atom"
	ext "github.com/mmcdole/gofeed/extensions"
	jsonfeed "github.com/mmcdole/gofeed/json"
	"github.com/mmcdole/gofeed/rss"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// item is what one feed item says about its page, whatever the format: the
// candidates for loc and for lastmod, each in order of precedence.
type item struct {
	title string
	line  int // line of the item in the input; 0 when unknown
	locs  []candidate
	dates []dateCandidate
	// why tells, when locs is empty, why the item has no link.
	why string
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
	return formats.Entry{Loc: loc, LastMod: lastmod, Kind: formats.KindURL}, true, nil
}

// name names the nth item for a message: `item 3 ("Title")`.
func (it *item) name(n int) string {
	t := strings.Join(strings.Fields(it.title), " ")
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
			loc, err = formats.ParseLoc(c.value, nil)
		} else {
			loc, err = formats.ParseLoc(c.value, r.base)
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
// candidate that is a date; a zero LastMod when it has none. A present but
// unrecognized date is reported with a warning.
func (r *Reader) lastmod(n int, it *item) (formats.LastMod, error) {
	var bad []string
	for _, d := range it.dates {
		raw := formats.TrimSpace(d.raw)
		if raw == "" {
			continue
		}
		lm, ok := parseDate(raw, d.parsed)
		if !ok {
			bad = append(bad, fmt.Sprintf("%s %q", d.what, raw))
			continue
		}
		if len(bad) > 0 {
			werr := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: %s is not a date with a known time zone; used its %s",
				it.name(n), strings.Join(bad, " and "), d.what))
			if werr != nil {
				return formats.LastMod{}, werr
			}
		}
		return lm, nil
	}
	if len(bad) > 0 {
		werr := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: lastmod dropped: %s is not a date with a known time zone",
			it.name(n), strings.Join(bad, " and ")))
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
)

// parseDate reads a feed date. It tries formats.ParseLastMod, which keeps
// the precision and zone of W3C Datetime and RFC 822 dates, then gofeed's
// wider reading when it is unambiguous: a date-time that names its zone
// (taken in UTC, to the second), or a date alone with a month name or a
// leading year (taken as a date). A time of day without a zone, or a
// numeric day/month order that may be either, is refused.
func parseDate(raw string, parsed *time.Time) (formats.LastMod, bool) {
	if lm, err := formats.ParseLastMod(raw); err == nil {
		return lm, true
	}
	if parsed == nil || parsed.IsZero() {
		return formats.LastMod{}, false
	}
	if timeOfDay.MatchString(raw) {
		if explicitZone.MatchString(raw) {
			return formats.NewLastMod(parsed.UTC(), formats.PrecisionSecond), true
		}
		return formats.LastMod{}, false
	}
	if monthName.MatchString(raw) || yearFirst.MatchString(raw) {
		y, m, d := parsed.Date()
		return formats.NewLastMod(time.Date(y, m, d, 0, 0, 0, 0, time.UTC), formats.PrecisionDay), true
	}
	return formats.LastMod{}, false
}

// isAbsoluteHTTP reports whether s, trimmed, starts with an http or https
// scheme.
func isAbsoluteHTTP(s string) bool {
	s = formats.TrimSpace(s)
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
	rel = formats.TrimSpace(rel)
	return rel == "" || strings.EqualFold(rel, "alternate") ||
		strings.EqualFold(rel, "http://www.iana.org/assignments/relation/alternate")
}

// rssItem maps an RSS item: <link>s in order, then a permalink <guid>, then
// atom:link alternates; atom:updated, dc:date, then pubDate.
func rssItem(i *rss.Item) item {
	it := item{title: i.Title}
	links := i.Links
	if len(links) == 0 && i.Link != "" {
		links = []string{i.Link}
	}
	for _, l := range links {
		if formats.TrimSpace(l) != "" {
			it.locs = append(it.locs, candidate{what: "link", value: l})
		}
	}
	if g := i.GUID; g != nil && formats.TrimSpace(g.Value) != "" {
		perma := formats.TrimSpace(g.IsPermalink)
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
		if href := l.Attrs["href"]; formats.TrimSpace(href) != "" && isAlternate(l.Attrs["rel"]) {
			it.locs = append(it.locs, candidate{what: "atom:link", value: href})
		}
	}
	if u := firstExt(i.Extensions, "atom", "updated"); u != "" {
		it.dates = append(it.dates, dateCandidate{what: "atom:updated", raw: u})
	}
	if dc := i.DublinCoreExt; dc != nil && len(dc.Date) > 0 {
		it.dates = append(it.dates, dateCandidate{what: "dc:date", raw: dc.Date[0]})
	}
	if i.PubDate != "" {
		it.dates = append(it.dates, dateCandidate{what: "pubDate", raw: i.PubDate, parsed: i.PubDateParsed})
	}
	return it
}

// atomEntry maps an Atom entry: its alternate links in order; updated, then
// published.
func atomEntry(e *atom.Entry) item {
	it := item{title: e.Title}
	var rels []string
	for _, l := range e.Links {
		if formats.TrimSpace(l.Href) == "" {
			continue
		}
		if isAlternate(l.Rel) {
			it.locs = append(it.locs, candidate{what: "link", value: l.Href})
		} else {
			rels = append(rels, l.Rel)
		}
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
	return it
}

// jsonItem maps a JSON Feed item: url, then id when it is an absolute
// http(s) URL, never external_url; date_modified, then date_published.
func jsonItem(i *jsonfeed.Item) item {
	it := item{title: i.Title}
	if formats.TrimSpace(i.URL) != "" {
		it.locs = append(it.locs, candidate{what: "url", value: i.URL})
	}
	if isAbsoluteHTTP(i.ID) {
		it.locs = append(it.locs, candidate{what: "id", value: i.ID, absolute: true})
	}
	if len(it.locs) == 0 && formats.TrimSpace(i.ExternalURL) != "" {
		it.why = "external_url is another site's page"
	}
	it.dates = append(it.dates,
		dateCandidate{what: "date_modified", raw: i.DateModified},
		dateCandidate{what: "date_published", raw: i.DatePublished})
	return it
}
