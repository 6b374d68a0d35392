package xml

import (
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// appendExt appends the extension elements of a <url>, in the order the
// Writer writes them. An extension outside uses declares its namespace on
// each of its elements.
func appendExt(b []byte, x *formats.Extensions, uses formats.ExtensionSet) []byte {
	var p extWriter
	p.b = b
	for i := range x.Images {
		im := &x.Images[i]
		if im.Missing() != nil {
			continue // never an empty required element (Writer.Close says so)
		}
		p.open(uses, 0, "image:image")
		p.leaf("image:loc", im.Loc)
		p.leaf("image:caption", im.Caption)
		p.leaf("image:geo_location", im.GeoLocation)
		p.leaf("image:title", im.Title)
		p.leaf("image:license", im.License)
		p.close("image:image")
	}
	for i := range x.Videos {
		if x.Videos[i].Missing() == nil {
			p.video(uses, &x.Videos[i])
		}
	}
	if n := x.News; n != nil && n.Missing() == nil {
		p.open(uses, 2, "news:news")
		p.b = append(p.b, "<news:publication>"...)
		p.item("news:name", n.PublicationName)
		p.item("news:language", n.PublicationLanguage)
		p.close("news:publication")
		p.leaf("news:access", n.Access)
		p.leaf("news:genres", n.Genres)
		p.date("news:publication_date", n.PublicationDate)
		p.item("news:title", n.Title)
		p.leaf("news:keywords", n.Keywords)
		p.leaf("news:stock_tickers", n.StockTickers)
		p.close("news:news")
	}
	for _, a := range x.Alternates {
		p.b = append(p.b, "<xhtml:link"...)
		p.declare(uses, 3)
		p.b = append(p.b, ` rel="alternate"`...)
		p.attr("hreflang", a.Hreflang)
		p.attr("media", a.Media)
		p.attr("href", a.Href)
		p.b = append(p.b, "/>"...)
	}
	if x.Mobile {
		p.b = append(p.b, "<mobile:mobile"...)
		p.declare(uses, 4)
		p.b = append(p.b, "/>"...)
	}
	return appendForeign(p.b, x)
}

// appendForeign appends the foreign elements of x, verbatim.
func appendForeign(b []byte, x *formats.Extensions) []byte {
	for _, f := range x.Foreign {
		b = append(b, f...)
	}
	return b
}

// extWriter appends extension elements.
type extWriter struct{ b []byte }

// open appends the start tag of an extension's top element, declaring the
// namespace of extensionNamespaces[i] when uses lacks it.
func (p *extWriter) open(uses formats.ExtensionSet, i int, name string) {
	p.b = append(p.b, '<')
	p.b = append(p.b, name...)
	p.declare(uses, i)
	p.b = append(p.b, '>')
}

func (p *extWriter) declare(uses formats.ExtensionSet, i int) {
	if x := extensionNamespaces[i]; uses&x.ext == 0 {
		p.b = append(p.b, ` xmlns:`+x.prefix+`="`+x.uri+`"`...)
	}
}

func (p *extWriter) close(name string) {
	p.b = append(p.b, "</"...)
	p.b = append(p.b, name...)
	p.b = append(p.b, '>')
}

// leaf appends <name>v</name> when v is not empty.
func (p *extWriter) leaf(name, v string) {
	if v == "" {
		return
	}
	p.b = append(p.b, '<')
	p.b = append(p.b, name...)
	p.b = append(p.b, '>')
	p.b = appendEscapedXML(p.b, v, false)
	p.close(name)
}

// leafAttrs appends <name a="…"…>v</name> with the non-empty attributes,
// given as name, value pairs, when v or an attribute is not empty.
func (p *extWriter) leafAttrs(name, v string, attrs ...string) {
	empty := v == ""
	for i := 1; i < len(attrs); i += 2 {
		empty = empty && attrs[i] == ""
	}
	if empty {
		return
	}
	p.item(name, v, attrs...)
}

// item appends <name a="…"…>v</name> with the non-empty attributes, even
// when all is empty: an item of a list.
func (p *extWriter) item(name, v string, attrs ...string) {
	p.b = append(p.b, '<')
	p.b = append(p.b, name...)
	for i := 0; i+1 < len(attrs); i += 2 {
		p.attr(attrs[i], attrs[i+1])
	}
	p.b = append(p.b, '>')
	p.b = appendEscapedXML(p.b, v, false)
	p.close(name)
}

// attr appends name="v" when v is not empty.
func (p *extWriter) attr(name, v string) {
	if v == "" {
		return
	}
	p.b = append(p.b, ' ')
	p.b = append(p.b, name...)
	p.b = append(p.b, `="`...)
	p.b = appendEscapedXML(p.b, v, true)
	p.b = append(p.b, '"')
}

func (p *extWriter) date(name string, l formats.LastMod) {
	if l.IsZero() {
		return
	}
	p.b = append(p.b, '<')
	p.b = append(p.b, name...)
	p.b = append(p.b, '>')
	p.b = l.AppendText(p.b)
	p.close(name)
}

func (p *extWriter) int(name string, v int) {
	if v == 0 {
		return
	}
	p.b = append(p.b, '<')
	p.b = append(p.b, name...)
	p.b = append(p.b, '>')
	p.b = strconv.AppendInt(p.b, int64(v), 10)
	p.close(name)
}

// video appends a video:video, its elements in schema order. Required
// elements of string type are written even when empty, so that the
// document stays valid.
func (p *extWriter) video(uses formats.ExtensionSet, v *formats.Video) {
	p.open(uses, 1, "video:video")
	p.item("video:thumbnail_loc", v.ThumbnailLoc)
	p.item("video:title", v.Title)
	p.item("video:description", v.Description)
	p.leaf("video:content_loc", v.ContentLoc)
	p.leafAttrs("video:player_loc", v.PlayerLoc, "allow_embed", v.PlayerAllowEmbed, "autoplay", v.PlayerAutoplay)
	p.int("video:duration", v.Duration)
	p.date("video:expiration_date", v.ExpirationDate)
	p.leaf("video:rating", v.Rating)
	for _, s := range v.ContentSegments {
		d := ""
		if s.Duration != 0 {
			d = strconv.Itoa(s.Duration)
		}
		p.item("video:content_segment_loc", s.Loc, "duration", d)
	}
	p.leaf("video:view_count", v.ViewCount)
	p.date("video:publication_date", v.PublicationDate)
	for _, t := range v.Tags {
		p.item("video:tag", t)
	}
	p.leaf("video:category", v.Category)
	p.leaf("video:family_friendly", v.FamilyFriendly)
	p.leafAttrs("video:restriction", v.Restriction, "relationship", v.RestrictionRelationship)
	p.leafAttrs("video:gallery_loc", v.GalleryLoc, "title", v.GalleryTitle)
	for _, pr := range v.Prices {
		p.item("video:price", pr.Value, "currency", pr.Currency, "type", pr.Type, "resolution", pr.Resolution)
	}
	p.leaf("video:requires_subscription", v.RequiresSubscription)
	p.leafAttrs("video:uploader", v.Uploader, "info", v.UploaderInfo)
	if t := v.TVShow; t != nil && t.Missing() == nil {
		p.b = append(p.b, "<video:tvshow>"...)
		p.item("video:show_title", t.ShowTitle)
		p.item("video:video_type", t.VideoType)
		p.leaf("video:episode_title", t.EpisodeTitle)
		p.int("video:season_number", t.SeasonNumber)
		p.int("video:episode_number", t.EpisodeNumber)
		p.date("video:premier_date", t.PremierDate)
		p.close("video:tvshow")
	}
	p.leafAttrs("video:platform", v.Platform, "relationship", v.PlatformRelationship)
	p.leaf("video:live", v.Live)
	for _, id := range v.IDs {
		p.item("video:id", id.Value, "type", id.Type)
	}
	p.close("video:video")
}
