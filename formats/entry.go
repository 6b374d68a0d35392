// Package formats is the vocabulary shared by every reader and writer of
// feed2sitemap: the URL entry model, the Reader and Writer interfaces, the
// registry of formats, content sniffing, and the errors readers report.
//
// Each format lives in a subpackage (formats/xml, formats/text, formats/feed,
// formats/robots) that registers itself in its init function, in the way
// image/png registers with package image. A program switches formats on by
// importing them:
//
//	import (
//		"github.com/feed2sitemap/feed2sitemap/formats"
//		_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
//	)
//
// Readers are pull-style streams: Next returns one Entry at a time and io.EOF
// at the end, and can return an error part-way through an input. A reader
// that tells more than its entries (document-level elements, entries left
// out as no pages to list) is an ExtraReader. Open reads an input's
// content; a directory is an input too (Dir), opened by the format that
// reads it with that format's own options (html.OpenDir for a static
// site's pages).
package formats

import "github.com/feed2sitemap/feed2sitemap/internal/uri"

// Kind tells what an Entry points at.
type Kind uint8

const (
	// KindURL is a page: a <url> of a urlset, a feed item, a line of a text
	// sitemap.
	KindURL Kind = iota
	// KindSitemap is a child sitemap: a <sitemap> of a sitemap index, or a
	// Sitemap: line of a robots.txt.
	KindSitemap
)

// String returns "url" or "sitemap".
func (k Kind) String() string {
	if k == KindSitemap {
		return "sitemap"
	}
	return "url"
}

// Entry is one URL of a sitemap, feed or list, normalized from whatever
// format it was read from.
//
// Loc is always an absolute http or https URL, percent-encoded (ASCII only,
// host in punycode) as ParseLoc returns it. Every other field may be unknown:
// a zero LastMod, an empty ChangeFreq and an unset Priority mean the source
// did not say, and writers omit them.
type Entry struct {
	// Loc is the URL of the page, or of the child sitemap when Kind is
	// KindSitemap.
	Loc string
	// LastMod is when the page last changed; zero means unknown.
	LastMod LastMod
	// ChangeFreq is how often the page changes; empty means unknown.
	ChangeFreq ChangeFreq
	// Priority is the page's priority relative to the site's other pages.
	Priority Priority
	// Kind says whether Loc is a page or a child sitemap.
	Kind Kind
	// Ext holds extension data (images, videos, news, language
	// alternates); nil when the entry has none.
	Ext *Extensions
	// Title and Summary are the page's title and summary when the source
	// gave them (a feed item's title and description, as plain text);
	// empty otherwise. Sitemaps cannot hold them; feed writers use them.
	Title   string
	Summary string
}

// ChangeFreq is a sitemap changefreq value. The zero value means unknown.
type ChangeFreq string

// The changefreq values the protocol allows.
const (
	Always  ChangeFreq = "always"
	Hourly  ChangeFreq = "hourly"
	Daily   ChangeFreq = "daily"
	Weekly  ChangeFreq = "weekly"
	Monthly ChangeFreq = "monthly"
	Yearly  ChangeFreq = "yearly"
	Never   ChangeFreq = "never"
)

// ParseChangeFreq returns the ChangeFreq named by s, ignoring ASCII case and
// surrounding space, and false when s is not one of the protocol's values.
func ParseChangeFreq(s string) (ChangeFreq, bool) {
	switch c := ChangeFreq(asciiLower(uri.TrimSpace(s))); c {
	case Always, Hourly, Daily, Weekly, Monthly, Yearly, Never:
		return c, true
	}
	return "", false
}

// Priority is a sitemap priority between 0.0 and 1.0 that tells an absent
// priority from 0.0. It is stored in thousandths, the precision the model
// keeps. The zero value is absent.
type Priority struct {
	milli uint16 // value in thousandths, plus one; 0 = absent
}

// NewPriority returns the priority v, rounded to thousandths. It reports
// false when v is outside 0.0–1.0 or not a number.
func NewPriority(v float64) (Priority, bool) {
	if !(v >= 0 && v <= 1) {
		return Priority{}, false
	}
	return Priority{milli: uint16(v*1000+0.5) + 1}, true
}

// IsSet reports whether the source gave a priority.
func (p Priority) IsSet() bool { return p.milli != 0 }

// Value returns the priority, or 0.5 (the protocol's default) when unset.
func (p Priority) Value() float64 {
	if p.milli == 0 {
		return 0.5
	}
	return float64(p.milli-1) / 1000
}

// String formats the priority as the protocol writes it, with one to three
// decimals ("0.0", "0.5", "0.75"); it returns "" when unset.
func (p Priority) String() string {
	return string(p.AppendText(make([]byte, 0, 5)))
}

// AppendText appends the form String returns to b, without allocating when
// b has room.
func (p Priority) AppendText(b []byte) []byte {
	if p.milli == 0 {
		return b
	}
	m := int(p.milli - 1)
	start := len(b)
	b = append(b, byte('0'+m/1000), '.', byte('0'+m/100%10), byte('0'+m/10%10), byte('0'+m%10))
	for len(b) > start+3 && b[len(b)-1] == '0' {
		b = b[:len(b)-1]
	}
	return b
}

// Extensions holds the sitemap extension data of one entry. Readers that
// understand an extension fill it; writers that can hold it write it. The
// XML reader and writer carry every field losslessly, deprecated ones
// included.
type Extensions struct {
	// Images are the entry's image:image elements (at most 1,000).
	Images []Image
	// Videos are the entry's video:video elements.
	Videos []Video
	// News is the entry's news:news element, if any.
	News *News
	// Alternates are the entry's xhtml:link rel="alternate" language
	// versions, including the entry itself.
	Alternates []Alternate
	// Mobile is the obsolete <mobile:mobile/> marker. It is read and kept
	// when converting XML to XML; nothing generates it.
	Mobile bool
	// Foreign are the entry's elements in namespaces feed2sitemap does not
	// understand (a PageMap, say), and extension elements the model has no
	// field for, each kept verbatim as XML text, in document order. Each
	// is self-contained: the namespace declarations it needs are on its
	// own start tag, so it means the same wherever it is written. Formats
	// other than XML cannot hold them.
	Foreign []string
	// ForeignAt places the foreign elements among the extension elements,
	// so that XML written of XML keeps their order: ForeignAt[i] is how
	// many extension items (Items: images, videos, news, alternates, the
	// mobile marker, the order the XML writer writes them in) come before
	// Foreign[i]. Nil when every foreign element comes after them all;
	// else as long as Foreign, not decreasing, none over Items.
	ForeignAt []int
}

// ExtensionSet is a set of sitemap extensions, so that a writer can declare
// the namespaces a document uses before writing its entries.
type ExtensionSet uint8

// The extensions of an ExtensionSet.
const (
	ExtImage      ExtensionSet = 1 << iota // image:image
	ExtVideo                               // video:video
	ExtNews                                // news:news
	ExtAlternates                          // xhtml:link hreflang alternates
	ExtMobile                              // the obsolete mobile:mobile marker
	// ExtForeign is foreign elements (Extensions.Foreign): no namespace
	// to declare on the root, as they declare their own, but data a
	// format may or may not hold. Uses never holds it; Kinds does.
	ExtForeign

	// ExtAll is the set of every extension.
	ExtAll = ExtImage | ExtVideo | ExtNews | ExtAlternates | ExtMobile
)

// Uses returns the extensions x holds data for; none for a nil x. Foreign
// elements need no extension: they declare their own namespaces.
func (x *Extensions) Uses() ExtensionSet {
	var s ExtensionSet
	if x == nil {
		return s
	}
	if len(x.Images) > 0 {
		s |= ExtImage
	}
	if len(x.Videos) > 0 {
		s |= ExtVideo
	}
	if x.News != nil {
		s |= ExtNews
	}
	if len(x.Alternates) > 0 {
		s |= ExtAlternates
	}
	if x.Mobile {
		s |= ExtMobile
	}
	return s
}

// Kinds returns the kinds of extension data x holds: Uses, and ExtForeign
// when it holds foreign elements.
func (x *Extensions) Kinds() ExtensionSet {
	s := x.Uses()
	if x != nil && len(x.Foreign) > 0 {
		s |= ExtForeign
	}
	return s
}

// Names returns the names of the extensions in s, in the order of their
// constants: image, video, news, alternates, mobile, foreign.
func (s ExtensionSet) Names() []string {
	var names []string
	for i, name := range extensionNames {
		if s&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return names
}

// extensionNames are the names of the extensions, by bit.
var extensionNames = [...]string{"image", "video", "news", "alternates", "mobile", "foreign"}

// IsEmpty reports whether x holds nothing at all: no extension data and no
// foreign element. A nil x is empty.
func (x *Extensions) IsEmpty() bool {
	return x == nil || x.Uses() == 0 && len(x.Foreign) == 0
}

// Image is an image:image element. Only Loc matters to search engines today;
// the other fields are deprecated and kept only when converting XML to XML.
type Image struct {
	Loc         string // image:loc, the image's URL
	Caption     string // image:caption (deprecated)
	GeoLocation string // image:geo_location (deprecated)
	Title       string // image:title (deprecated)
	License     string // image:license, a URL (deprecated)
}

// Video is a video:video element. ThumbnailLoc, Title, Description and one of
// ContentLoc or PlayerLoc are required by the protocol. String fields hold
// the element's text as the source gave it (trimmed); an empty string means
// absent. Category, GalleryLoc, Prices, RequiresSubscription, Uploader,
// TVShow and the player_loc attributes are deprecated and kept only when
// converting XML to XML.
type Video struct {
	ThumbnailLoc string
	Title        string
	Description  string
	ContentLoc   string
	PlayerLoc    string
	// PlayerAllowEmbed and PlayerAutoplay are player_loc's allow_embed
	// ("yes" or "no") and autoplay attributes.
	PlayerAllowEmbed string
	PlayerAutoplay   string
	Duration         int // seconds, 1–28,800; 0 = unknown
	ExpirationDate   LastMod
	Rating           string // a decimal from 0.0 to 5.0
	// ContentSegments are the content_segment_loc elements.
	ContentSegments []VideoSegment
	ViewCount       string // a non-negative integer
	PublicationDate LastMod
	Tags            []string // at most 32
	Category        string
	FamilyFriendly  string // "yes" or "no"
	// Restriction is a space-separated list of ISO 3166 country codes;
	// RestrictionRelationship is "allow" or "deny".
	Restriction             string
	RestrictionRelationship string
	GalleryLoc              string
	GalleryTitle            string // gallery_loc's title attribute
	Prices                  []VideoPrice
	RequiresSubscription    string // "yes" or "no"
	Uploader                string
	UploaderInfo            string // uploader's info attribute, a URL
	TVShow                  *TVShow
	// Platform is a space-separated list of web, mobile and tv;
	// PlatformRelationship is "allow" or "deny".
	Platform             string
	PlatformRelationship string
	Live                 string // "yes" or "no"
	IDs                  []VideoID
}

// VideoSegment is a video:content_segment_loc element: the URL of one part
// of the video and its duration in seconds (0 = not given).
type VideoSegment struct {
	Loc      string
	Duration int
}

// VideoPrice is a video:price element: the price and its currency, type
// (purchase or rent) and resolution (sd or hd) attributes.
type VideoPrice struct {
	Value      string
	Currency   string
	Type       string
	Resolution string
}

// VideoID is a video:id element: an identifier of the video and its type
// attribute (tms:series, tms:program, rovi:series, rovi:program, freebase,
// url).
type VideoID struct {
	Type  string
	Value string
}

// TVShow is a video:tvshow element. ShowTitle and VideoType are required by
// the schema; SeasonNumber and EpisodeNumber are 0 when not given.
type TVShow struct {
	ShowTitle     string
	VideoType     string // full, preview, clip, interview, news or other
	EpisodeTitle  string
	SeasonNumber  int
	EpisodeNumber int
	PremierDate   LastMod
}

// News is a news:news element. PublicationName, PublicationLanguage,
// PublicationDate and Title are required by the protocol.
type News struct {
	PublicationName     string
	PublicationLanguage string
	Access              string // Subscription or Registration
	Genres              string // comma-separated: PressRelease, Satire, Blog, OpEd, Opinion, UserGenerated
	PublicationDate     LastMod
	Title               string
	Keywords            string
	StockTickers        string // up to five comma-separated EXCHANGE:SYMBOL
}

// Alternate is a language version of a page: <xhtml:link rel="alternate"
// hreflang="…" href="…"/>. Media is the link's media attribute, which
// names the media query of a separate mobile page; empty when absent.
type Alternate struct {
	Hreflang string
	Href     string
	Media    string
}

// Newer reports whether l was modified after than, where an unknown
// lastmod is older than any known one. It is the tie-breaker dedupe uses.
func (l LastMod) Newer(than LastMod) bool {
	if l.IsZero() || than.IsZero() {
		return !l.IsZero() && than.IsZero()
	}
	return l.Time().After(than.Time())
}
