// Package feed reads RSS 0.90–2.0, RSS 1.0 (RDF), Atom 0.3/1.0 and JSON
// Feed 1.0/1.1 documents as sitemap entries: each item of the feed becomes
// one entry of kind formats.KindURL, in the order of the feed. Importing the
// package registers the format as "feed".
//
// The reader parses with github.com/mmcdole/gofeed's format parsers and maps
// their raw types, as PROTOCOL.md ("Feeds as sources") lays down:
//
//	RSS 0.9x, 2.0 and 1.0 (RDF)
//	  loc      <link> (the first); else <guid> when isPermaLink is absent or
//	           "true" and it is an absolute http(s) URL; else an atom:link
//	           rel="alternate" or without rel
//	  lastmod  atom:updated, dcterms:modified, then dc:date (or
//	           dcterms:date); else pubDate, dcterms:issued,
//	           dcterms:created
//	Atom 1.0 and 0.3
//	  loc      the first link rel="alternate" or without rel; never self,
//	           enclosure, edit, related, service.post…
//	  lastmod  updated (0.3: modified); else published (0.3: issued)
//	JSON Feed 1.0 and 1.1
//	  loc      url; else id when it is an absolute http(s) URL; never
//	           external_url
//	  lastmod  date_modified; else date_published
//
// Comments, enclosures, source and wfw:commentRss URLs are never used as a
// loc. When a candidate is present but unusable, the next one is tried, with
// a warning.
//
// Relative links resolve against xml:base (gofeed applies it, nested ones
// resolved against their parents per RFC 3986), then against the feed's own
// link (the RSS channel <link>, the Atom feed's alternate link, the JSON
// Feed home_page_url) resolved against the feed's self link (Atom link
// rel="self", an RSS atom:link rel="self", the JSON Feed feed_url), then
// against the self link, then against ReadOptions.Base, the location the
// feed was read from (which also resolves a relative self link, and the
// feed's own link when there is no self link). A feed read from a file or
// standard input whose only absolute link is its self link thus keeps its
// relative entries. An item whose link is still not an absolute http(s)
// URL (a tag: URI, an at:// URI, a placeholder, a relative link with no base)
// or that has no link at all is skipped with a warning naming the item.
//
// A lastmod is never invented: no "now", and no feed-level date for items.
// A date keeps the precision and time zone it was written with (a date-only
// dc:date stays a date). RFC 822 dates are read with or without the day of
// the week and the seconds, with four- or two-digit years. Dates
// formats.ParseLastMod does not know are taken from gofeed's wider parser,
// in UTC, when they name their time zone. A time of day without a time
// zone, or with one neither knows, cannot be placed in time: its date, as
// written, is kept as a date-only lastmod, with a warning. A date whose day
// or month names are not English is dropped with a warning that names
// them, and so is any other value that is no date; the entry is kept.
//
// A feed cut short at the end (a download stopped part-way) still gives the
// items complete before the cut, then an error that matches
// formats.ErrDamaged, so that the caller may keep them; one cut before any
// complete item gives that error at once. A syntax error in the middle of an
// XML feed, or an end tag that matches no open element (which would end the
// feed early), gives the items complete before it, then an error that does
// not match formats.ErrDamaged: what was read of a malformed document is not
// to be trusted. Content after the root element is ignored with a warning.
// A JSON Feed must be whole. Inputs over MaxSize bytes, and XML past the
// limits of guard.go (nested more than MaxDepth elements deep, more than
// MaxNamespaces namespace declarations in scope, more than MaxAttributes
// attributes on an element, more than MaxItemElements elements in an
// item), are refused with an error naming the line and the limit: they
// would cost gofeed more than linear time or a large multiple of their size
// in memory.
//
// # Titles and summaries
//
// Entry.Title is the item's title (RSS title, else dc:title; Atom title;
// JSON title) and Entry.Summary its description (RSS description, else
// content:encoded, dc:description, itunes:summary, itunes:subtitle; Atom
// summary, else an inline content; JSON summary, else content_text, else
// content_html), as plain text: HTML markup removed (script and style
// content dropped) and entities decoded where the format carries HTML (RSS
// texts, Atom texts of type html or xhtml, content_html), every run of
// white space made one space, and cut at a word boundary to MaxTitle and
// MaxSummary characters. When ReadOptions.SkipTexts says they are not
// wanted, both are left empty, and not made (a video's title and
// description, and a news title, are made as without it).
//
// # Extensions
//
// Images, videos and language alternates come from the elements below;
// nothing is scraped out of item HTML (no <img>):
//
//	image      media:content of an image (medium="image", an image/* type,
//	           or an image file name), media:thumbnail not used as a
//	           video's thumbnail, an RSS enclosure or an Atom link
//	           rel="enclosure" of an image; JSON Feed image, banner_image
//	           and image attachments
//	video      media:content of a video (medium="video", a video/* type or
//	           a video file name) → content_loc; a Flash or text/html
//	           media:content, or a media:player → player_loc; an RSS
//	           enclosure or Atom link rel="enclosure" of a video, and a
//	           JSON Feed video attachment → content_loc. Thumbnail, title
//	           and description come from media:thumbnail, media:title and
//	           media:description inside the media:content, else its
//	           media:group, else the item's own media elements; title and
//	           description then fall back to the item's title and summary
//	           (a JSON Feed video's thumbnail is the item's image). HTML is
//	           stripped and they are cut to 100 and 2,048 characters.
//	           Duration: media:content duration, else itunes:duration (for
//	           enclosures), else a JSON attachment's duration_in_seconds,
//	           kept when 1–28,800 s.
//	hreflang   Atom link rel="alternate" hreflang="xx" (never RSS or JSON)
//
// Media URLs resolve like item links. Images are deduped by loc, at most
// formats.MaxImages per entry; videos by content_loc (by player_loc when they have
// none). A video is kept only when it has thumbnail_loc, title, description
// and content_loc or player_loc, and its content_loc is not the page
// itself; otherwise it is skipped with a warning naming what is missing.
// Audio enclosures are not used.
//
// Alternates list each hreflang link once, and the page itself with the
// entry's language (the entry's xml:lang or that of an element around it,
// else the feed's language; xml:lang="" says unknown) when it is not among
// them; a link to the page itself with hreflang="und" (undetermined) says
// the same. When that language is unknown the page is left out, with a
// warning: a language is never guessed.
//
// When ReadOptions.NewsName is set, an item published (RSS pubDate,
// dcterms:issued, dcterms:created, else dc:date; Atom published, else
// updated; JSON date_published, else date_modified) in the NewsAge (48 hours) before ReadOptions.Now gets news
// data: that publication name, the feed's language as Google News writes it
// ("en" for en-US, "zh-cn" or "zh-tw" for Chinese), that
// date and the item's title. A feed without a language gives one warning
// and no news; an item without a title, a warning and no news.
//
// # Writers
//
// The package also registers the write-only formats "rss" (RSS 2.0, .rss)
// and "atom" (Atom 1.0, .atom). Their Writer writes the entries in the
// order given, one item each, streaming; the CLI orders them newest first.
// Every value is escaped and the output is UTF-8, and the same entries
// always give the same bytes (but for an Atom feed none of whose entries
// has a lastmod, whose updated is the time of writing).
//
//	RSS channel  title: FeedInfo.Title, else the host of the site (see
//	             below); link: FeedInfo.Link, else the site; description:
//	             FeedInfo.Description, else the title
//	RSS item     title: Entry.Title, else the URL's path (and query),
//	             plain text escaped once (as the channel title; the
//	             descriptions are HTML, and so escaped twice);
//	             link and guid isPermaLink="true": the loc; pubDate: the
//	             lastmod in RFC 1123 with numeric zone, left out when
//	             unknown; description: Entry.Summary when known; one
//	             enclosure (RSS allows one): the first video file, else the
//	             first image, whose type the file name tells, with
//	             length="0" (unknown); media:content for every image and
//	             video
//	Atom feed    id: FeedInfo.ID, else the link; title as for RSS; subtitle:
//	             FeedInfo.Description; updated: the first entry's lastmod
//	             (the newest when entries come newest first), else the time
//	             of writing; link rel="alternate": the link; author: the
//	             site's host
//	Atom entry   id: the loc; title as for RSS; updated: the lastmod, else
//	             the news publication date, else the feed's updated (said
//	             once, through WriteOptions.Warn, at Close); link
//	             rel="alternate": the loc (with its hreflang when there
//	             are no other languages); with hreflang alternates, the
//	             loc without hreflang first, the other languages, then the
//	             loc again with its hreflang ("und" when unknown), so
//	             that readers taking the first alternate (gofeed) and
//	             the last (feedparser) both get the page; link rel="enclosure" for every
//	             image and video file; summary type="text": Entry.Summary;
//	             media:content for every image and video
//
// The site is FeedInfo.Link, else FeedInfo.ID when it is an http(s) URL,
// else the first entry's loc, reduced to scheme://host/. News data, and
// video fields other than those above, are not written.
package feed

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// Format is the registered feed format.
var Format = formats.Register(&formats.Format{
	Name:        "feed",
	Description: "RSS 0.90–2.0, RSS 1.0 (RDF), Atom 0.3/1.0 and JSON Feed 1.0/1.1",
	Detect:      detect,
	NewReader:   func(r io.Reader, o formats.ReadOptions) formats.Reader { return NewReader(r, o) },
	Carries:     formats.ExtImage | formats.ExtVideo | formats.ExtNews | formats.ExtAlternates,
	Feed:        true,
	NewestFirst: true,
})

// detect accepts XML whose root element is rss, RDF or feed, and JSON with a
// jsonfeed.org version.
func detect(prefix []byte) bool {
	s := sniff.Of(prefix)
	switch s.Content {
	case sniff.XML:
		return isFeedRoot(s.Root)
	case sniff.JSON:
		return s.JSONFeedVersion != ""
	}
	return false
}

// isFeedRoot reports whether the local name of a root element is one of a
// feed, in any case as gofeed accepts it.
func isFeedRoot(local string) bool {
	return strings.EqualFold(local, "rss") || strings.EqualFold(local, "rdf") || strings.EqualFold(local, "feed")
}

// Reader reads the items of a feed as entries. The whole feed is read and
// checked on the first call to Next, and parsed then; a large one (over
// 1 MiB, with only white space between its items) is handed to gofeed
// 1 MiB of items at a time, as Next needs them, so that the memory it
// takes stays its own size and a bounded amount besides.
type Reader struct {
	src     io.Reader
	opts    formats.ReadOptions // Strict unset: see NewReader
	strict  bool                // strict reading: at most formats.MaxURLs entries
	entries int                 // entries returned

	parsed bool
	items  []item // what the feed's items say, in feed order
	next   int    // index in items of the next item to map
	// chunks reads a large feed's items a piece at a time (see chunk.go):
	// items are then those of the current piece, which starts with the
	// first-th item of the feed. chunks is nil when all are read.
	chunks *chunker
	first  int
	base   *url.URL
	lang   string  // the feed's language; "" when it does not say
	tail   *damage // damage found when parsing, reported after the items
	// newsWarned is set once the missing language news needs was reported.
	newsWarned bool
	// newsLangWarned holds the language tags already reported as written
	// as another news language (en-US as en).
	newsLangWarned map[string]bool
	err            error // sticky: io.EOF or the error that ended the stream
}

// NewReader returns a reader of the feed r, which must be UTF-8 (as
// formats.Open delivers it). Warnings name opts.Source and the item's number
// and, for XML, its line.
//
// Its warnings stay warnings in strict mode: an item a sitemap cannot use
// (no usable link) is skipped, and a field it cannot use (a date without a
// time zone) dropped, with a warning, as the protocol has it; validate
// rates them as warnings (feed-item). Strict reading refuses what
// validate rates as errors: damage to the document, as lenient reading
// does, and more than formats.MaxURLs items.
func NewReader(r io.Reader, opts formats.ReadOptions) *Reader {
	rd := &Reader{src: r, opts: opts, strict: opts.Strict}
	rd.opts.Strict = false
	return rd
}

// Next returns the entry of the next usable item, or io.EOF after the last
// one. Items it cannot use are reported to the warning handler and skipped,
// in strict mode too (see NewReader). Damage to the
// document is returned as an error after the entries read before it (see the
// package documentation). Errors are sticky.
func (r *Reader) Next() (formats.Entry, error) {
	if r.err != nil {
		return formats.Entry{}, r.err
	}
	if !r.parsed {
		r.parsed = true
		if err := r.parse(); err != nil {
			r.err = err
			return formats.Entry{}, err
		}
	}
	for r.next < len(r.items) || r.chunks != nil {
		if r.next == len(r.items) {
			if err := r.nextPiece(); err != nil {
				r.err = err
				return formats.Entry{}, err
			}
			continue
		}
		it := &r.items[r.next]
		r.next++
		e, ok, err := r.entry(r.first+r.next, it)
		*it = item{} // what gofeed gave of it may go
		if err != nil {
			r.err = err
			return formats.Entry{}, err
		}
		if ok {
			if r.entries++; r.strict && r.entries > formats.MaxURLs {
				r.err = r.opts.TooManyURLs()
				return formats.Entry{}, r.err
			}
			return e, nil
		}
	}
	r.err = io.EOF
	if d := r.tail; d != nil {
		r.tail = nil
		if d.kind != warned {
			r.err = r.damageError(d)
		} else if werr := r.opts.Warning(d.line, d.col, false, errors.New(d.msg)); werr != nil {
			r.err = werr
		}
	}
	return formats.Entry{}, r.err
}

// parse reads the whole input and parses it into r.items.
func (r *Reader) parse() error {
	in, err := readInput(io.LimitReader(r.src, MaxSize+1))
	if err != nil {
		return &formats.ParseError{Source: r.opts.Source, Err: fmt.Errorf("reading feed: %w", err)}
	}
	if in.Len() > MaxSize {
		return r.opts.Errorf(0, 0, "feed larger than %d MiB: refused (feeds are parsed whole)", MaxSize>>20)
	}
	if bom := "\xef\xbb\xbf"; string(in.slice(0, min(len(bom), in.Len()))) == bom {
		in.trimFront(len(bom))
	}
	body := in.skip(0, " \t\r\n\f")
	if body == in.Len() {
		return r.opts.Errorf(0, 0, "%v", formats.ErrEmpty)
	}
	if c := in.slice(body, body+1)[0]; c == '{' || c == '[' {
		return r.parseJSON(in.slice(body, in.Len()))
	}
	return r.parseXML(in)
}

// resolveBase returns the base against which the feed's relative item links
// resolve. The anchor is the feed's self link (Atom link rel="self", an RSS
// atom:link rel="self", the JSON Feed feed_url) when it is, or resolves
// against opts.Base to, an absolute http(s) URL; else opts.Base, the
// location the feed was read from. The base is the feed's own link resolved
// against that anchor when that gives an absolute http(s) URL; else the self
// link; else opts.Base. (xml:base, which gofeed applies, comes first.)
func (r *Reader) resolveBase(selfLinks, feedLinks []string) *url.URL {
	self := firstAbsolute(selfLinks, r.opts.Base)
	anchor := r.opts.Base
	if self != nil {
		anchor = self
	}
	if u := firstAbsolute(feedLinks, anchor); u != nil {
		return u
	}
	if self != nil {
		return self
	}
	return r.opts.Base
}

// firstAbsolute returns the first of links that is, or resolves against
// base to, an absolute http(s) URL; nil when none does.
func firstAbsolute(links []string, base *url.URL) *url.URL {
	for _, l := range links {
		if uri.TrimSpace(l) == "" {
			continue
		}
		loc, err := formats.ParseLoc(l, base)
		if err != nil {
			continue
		}
		if u, err := url.Parse(loc); err == nil {
			return u
		}
	}
	return nil
}
