package validate

import (
	"errors"
	"io"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/robots"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/internal/textlines"
)

const (
	hour        = time.Hour
	minuteSlack = time.Minute
)

// lines calls fn with each line of r as textlines.Reader gives it (the
// readers' line scanner): without its end of line, its number, and whether
// it was longer than textlines.MaxLength (then line is its start only).
// Read errors end the lines; the input reports them.
func lines(r io.Reader, fn func(line []byte, n int, long bool)) {
	lr := textlines.NewReader(r)
	for {
		line, long, err := lr.Next()
		if err != nil {
			return
		}
		fn(line, lr.Line(), long)
	}
}

// checkText checks a text sitemap: one absolute URL per line, lines taken
// as the text reader takes them (text.ParseLine).
func (d *doc) checkText(r io.Reader) {
	urls := 0
	lines(r, func(line []byte, n int, long bool) {
		kind, value, at := text.ParseLine(line, long)
		switch kind {
		case text.LineBlank:
			return
		case text.LineComment:
			d.reportAt(ruleTextLine, n, 1, "a comment line; a text sitemap holds only URLs")
			return
		case text.LineTooLong:
			d.reportAt(ruleLocTooLong, n, 1, "the line is longer than %d bytes", textlines.MaxLength)
			return
		}
		urls++
		if urls == formats.MaxURLs+1 {
			d.reportAt(ruleTooManyURLs, n, 1, "URL number %d: a text sitemap holds at most %d", urls, formats.MaxURLs)
		}
		d.checkLineURL(string(value), n, 1+at, "URL", usePage)
	})
	d.info.URLs = urls
}

// checkLineURL checks the URL of a line with the URL rules, and reports as
// an error a URL that the readers refuse (formats.ParseLoc, their rule)
// and the URL rules let pass: the readers skip it.
func (d *doc) checkLineURL(value string, line, col int, what string, use urlUse) (string, bool) {
	before := d.errors
	loc, ok := d.checkURL(value, line, col, what, use, false)
	if d.errors == before {
		if _, err := formats.ParseLoc(value, nil); err != nil {
			d.reportAt(ruleLocNotAbsolute, line, col, "%s %v; readers skip it", what, err)
			return loc, false
		}
	}
	return loc, ok
}

// checkRobots checks the Sitemap: lines of a robots.txt, taken as the
// robots.txt reader takes them (robots.SitemapValue), and follows them.
func (d *doc) checkRobots(r io.Reader) {
	type child struct {
		loc       string
		line, col int
	}
	var children []child
	lines(r, func(line []byte, n int, long bool) {
		value, at, ok := robots.SitemapValue(line)
		if !ok {
			return
		}
		d.info.URLs++
		if long {
			d.reportAt(ruleLocTooLong, n, 1, "the Sitemap: line is longer than %d bytes", textlines.MaxLength)
			return
		}
		col := 1 + at
		if loc, ok := d.checkLineURL(string(value), n, col, "Sitemap:", useRobots); ok && len(children) < maxChildren {
			children = append(children, child{loc, n, col})
		}
	})
	// Follow once the robots.txt has been read: its own findings come first.
	for _, c := range children {
		d.followChild(c.loc, c.line, c.col)
	}
}

// checkFeed checks a feed: its items' links as a sitemap's URLs.
func (d *doc) checkFeed(r io.Reader) {
	d.checkEntries(r, feed.Format, entryRules{skipped: ruleFeedItem, invalid: ruleFeedInvalid, item: "item"})
}

// entryRules are the rules a document read by its format's reader breaks,
// and what its entries are called in messages.
type entryRules struct {
	skipped, invalid *Rule
	item             string
}

// checkEntries checks a document by reading it with its format's reader:
// what the reader skips or ignores is a finding of rules.skipped, what
// stops it one of rules.invalid, and each entry's URL and date are checked
// as a sitemap's.
func (d *doc) checkEntries(r io.Reader, f *formats.Format, rules entryRules) {
	opts := formats.ReadOptions{Source: d.src.Name, Base: d.src.URL, Now: d.v.opts.Now,
		Warn: func(pe *formats.ParseError) {
			d.reportAt(rules.skipped, pe.Line, pe.Column, "%v", pe.Err)
		}}
	fr := f.NewReader(r, opts)
	for {
		e, err := fr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if d.stopped {
				break
			}
			line, col := 0, 0
			var pe *formats.ParseError
			if errors.As(err, &pe) {
				line, col, err = pe.Line, pe.Column, pe.Err
			}
			d.reportAt(rules.invalid, line, col, "%v", err)
			break
		}
		d.info.URLs++
		d.checkURL(e.Loc, 0, 0, rules.item+" link", usePage, false)
		if !e.LastMod.IsZero() && e.LastMod.Time().After(d.v.opts.Now.Add(minuteSlack)) {
			d.reportAt(ruleLastmodFuture, 0, 0, "the %s %s is dated %s, in the future", rules.item, clip(e.Loc), e.LastMod)
		}
	}
	if d.info.URLs > formats.MaxURLs {
		d.reportAt(ruleTooManyURLs, 0, 0, "%d %ss, more than %d", d.info.URLs, rules.item, formats.MaxURLs)
	}
}
