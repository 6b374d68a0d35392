package jsonl

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// maxTags is the most tags a video may have, as the video schema says.
const maxTags = 32

// maxDuration is the longest a video or a part of it may be, in seconds.
const maxDuration = 28800

// checker turns the object of one line into an entry, holding its values
// to the rules every reader applies: URLs through formats.ParseLoc, dates
// through formats.ParseLastMod, the extensions' enumerations through
// formats' checks and Extensions.Complete. A bad value is dropped with a
// warning naming the key.
type checker struct {
	r   *Reader
	err error // the first warning, in strict mode
}

// warn reports a problem of the line; in strict mode the first one becomes
// the error Next returns.
func (c *checker) warn(skipped bool, format string, args ...any) {
	if err := c.r.opts.Warningf(c.r.line, 0, skipped, format, args...); err != nil && c.err == nil {
		c.err = err
	}
}

// entry returns the entry of o, and false when its loc or kind is bad.
func (c *checker) entry(o *object) (formats.Entry, bool) {
	loc, err := formats.ParseLoc(o.Loc, c.r.opts.Base)
	if err != nil {
		c.warn(true, "loc %s: %v: line skipped", clip(o.Loc), err)
		return formats.Entry{}, false
	}
	e := formats.Entry{Loc: loc, Title: o.Title, Summary: o.Summary}
	switch o.Kind {
	case "", formats.KindURL.String():
	case formats.KindSitemap.String():
		e.Kind = formats.KindSitemap
	default:
		c.warn(true, `kind %s is neither "url" nor "sitemap": line skipped`, clip(o.Kind))
		return formats.Entry{}, false
	}
	e.LastMod = c.date("lastmod", o.LastMod)
	if o.ChangeFreq != "" {
		if cf, ok := formats.ParseChangeFreq(o.ChangeFreq); ok {
			e.ChangeFreq = cf
		} else {
			c.warn(false, "changefreq %s ignored: not always, hourly, daily, weekly, monthly, yearly or never", clip(o.ChangeFreq))
		}
	}
	if len(o.Priority) > 0 {
		e.Priority = c.priority(o.Priority)
	}
	e.Ext = c.extensions(o)
	return e, c.err == nil
}

// priority reads a priority written as a number (or as a string holding
// one).
func (c *checker) priority(raw json.RawMessage) formats.Priority {
	v := []byte(raw)
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			v = []byte(s)
		}
	}
	p, ok := formats.ParsePriorityBytes(v)
	if !ok {
		c.warn(false, "priority %s ignored: not a number from 0.0 to 1.0", clip(string(raw)))
	}
	return p
}

// date reads a date of the key name. A date and time without a time zone
// keeps its date, as the XML reader does.
func (c *checker) date(name, s string) formats.LastMod {
	if s == "" {
		return formats.LastMod{}
	}
	l, err := formats.ParseLastMod(s)
	if err == nil {
		return l
	}
	if d, ok := formats.DateOfZoneless(s); ok {
		c.warn(false, "%s %s has no time zone: only its date is kept", name, clip(s))
		return d
	}
	c.warn(false, "%s ignored: %v", name, err)
	return formats.LastMod{}
}

// url reads a URL of the key name.
func (c *checker) url(name, s string) string {
	if s == "" {
		return ""
	}
	loc, err := formats.ParseLoc(s, c.r.opts.Base)
	if err != nil {
		c.warn(false, "%s %s ignored: %v", name, clip(s), err)
	}
	return loc
}

// checked returns s when it is empty or check accepts it, else "" after a
// warning saying what it should be.
func (c *checker) checked(name, s string, check func(string) bool, want string) string {
	if s == "" || check(s) {
		return s
	}
	c.warn(false, "%s %s ignored: not %s", name, clip(s), want)
	return ""
}

// count returns n when it is from 0 (absent) to hi, else 0 after a
// warning.
func (c *checker) count(name string, n, hi int) int {
	if n < 0 || n > hi {
		c.warn(false, "%s %d ignored: not a whole number from 1 to %d", name, n, hi)
		return 0
	}
	return n
}

// extensions returns the extension data of o, nil when it has none.
func (c *checker) extensions(o *object) *formats.Extensions {
	x := &formats.Extensions{Mobile: o.Mobile}
	images := o.Images
	if len(images) > formats.MaxImages {
		c.warn(false, "images past the first %d ignored", formats.MaxImages)
		images = images[:formats.MaxImages]
	}
	for _, im := range images {
		x.Images = append(x.Images, formats.Image{
			Loc: c.url("images.loc", im.Loc), Caption: im.Caption, GeoLocation: im.GeoLocation,
			Title: im.Title, License: c.url("images.license", im.License),
		})
	}
	for i := range o.Videos {
		x.Videos = append(x.Videos, c.video(&o.Videos[i]))
	}
	if n := o.News; n != nil {
		x.News = &formats.News{
			PublicationName:     n.PublicationName,
			PublicationLanguage: c.checked("news.publication_language", n.PublicationLanguage, formats.IsNewsLanguage, "an ISO 639 language code"),
			Access:              c.checked("news.access", n.Access, formats.IsNewsAccess, "Subscription or Registration"),
			Genres:              c.checked("news.genres", n.Genres, formats.IsNewsGenres, "a list of news genres"),
			PublicationDate:     c.date("news.publication_date", n.PublicationDate),
			Title:               n.Title,
			Keywords:            n.Keywords,
			StockTickers:        c.checked("news.stock_tickers", n.StockTickers, formats.IsStockTickers, "up to five EXCHANGE:SYMBOL"),
		}
	}
	for _, a := range o.Alternates {
		if a.Hreflang != "" && !formats.IsLanguage(strings.Trim(a.Hreflang, " \t\r\n")) {
			c.warn(false, "alternates.hreflang %s ignored: not a language tag", clip(a.Hreflang))
			a.Hreflang = ""
		}
		x.Alternates = append(x.Alternates, formats.Alternate{Hreflang: a.Hreflang, Href: c.url("alternates.href", a.Href), Media: a.Media})
	}
	for _, f := range o.Foreign {
		if err := checkElement(f); err != nil {
			c.warn(false, "foreign element ignored: %v", err)
			continue
		}
		x.Foreign = append(x.Foreign, f)
	}
	x.Complete(func(what string) error {
		c.warn(false, "%s: left out", what)
		return nil
	})
	if x.IsEmpty() {
		return nil
	}
	return x
}

func (c *checker) video(o *video) formats.Video {
	yesNo := func(name, s string) string { return c.checked(name, s, formats.IsYesNo, "yes or no") }
	v := formats.Video{
		ThumbnailLoc:            c.url("videos.thumbnail_loc", o.ThumbnailLoc),
		Title:                   o.Title,
		Description:             o.Description,
		ContentLoc:              c.url("videos.content_loc", o.ContentLoc),
		PlayerLoc:               c.url("videos.player_loc", o.PlayerLoc),
		PlayerAllowEmbed:        yesNo("videos.player_allow_embed", o.PlayerAllowEmbed),
		PlayerAutoplay:          o.PlayerAutoplay,
		Duration:                c.count("videos.duration", o.Duration, maxDuration),
		ExpirationDate:          c.date("videos.expiration_date", o.ExpirationDate),
		Rating:                  o.Rating,
		ViewCount:               o.ViewCount,
		PublicationDate:         c.date("videos.publication_date", o.PublicationDate),
		Tags:                    o.Tags,
		Category:                o.Category,
		FamilyFriendly:          yesNo("videos.family_friendly", o.FamilyFriendly),
		Restriction:             c.checked("videos.restriction", o.Restriction, formats.IsCountryList, "a list of ISO 3166 country codes"),
		RestrictionRelationship: c.checked("videos.restriction_relationship", o.RestrictionRelationship, formats.IsRelationship, "allow or deny"),
		GalleryLoc:              c.url("videos.gallery_loc", o.GalleryLoc),
		GalleryTitle:            o.GalleryTitle,
		RequiresSubscription:    yesNo("videos.requires_subscription", o.RequiresSubscription),
		Uploader:                o.Uploader,
		UploaderInfo:            c.url("videos.uploader_info", o.UploaderInfo),
		Platform:                c.checked("videos.platform", o.Platform, formats.IsPlatformList, "a list of web, mobile and tv"),
		PlatformRelationship:    c.checked("videos.platform_relationship", o.PlatformRelationship, formats.IsRelationship, "allow or deny"),
		Live:                    yesNo("videos.live", o.Live),
	}
	if len(v.Tags) > maxTags {
		c.warn(false, "videos.tags past the first %d ignored", maxTags)
		v.Tags = v.Tags[:maxTags:maxTags]
	}
	for _, s := range o.ContentSegments {
		v.ContentSegments = append(v.ContentSegments, formats.VideoSegment{
			Loc: c.url("videos.content_segments.loc", s.Loc), Duration: c.count("videos.content_segments.duration", s.Duration, maxDuration),
		})
	}
	for _, p := range o.Prices {
		v.Prices = append(v.Prices, formats.VideoPrice{
			Value:      p.Value,
			Currency:   c.checked("videos.prices.currency", p.Currency, formats.IsCurrency, "an ISO 4217 currency code"),
			Type:       c.checked("videos.prices.type", p.Type, formats.IsPriceType, "purchase or rent"),
			Resolution: c.checked("videos.prices.resolution", p.Resolution, formats.IsPriceResolution, "sd or hd"),
		})
	}
	for _, id := range o.IDs {
		if !formats.IsVideoIDType(id.Type) {
			c.warn(false, "videos.ids type %s ignored: not tms:series, tms:program, rovi:series, rovi:program, freebase or url", clip(id.Type))
			continue
		}
		v.IDs = append(v.IDs, formats.VideoID(id))
	}
	if t := o.TVShow; t != nil {
		v.TVShow = &formats.TVShow{
			ShowTitle:     t.ShowTitle,
			VideoType:     c.checked("videos.tvshow.video_type", t.VideoType, formats.IsVideoType, "full, preview, clip, interview, news or other"),
			EpisodeTitle:  t.EpisodeTitle,
			SeasonNumber:  c.count("videos.tvshow.season_number", t.SeasonNumber, 1<<31-1),
			EpisodeNumber: c.count("videos.tvshow.episode_number", t.EpisodeNumber, 1<<31-1),
			PremierDate:   c.date("videos.tvshow.premier_date", t.PremierDate),
		}
	}
	return v
}

// checkElement reports why s is not one self-contained XML element, as
// foreign elements and head elements must be: well-formed, one element,
// nothing before or after it. An XML writer writes them verbatim, so that
// anything else would break the document it is written into.
func checkElement(s string) error {
	if !strings.HasPrefix(s, "<") || strings.HasPrefix(s, "<?") || strings.HasPrefix(s, "<!") {
		return fmt.Errorf("%s is not an XML element", clip(s))
	}
	d := xml.NewDecoder(strings.NewReader(s))
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return fmt.Errorf("%s is not a complete XML element", clip(s))
		}
		if err != nil {
			return fmt.Errorf("%s is not well-formed XML: %v", clip(s), err)
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
		if depth == 0 {
			if d.InputOffset() != int64(len(s)) {
				return fmt.Errorf("%s is more than one XML element", clip(s))
			}
			return nil
		}
	}
}

// clip quotes s for a message, cut to 80 bytes.
func clip(s string) string {
	if len(s) > 80 {
		return fmt.Sprintf("%q…", s[:77])
	}
	return fmt.Sprintf("%q", s)
}
