package extschema

import (
	"unsafe"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// The namespaces of the extensions.
const (
	ImageSpace  = "http://www.google.com/schemas/sitemap-image/1.1"
	VideoSpace  = "http://www.google.com/schemas/sitemap-video/1.1"
	NewsSpace   = "http://www.google.com/schemas/sitemap-news/0.9"
	XHTMLSpace  = "http://www.w3.org/1999/xhtml"
	MobileSpace = "http://www.google.com/schemas/sitemap-mobile/1.0"
)

// The items of each table, as their structs.
func img(p unsafe.Pointer) *formats.Image { return (*formats.Image)(p) }
func vid(p unsafe.Pointer) *formats.Video { return (*formats.Video)(p) }
func seg(p unsafe.Pointer) *formats.VideoSegment {
	return (*formats.VideoSegment)(p)
}
func price(p unsafe.Pointer) *formats.VideoPrice { return (*formats.VideoPrice)(p) }
func vidID(p unsafe.Pointer) *formats.VideoID    { return (*formats.VideoID)(p) }
func tv(p unsafe.Pointer) *formats.TVShow        { return (*formats.TVShow)(p) }
func news(p unsafe.Pointer) *formats.News        { return (*formats.News)(p) }
func alt(p unsafe.Pointer) *formats.Alternate    { return (*formats.Alternate)(p) }

// yesNo is the check of the yes or no values.
var yesNo = Field{Check: vocab.IsYesNo, Want: "yes or no", Example: "yes"}

// with returns f with the check, want and example of c.
func with(f Field, c Field) Field {
	f.Check, f.Want, f.Example = c.Check, c.Want, c.Example
	return f
}

// relationship is the relationship attribute of video:restriction and
// video:platform, reached by get.
func relationship(get func(item unsafe.Pointer) *string) []Attr {
	return []Attr{{Name: "relationship", Required: true, Qualifies: true, Check: vocab.IsRelationship, Example: "deny", TextOf: get}}
}

// Image is image:image (sitemap-image/1.1).
var Image = &Extension{Space: ImageSpace, Prefix: "image", Set: formats.ExtImage, Field: Field{
	Name: "image", Kind: Group, Max: formats.MaxImages,
	Items:   slice(func(x *formats.Extensions) *[]formats.Image { return &x.Images }),
	Missing: func(p unsafe.Pointer) []string { return img(p).Missing() },
	Fields: []Field{
		{Name: "loc", Kind: Loc, Min: 1, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &img(p).Loc }},
		{Name: "caption", Max: 1, Deprecated: true, TextOf: func(p unsafe.Pointer) *string { return &img(p).Caption }},
		{Name: "geo_location", Max: 1, Deprecated: true, TextOf: func(p unsafe.Pointer) *string { return &img(p).GeoLocation }},
		{Name: "title", Max: 1, Deprecated: true, TextOf: func(p unsafe.Pointer) *string { return &img(p).Title }},
		{Name: "license", Kind: Loc, Max: 1, Deprecated: true, TextOf: func(p unsafe.Pointer) *string { return &img(p).License }},
	},
}}

// Video is video:video (sitemap-video/1.1).
var Video = &Extension{Space: VideoSpace, Prefix: "video", Set: formats.ExtVideo, Field: Field{
	Name: "video", Kind: Group,
	Items:   slice(func(x *formats.Extensions) *[]formats.Video { return &x.Videos }),
	Missing: func(p unsafe.Pointer) []string { return vid(p).Missing() },
	Fields: []Field{
		{Name: "thumbnail_loc", Kind: Loc, Min: 1, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).ThumbnailLoc }},
		{Name: "title", Min: 1, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).Title }},
		{Name: "description", Min: 1, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).Description }},
		{Name: "content_loc", Kind: Loc, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).ContentLoc }},
		{Name: "player_loc", Kind: Loc, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).PlayerLoc }, Attrs: []Attr{
			{Name: "allow_embed", Check: yesNo.Check, Want: yesNo.Want, Example: yesNo.Example, Deprecated: true,
				TextOf: func(p unsafe.Pointer) *string { return &vid(p).PlayerAllowEmbed }},
			{Name: "autoplay", Deprecated: true, TextOf: func(p unsafe.Pointer) *string { return &vid(p).PlayerAutoplay }},
		}},
		{Name: "duration", Kind: Int, Max: 1, Lo: 0, Hi: 28800, IntOf: func(p unsafe.Pointer) *int { return &vid(p).Duration }},
		{Name: "expiration_date", Kind: Date, Max: 1, DateOf: func(p unsafe.Pointer) *formats.LastMod { return &vid(p).ExpirationDate }},
		{Name: "rating", Kind: Decimal, Max: 1, Lo: 0, Hi: 5, Want: "a number from 0.0 to 5.0", Example: "4.2",
			TextOf: func(p unsafe.Pointer) *string { return &vid(p).Rating }},
		{Name: "content_segment_loc", Kind: Loc,
			Items:  slice(func(v *formats.Video) *[]formats.VideoSegment { return &v.ContentSegments }),
			TextOf: func(p unsafe.Pointer) *string { return &seg(p).Loc },
			Attrs:  []Attr{{Name: "duration", Kind: Int, Lo: 0, Hi: 28800, IntOf: func(p unsafe.Pointer) *int { return &seg(p).Duration }}}},
		{Name: "view_count", Kind: Count, Max: 1, Want: "a whole number", Example: "12345", TextOf: func(p unsafe.Pointer) *string { return &vid(p).ViewCount }},
		{Name: "publication_date", Kind: Date, Max: 1, DateOf: func(p unsafe.Pointer) *formats.LastMod { return &vid(p).PublicationDate }},
		{Name: "tag", Max: 32, Items: slice(func(v *formats.Video) *[]string { return &v.Tags }), TextOf: self},
		{Name: "category", Max: 1, Deprecated: true, TextOf: func(p unsafe.Pointer) *string { return &vid(p).Category }},
		with(Field{Name: "family_friendly", Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).FamilyFriendly }}, yesNo),
		{Name: "restriction", Max: 1, Check: vocab.IsCountryList, Want: `a list of country codes ("IE GB") with relationship allow or deny`,
			Example: "IE GB", TextOf: func(p unsafe.Pointer) *string { return &vid(p).Restriction },
			Attrs: relationship(func(p unsafe.Pointer) *string { return &vid(p).RestrictionRelationship })},
		{Name: "gallery_loc", Kind: Loc, Max: 1, Deprecated: true, TextOf: func(p unsafe.Pointer) *string { return &vid(p).GalleryLoc },
			Attrs: []Attr{{Name: "title", TextOf: func(p unsafe.Pointer) *string { return &vid(p).GalleryTitle }}}},
		{Name: "price", Deprecated: true, Want: "an ISO 4217 code, purchase or rent, sd or hd",
			Items:  slice(func(v *formats.Video) *[]formats.VideoPrice { return &v.Prices }),
			TextOf: func(p unsafe.Pointer) *string { return &price(p).Value },
			Attrs: []Attr{
				{Name: "currency", Qualifies: true, Check: vocab.IsCurrency, Example: "EUR", TextOf: func(p unsafe.Pointer) *string { return &price(p).Currency }},
				{Name: "type", Qualifies: true, Check: vocab.IsPriceType, Example: "rent", TextOf: func(p unsafe.Pointer) *string { return &price(p).Type }},
				{Name: "resolution", Qualifies: true, Check: vocab.IsPriceResolution, Example: "hd", TextOf: func(p unsafe.Pointer) *string { return &price(p).Resolution }},
			}},
		with(Field{Name: "requires_subscription", Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).RequiresSubscription }}, yesNo),
		{Name: "uploader", Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).Uploader },
			Attrs: []Attr{{Name: "info", Kind: Loc, TextOf: func(p unsafe.Pointer) *string { return &vid(p).UploaderInfo }}}},
		{Name: "tvshow", Kind: Group, Max: 1, Deprecated: true,
			Items:   optional(func(v *formats.Video) **formats.TVShow { return &v.TVShow }),
			Missing: func(p unsafe.Pointer) []string { return tv(p).Missing() },
			Fields: []Field{
				{Name: "show_title", Min: 1, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &tv(p).ShowTitle }},
				{Name: "video_type", Min: 1, Max: 1, Check: vocab.IsVideoType, Want: "full, preview, clip, interview, news or other",
					Example: "full", TextOf: func(p unsafe.Pointer) *string { return &tv(p).VideoType }},
				{Name: "episode_title", Max: 1, TextOf: func(p unsafe.Pointer) *string { return &tv(p).EpisodeTitle }},
				{Name: "season_number", Kind: Int, Max: 1, Lo: 1, Hi: 1<<31 - 1, IntOf: func(p unsafe.Pointer) *int { return &tv(p).SeasonNumber }},
				{Name: "episode_number", Kind: Int, Max: 1, Lo: 1, Hi: 1<<31 - 1, IntOf: func(p unsafe.Pointer) *int { return &tv(p).EpisodeNumber }},
				{Name: "premier_date", Kind: Date, Max: 1, DateOf: func(p unsafe.Pointer) *formats.LastMod { return &tv(p).PremierDate }},
			}},
		{Name: "platform", Max: 1, Check: vocab.IsPlatformList, Want: "a list of web, mobile and tv with relationship allow or deny",
			Example: "web tv", TextOf: func(p unsafe.Pointer) *string { return &vid(p).Platform },
			Attrs: relationship(func(p unsafe.Pointer) *string { return &vid(p).PlatformRelationship })},
		with(Field{Name: "live", Max: 1, TextOf: func(p unsafe.Pointer) *string { return &vid(p).Live }}, yesNo),
		{Name: "id", Want: "tms:series, tms:program, rovi:series, rovi:program, freebase or url",
			Items:  slice(func(v *formats.Video) *[]formats.VideoID { return &v.IDs }),
			TextOf: func(p unsafe.Pointer) *string { return &vidID(p).Value },
			Attrs: []Attr{{Name: "type", Required: true, Qualifies: true, Check: vocab.IsVideoIDType, Example: "url",
				TextOf: func(p unsafe.Pointer) *string { return &vidID(p).Type }}}},
	},
}}

// News is news:news (sitemap-news/0.9).
var News = &Extension{Space: NewsSpace, Prefix: "news", Set: formats.ExtNews, Field: Field{
	Name: "news", Kind: Group, Max: 1,
	Items:   optional(func(x *formats.Extensions) **formats.News { return &x.News }),
	Missing: func(p unsafe.Pointer) []string { return news(p).Missing() },
	Fields: []Field{
		{Name: "publication", Kind: Group, Min: 1, Max: 1, Fields: []Field{
			{Name: "name", Min: 1, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &news(p).PublicationName }},
			{Name: "language", Min: 1, Max: 1, Check: vocab.IsNewsLanguage, Want: "an ISO 639 code (en, zh-cn, zh-tw)", Example: "en",
				TextOf: func(p unsafe.Pointer) *string { return &news(p).PublicationLanguage }},
		}},
		{Name: "access", Max: 1, Check: vocab.IsNewsAccess, Want: "Subscription or Registration", Example: "Subscription",
			TextOf: func(p unsafe.Pointer) *string { return &news(p).Access }},
		{Name: "genres", Max: 1, Check: vocab.IsNewsGenres, Want: "a list of PressRelease, Satire, Blog, OpEd, Opinion and UserGenerated",
			Example: "Blog, OpEd", TextOf: func(p unsafe.Pointer) *string { return &news(p).Genres }},
		{Name: "publication_date", Kind: Date, Min: 1, Max: 1, DateOf: func(p unsafe.Pointer) *formats.LastMod { return &news(p).PublicationDate }},
		{Name: "title", Min: 1, Max: 1, TextOf: func(p unsafe.Pointer) *string { return &news(p).Title }},
		{Name: "keywords", Max: 1, TextOf: func(p unsafe.Pointer) *string { return &news(p).Keywords }},
		{Name: "stock_tickers", Max: 1, Check: vocab.IsStockTickers, Want: "at most five EXCHANGE:SYMBOL tickers", Example: "NASDAQ:A, NYSE:B",
			TextOf: func(p unsafe.Pointer) *string { return &news(p).StockTickers }},
	},
}}

// Alternates is xhtml:link rel="alternate" (the XHTML namespace).
var Alternates = &Extension{Space: XHTMLSpace, Prefix: "xhtml", Set: formats.ExtAlternates, Field: Field{
	Name: "link", Kind: Empty,
	Items: slice(func(x *formats.Extensions) *[]formats.Alternate { return &x.Alternates }),
	Attrs: []Attr{
		{Name: "rel", Fixed: "alternate"},
		{Name: "hreflang", Check: vocab.IsLanguage, Want: "a language tag (en, en-GB, x-default)", Example: "en-GB",
			TextOf: func(p unsafe.Pointer) *string { return &alt(p).Hreflang }},
		{Name: "media", Example: "only screen and (max-width: 640px)", TextOf: func(p unsafe.Pointer) *string { return &alt(p).Media }},
		{Name: "href", Kind: Loc, Required: true, TextOf: func(p unsafe.Pointer) *string { return &alt(p).Href }},
	},
}}

// Mobile is the obsolete mobile:mobile marker (sitemap-mobile/1.0).
var Mobile = &Extension{Space: MobileSpace, Prefix: "mobile", Set: formats.ExtMobile, Field: Field{
	Name: "mobile", Kind: Empty, Max: 1,
	Items: marker(func(x *formats.Extensions) *bool { return &x.Mobile }),
}}
