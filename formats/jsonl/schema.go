package jsonl

import (
	"encoding/json"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// object is one line of a JSON Lines document: an entry, or (with Head
// set and no Loc) the document's head. Its keys are the format's field
// names; a zero field is left out, and an absent key means unknown.
type object struct {
	Head       []string        `json:"head,omitempty"`
	Loc        string          `json:"loc,omitempty"`
	Kind       string          `json:"kind,omitempty"`
	LastMod    string          `json:"lastmod,omitempty"`
	ChangeFreq string          `json:"changefreq,omitempty"`
	Priority   json.RawMessage `json:"priority,omitempty"`
	Title      string          `json:"title,omitempty"`
	Summary    string          `json:"summary,omitempty"`
	Images     []image         `json:"images,omitempty"`
	Videos     []video         `json:"videos,omitempty"`
	News       *news           `json:"news,omitempty"`
	Alternates []alternate     `json:"alternates,omitempty"`
	Mobile     bool            `json:"mobile,omitempty"`
	Foreign    []string        `json:"foreign,omitempty"`
}

type image struct {
	Loc         string `json:"loc,omitempty"`
	Caption     string `json:"caption,omitempty"`
	GeoLocation string `json:"geo_location,omitempty"`
	Title       string `json:"title,omitempty"`
	License     string `json:"license,omitempty"`
}

type video struct {
	ThumbnailLoc            string    `json:"thumbnail_loc,omitempty"`
	Title                   string    `json:"title,omitempty"`
	Description             string    `json:"description,omitempty"`
	ContentLoc              string    `json:"content_loc,omitempty"`
	PlayerLoc               string    `json:"player_loc,omitempty"`
	PlayerAllowEmbed        string    `json:"player_allow_embed,omitempty"`
	PlayerAutoplay          string    `json:"player_autoplay,omitempty"`
	Duration                int       `json:"duration,omitempty"`
	ExpirationDate          string    `json:"expiration_date,omitempty"`
	Rating                  string    `json:"rating,omitempty"`
	ContentSegments         []segment `json:"content_segments,omitempty"`
	ViewCount               string    `json:"view_count,omitempty"`
	PublicationDate         string    `json:"publication_date,omitempty"`
	Tags                    []string  `json:"tags,omitempty"`
	Category                string    `json:"category,omitempty"`
	FamilyFriendly          string    `json:"family_friendly,omitempty"`
	Restriction             string    `json:"restriction,omitempty"`
	RestrictionRelationship string    `json:"restriction_relationship,omitempty"`
	GalleryLoc              string    `json:"gallery_loc,omitempty"`
	GalleryTitle            string    `json:"gallery_title,omitempty"`
	Prices                  []price   `json:"prices,omitempty"`
	RequiresSubscription    string    `json:"requires_subscription,omitempty"`
	Uploader                string    `json:"uploader,omitempty"`
	UploaderInfo            string    `json:"uploader_info,omitempty"`
	TVShow                  *tvshow   `json:"tvshow,omitempty"`
	Platform                string    `json:"platform,omitempty"`
	PlatformRelationship    string    `json:"platform_relationship,omitempty"`
	Live                    string    `json:"live,omitempty"`
	IDs                     []videoID `json:"ids,omitempty"`
}

type segment struct {
	Loc      string `json:"loc,omitempty"`
	Duration int    `json:"duration,omitempty"`
}

type price struct {
	Value      string `json:"value,omitempty"`
	Currency   string `json:"currency,omitempty"`
	Type       string `json:"type,omitempty"`
	Resolution string `json:"resolution,omitempty"`
}

type videoID struct {
	Type  string `json:"type,omitempty"`
	Value string `json:"value,omitempty"`
}

type tvshow struct {
	ShowTitle     string `json:"show_title,omitempty"`
	VideoType     string `json:"video_type,omitempty"`
	EpisodeTitle  string `json:"episode_title,omitempty"`
	SeasonNumber  int    `json:"season_number,omitempty"`
	EpisodeNumber int    `json:"episode_number,omitempty"`
	PremierDate   string `json:"premier_date,omitempty"`
}

type news struct {
	PublicationName     string `json:"publication_name,omitempty"`
	PublicationLanguage string `json:"publication_language,omitempty"`
	Access              string `json:"access,omitempty"`
	Genres              string `json:"genres,omitempty"`
	PublicationDate     string `json:"publication_date,omitempty"`
	Title               string `json:"title,omitempty"`
	Keywords            string `json:"keywords,omitempty"`
	StockTickers        string `json:"stock_tickers,omitempty"`
}

type alternate struct {
	Hreflang string `json:"hreflang,omitempty"`
	Href     string `json:"href,omitempty"`
	Media    string `json:"media,omitempty"`
}

// dateText returns a date at the precision it was given, so that it reads
// back (formats.ParseLastMod) as the same instant at the same precision: a
// year or a month alone stays one, and a time to the minute has no
// seconds. Unknown is "".
func dateText(l formats.LastMod) string {
	t := l.Time()
	switch l.Precision() {
	case formats.PrecisionUnknown:
		return ""
	case formats.PrecisionYear:
		return t.Format("2006")
	case formats.PrecisionMonth:
		return t.Format("2006-01")
	case formats.PrecisionMinute:
		return t.Format("2006-01-02T15:04Z07:00")
	}
	return l.String()
}

// toObject returns the object that holds every field of e.
func toObject(e *formats.Entry) object {
	o := object{
		Loc:        e.Loc,
		LastMod:    dateText(e.LastMod),
		ChangeFreq: string(e.ChangeFreq),
		Title:      e.Title,
		Summary:    e.Summary,
	}
	if e.Kind == formats.KindSitemap {
		o.Kind = formats.KindSitemap.String()
	}
	if e.Priority.IsSet() {
		o.Priority = e.Priority.AppendText(nil)
	}
	x := e.Ext
	if x == nil {
		return o
	}
	for _, im := range x.Images {
		o.Images = append(o.Images, image(im))
	}
	for i := range x.Videos {
		o.Videos = append(o.Videos, toVideo(&x.Videos[i]))
	}
	if n := x.News; n != nil {
		o.News = &news{n.PublicationName, n.PublicationLanguage, n.Access, n.Genres,
			dateText(n.PublicationDate), n.Title, n.Keywords, n.StockTickers}
	}
	for _, a := range x.Alternates {
		o.Alternates = append(o.Alternates, alternate(a))
	}
	o.Mobile = x.Mobile
	o.Foreign = x.Foreign
	return o
}

func toVideo(v *formats.Video) video {
	o := video{
		ThumbnailLoc: v.ThumbnailLoc, Title: v.Title, Description: v.Description,
		ContentLoc: v.ContentLoc, PlayerLoc: v.PlayerLoc,
		PlayerAllowEmbed: v.PlayerAllowEmbed, PlayerAutoplay: v.PlayerAutoplay,
		Duration: v.Duration, ExpirationDate: dateText(v.ExpirationDate), Rating: v.Rating,
		ViewCount: v.ViewCount, PublicationDate: dateText(v.PublicationDate), Tags: v.Tags,
		Category: v.Category, FamilyFriendly: v.FamilyFriendly,
		Restriction: v.Restriction, RestrictionRelationship: v.RestrictionRelationship,
		GalleryLoc: v.GalleryLoc, GalleryTitle: v.GalleryTitle,
		RequiresSubscription: v.RequiresSubscription, Uploader: v.Uploader, UploaderInfo: v.UploaderInfo,
		Platform: v.Platform, PlatformRelationship: v.PlatformRelationship, Live: v.Live,
	}
	for _, s := range v.ContentSegments {
		o.ContentSegments = append(o.ContentSegments, segment(s))
	}
	for _, p := range v.Prices {
		o.Prices = append(o.Prices, price(p))
	}
	for _, id := range v.IDs {
		o.IDs = append(o.IDs, videoID(id))
	}
	if t := v.TVShow; t != nil {
		o.TVShow = &tvshow{t.ShowTitle, t.VideoType, t.EpisodeTitle, t.SeasonNumber, t.EpisodeNumber, dateText(t.PremierDate)}
	}
	return o
}
