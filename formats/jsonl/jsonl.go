// Package jsonl reads and writes JSON Lines: one JSON object per line, one
// line per entry, holding every field of the entry model (formats.Entry),
// extension data included. It is the format for piping entries into jq and
// other tools, and back: XML read, written as JSON Lines and written as XML
// again gives the same bytes as XML written directly. Importing the package
// registers the format as "jsonl", written to files named *.jsonl.
//
// # Keys
//
// Keys are lowercase and stable. A key that is absent means the source did
// not say (a zero or empty value is never written); a reader ignores keys
// it does not know, with a warning.
//
//	loc         the page's URL (required)
//	kind        "sitemap" for a child sitemap of an index; absent for a page ("url")
//	lastmod     W3C Datetime at the precision the source gave: "2024",
//	            "2024-05", "2024-05-06", "2024-05-06T10:00Z",
//	            "2024-05-06T10:00:00+02:00", "2024-05-06T10:00:00.25Z"
//	changefreq  always, hourly, daily, weekly, monthly, yearly or never
//	priority    a number from 0.0 to 1.0, to the thousandth
//	title       the page's title (from a feed item), plain text
//	summary     the page's summary (from a feed item), plain text
//	images      [image:image]
//	videos      [video:video]
//	news        news:news
//	alternates  [xhtml:link rel="alternate"]
//	mobile      true for the obsolete mobile:mobile marker
//	foreign     [string]: elements of other namespaces (a PageMap, say), each
//	            one self-contained XML element, verbatim
//	foreign_at  [number]: where each foreign element stands among the
//	            extension items (formats.Extensions.ForeignAt); absent when
//	            they all come after them
//
// The extension data (images to mobile) is written as the extension
// schemas have it, walking the project's declaration of them, so that a
// field added there is carried here too. Each element is a key named as the
// schema names it (thumbnail_loc, publication_date, tag): a group
// (video:video, news:publication, video:tvshow) is an object of its
// children; an element with attributes is an object of "value" (its text)
// and its attributes, as {"value": "https://…/player", "allow_embed": "yes"}
// for video:player_loc, {"value": "1.99", "currency": "EUR", "type": "rent"}
// for a video:price and {"hreflang": "de", "href": "https://…"} for an
// alternate; any other element is its value: a string, a JSON number for
// a whole number (duration, season_number), a date as lastmod is written.
// An element that may repeat is an array of those (tag, price, id,
// content_segment_loc). For example:
//
//	{"loc":"https://example.com/v","videos":[{"thumbnail_loc":"https://example.com/t.jpg",
//	 "title":"Grilling","description":"How to","content_loc":"https://example.com/v.mp4",
//	 "duration":600,"tag":["steak","bbq"],"restriction":{"value":"IE GB","relationship":"allow"}}],
//	 "news":{"publication":{"name":"Daily","language":"en"},"publication_date":"2024-05-06","title":"Grilling"}}
//
// A document may start with a head line, {"head": ["<rs:md …/>", …]}: the
// document-level elements of an XML sitemap (ResourceSync's rs:md and
// rs:ln), each a self-contained XML element. The reader gives them through
// Head (formats.ExtraReader); the writer writes the line when
// formats.WriteOptions.Head holds any.
//
// # Writing
//
// The Encoder renders each entry on its own, so that a set written as JSON
// Lines is split into files at the protocol's limits as a text sitemap is,
// the parts listed in an XML sitemap index; with --one-file it is one file
// whatever its size. Locs are written as they were read, not tidied (a
// feed item's fragment stays): the format carries the model, not a
// sitemap. Kind "sitemap" entries name further documents, which are
// followed like those of a sitemap index.
//
// # Reading
//
// The reader streams, one line at a time, each at most MaxLineLength
// bytes. Lines end with LF or CRLF; blank lines are skipped. A line that is
// not a JSON object, has no loc or a bad one is skipped with a warning
// naming its line; a bad value is dropped with a warning and its entry
// kept. Values are held to the rules of every reader: URLs through
// formats.ParseLoc, dates through formats.ParseLastMod, extension values
// by the checks the extension schema declares, and Extensions.Complete.
// Content is recognized as JSON Lines when it is JSON but not a JSON Feed;
// a document whose first line is neither an entry nor the head line is not
// JSON Lines of entries, and gives an error wrapping
// formats.ErrUnknownFormat.
package jsonl

import (
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
)

// Format is the registered JSON Lines format.
var Format = formats.Register(&formats.Format{
	Name:        "jsonl",
	Description: "JSON Lines: one JSON object per entry with every field, extensions included, for jq and other tools",
	Detect:      detect,
	NewReader:   func(r io.Reader, o formats.ReadOptions) formats.Reader { return NewReader(r, o) },
	NewEncoder:  func(o formats.WriteOptions) formats.Encoder { return NewEncoder(o) },
	Extensions:  []string{".jsonl"},
	Carries:     formats.ExtAll | formats.ExtForeign,
	Index:       "xml",
	OneFile:     true,
	Nests:       true,
})

// detect accepts JSON that is not a JSON Feed: the reader tells JSON Lines
// of entries from other JSON by its first line.
func detect(prefix []byte) bool {
	s := sniff.Of(prefix)
	return s.Content == sniff.JSON && s.JSONFeedVersion == ""
}
