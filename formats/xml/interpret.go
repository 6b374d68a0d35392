package xml

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// interpret puts the captured element n into r.ext when the model can
// hold it, and reports false when it cannot (it is then kept as foreign).
// A bad value drops its field, or its item, with a warning.
func (r *Reader) interpret(n *cnode) (bool, error) {
	if r.kind == formats.KindSitemap {
		return false, nil
	}
	x := r.ext
	switch n.t.name.Space + " " + n.t.name.Local {
	case ImageNamespace + " image":
		im, ok, err := r.image(n)
		if ok && im.Loc != "" {
			if len(x.Images) == formats.MaxImages {
				r.imagesCut++
			} else {
				x.Images = append(x.Images, im)
			}
		}
		return ok, err
	case VideoNamespace + " video":
		v, ok, err := r.video(n)
		if ok && err == nil {
			if m := v.Missing(); m != nil {
				return true, r.incomplete(n, m)
			}
		}
		if ok {
			x.Videos = append(x.Videos, v)
		}
		return ok, err
	case NewsNamespace + " news":
		if x.News != nil {
			return false, nil
		}
		nw, ok, err := r.news(n)
		if ok && nw != nil && err == nil {
			if m := nw.Missing(); m != nil {
				return true, r.incomplete(n, m)
			}
		}
		if ok && nw != nil {
			x.News = nw
		}
		return ok, err
	case XHTMLNamespace + " link":
		a, ok, err := r.link(n)
		if ok && a.Href != "" {
			x.Alternates = append(x.Alternates, a)
		}
		return ok, err
	case MobileNamespace + " mobile":
		if x.Mobile || len(n.kids) > 0 || !n.onlySpace() {
			return false, nil
		}
		x.Mobile = true
		return true, nil
	}
	return false, nil
}

// incomplete drops the extension element n, which lacks the required
// fields m (formats.Video.Missing, say), with a warning: written without
// them, it would make the sitemap invalid.
func (r *Reader) incomplete(n *cnode, m []string) error {
	return r.warnf(n.t.line, n.t.col, false, "<%s> dropped: no %s (required)", n.qname(), strings.Join(m, ", no "))
}

// fields walks the children of n, all of which must be in namespace space
// and named in names, single ones at most once; it calls f for each. It
// reports false when a child is not, or when n has attributes or text.
func (r *Reader) fields(n *cnode, space string, singles, lists []string, f func(k *cnode) (bool, error)) (bool, error) {
	if !n.onlySpace() {
		return false, nil
	}
	var seen []string
	for _, k := range n.kids {
		local := k.t.name.Local
		if k.t.name.Space != space {
			return false, nil
		}
		switch {
		case contains(singles, local):
			if contains(seen, local) {
				return false, nil
			}
			seen = append(seen, local)
		case !contains(lists, local):
			return false, nil
		}
		if ok, err := f(k); !ok || err != nil {
			return ok, err
		}
	}
	return true, nil
}

// loc parses a URL-valued field, warning and returning "" when it is bad.
func (r *Reader) loc(k *cnode, s string) (string, error) {
	if s == "" {
		return "", nil
	}
	loc, err := formats.ParseLoc(s, r.opts.Base)
	if err != nil {
		return "", r.warn(k.t.line, k.t.col, false, fmt.Errorf("<%s> ignored: %w", k.qname(), err))
	}
	return loc, nil
}

// checked returns s when it is empty or check accepts it, and else ""
// after a warning saying what it should be.
func (r *Reader) checked(k *cnode, s string, check func(string) bool, want string) (string, error) {
	if s == "" || check(s) {
		return s, nil
	}
	return "", r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q is not %s", k.qname(), clip([]byte(s)), want)
}

// date parses a date-valued field, warning when it is bad.
func (r *Reader) date(k *cnode, s string) (formats.LastMod, error) {
	lm, err := formats.ParseLastMod(s)
	if err != nil {
		return formats.LastMod{}, r.warn(k.t.line, k.t.col, false, fmt.Errorf("<%s> ignored: %w", k.qname(), err))
	}
	return lm, nil
}

// integer parses an integer field from lo to hi, warning when it is bad.
func (r *Reader) integer(k *cnode, s string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q is not a whole number from %d to %d", k.qname(), clip([]byte(s)), lo, hi)
	}
	return v, nil
}

// qname is the element's name as the document wrote it.
func (n *cnode) qname() string {
	if n.t.prefix == "" {
		return n.t.name.Local
	}
	return n.t.prefix + ":" + n.t.name.Local
}

func (r *Reader) image(n *cnode) (im formats.Image, ok bool, err error) {
	ok, err = r.fields(n, ImageNamespace, []string{"loc", "caption", "geo_location", "title", "license"}, nil, func(k *cnode) (bool, error) {
		s, ok := k.value()
		if !ok {
			return false, nil
		}
		var err error
		switch k.t.name.Local {
		case "loc":
			if im.Loc, err = r.loc(k, s); err == nil && im.Loc == "" && s == "" {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: empty", k.qname())
			}
		case "caption":
			im.Caption = s
		case "geo_location":
			im.GeoLocation = s
		case "title":
			im.Title = s
		case "license":
			im.License, err = r.loc(k, s)
		}
		return true, err
	})
	if ok && err == nil && im.Loc == "" {
		err = r.warnf(n.t.line, n.t.col, false, "<%s> without a usable <loc> ignored", n.qname())
	}
	return im, ok, err
}

func (r *Reader) video(n *cnode) (v formats.Video, ok bool, err error) {
	singles := []string{"thumbnail_loc", "title", "description", "content_loc", "player_loc", "duration", "expiration_date",
		"rating", "view_count", "publication_date", "category", "family_friendly", "restriction", "gallery_loc",
		"requires_subscription", "uploader", "tvshow", "platform", "live"}
	lists := []string{"content_segment_loc", "tag", "price", "id"}
	ok, err = r.fields(n, VideoNamespace, singles, lists, func(k *cnode) (bool, error) {
		if k.t.name.Local == "tvshow" {
			tv, ok, err := r.tvshow(k)
			if ok && err == nil && !formats.IsVideoType(tv.VideoType) {
				// Required, and the schema's enumeration.
				tv, err = nil, r.warnf(k.t.line, k.t.col, false, "<%s> ignored: video_type %q is not full, preview, clip, interview, news or other",
					k.qname(), clip([]byte(tv.VideoType)))
			}
			if ok && err == nil && tv != nil {
				if m := tv.Missing(); m != nil {
					tv, err = nil, r.incomplete(k, m)
				}
			}
			v.TVShow = tv
			return ok, err
		}
		var allowed []string
		switch k.t.name.Local {
		case "player_loc":
			allowed = []string{"allow_embed", "autoplay"}
		case "restriction", "platform":
			allowed = []string{"relationship"}
		case "gallery_loc":
			allowed = []string{"title"}
		case "price":
			allowed = []string{"currency", "type", "resolution"}
		case "uploader":
			allowed = []string{"info"}
		case "id":
			allowed = []string{"type"}
		case "content_segment_loc":
			allowed = []string{"duration"}
		}
		s, ok := k.value(allowed...)
		if !ok {
			return false, nil
		}
		var err error
		switch k.t.name.Local {
		case "thumbnail_loc":
			v.ThumbnailLoc, err = r.loc(k, s)
		case "title":
			v.Title = s
		case "description":
			v.Description = s
		case "content_loc":
			v.ContentLoc, err = r.loc(k, s)
		case "player_loc":
			v.PlayerLoc, err = r.loc(k, s)
			v.PlayerAllowEmbed, v.PlayerAutoplay = k.attr("allow_embed"), k.attr("autoplay")
			if v.PlayerAllowEmbed != "" && !formats.IsYesNo(v.PlayerAllowEmbed) {
				v.PlayerAllowEmbed = ""
				if werr := r.warnf(k.t.line, k.t.col, false, "<%s> allow_embed attribute ignored: not yes or no", k.qname()); err == nil {
					err = werr
				}
			}
		case "duration":
			v.Duration, err = r.integer(k, s, 1, 28800)
		case "expiration_date":
			v.ExpirationDate, err = r.date(k, s)
		case "rating":
			if f, perr := strconv.ParseFloat(s, 64); perr != nil || !(f >= 0 && f <= 5) {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q is not a number from 0.0 to 5.0", k.qname(), clip([]byte(s)))
			} else {
				v.Rating = s
			}
		case "content_segment_loc":
			seg := formats.VideoSegment{}
			if seg.Loc, err = r.loc(k, s); err == nil && k.attr("duration") != "" {
				seg.Duration, err = r.integer(k, formats.TrimSpace(k.attr("duration")), 1, 28800)
			}
			if seg.Loc != "" {
				v.ContentSegments = append(v.ContentSegments, seg)
			}
		case "view_count":
			if _, perr := strconv.ParseUint(s, 10, 64); perr != nil {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q is not a whole number", k.qname(), clip([]byte(s)))
			} else {
				v.ViewCount = s
			}
		case "publication_date":
			v.PublicationDate, err = r.date(k, s)
		case "tag":
			if len(v.Tags) == maxTags {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: more than %d tags", k.qname(), maxTags)
			} else {
				v.Tags = append(v.Tags, s)
			}
		case "category":
			v.Category = s
		case "family_friendly":
			v.FamilyFriendly, err = r.checked(k, s, formats.IsYesNo, "yes or no")
		case "restriction":
			rel := k.attr("relationship")
			if !formats.IsCountryList(s) || !formats.IsRelationship(rel) {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q with relationship %q is not a list of country codes (\"IE GB\") with relationship allow or deny",
					k.qname(), clip([]byte(s)), clip([]byte(rel)))
			} else {
				v.Restriction, v.RestrictionRelationship = s, rel
			}
		case "gallery_loc":
			v.GalleryLoc, err = r.loc(k, s)
			v.GalleryTitle = k.attr("title")
		case "price":
			p := formats.VideoPrice{Value: s, Currency: k.attr("currency"), Type: k.attr("type"), Resolution: k.attr("resolution")}
			if p.Currency != "" && !formats.IsCurrency(p.Currency) || p.Type != "" && !formats.IsPriceType(p.Type) ||
				p.Resolution != "" && !formats.IsPriceResolution(p.Resolution) {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: currency %q, type %q or resolution %q is not an ISO 4217 code, purchase or rent, sd or hd",
					k.qname(), clip([]byte(p.Currency)), clip([]byte(p.Type)), clip([]byte(p.Resolution)))
			} else {
				v.Prices = append(v.Prices, p)
			}
		case "requires_subscription":
			v.RequiresSubscription, err = r.checked(k, s, formats.IsYesNo, "yes or no")
		case "uploader":
			v.Uploader = s
			if info := k.attr("info"); info != "" {
				// An anyURI, as the locs: what ParseLoc refuses would make
				// the written sitemap invalid.
				if v.UploaderInfo, err = formats.ParseLoc(info, r.opts.Base); err != nil {
					v.UploaderInfo, err = "", r.warn(k.t.line, k.t.col, false, fmt.Errorf("<%s> info attribute ignored: %w", k.qname(), err))
				}
			}
		case "platform":
			rel := k.attr("relationship")
			if !formats.IsPlatformList(s) || !formats.IsRelationship(rel) {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: %q with relationship %q is not a list of web, mobile and tv with relationship allow or deny",
					k.qname(), clip([]byte(s)), clip([]byte(rel)))
			} else {
				v.Platform, v.PlatformRelationship = s, rel
			}
		case "live":
			v.Live, err = r.checked(k, s, formats.IsYesNo, "yes or no")
		case "id":
			if typ := k.attr("type"); formats.IsVideoIDType(typ) {
				v.IDs = append(v.IDs, formats.VideoID{Type: typ, Value: s})
			} else {
				err = r.warnf(k.t.line, k.t.col, false, "<%s> ignored: type %q is not tms:series, tms:program, rovi:series, rovi:program, freebase or url",
					k.qname(), clip([]byte(typ)))
			}
		}
		return true, err
	})
	return v, ok, err
}

func (r *Reader) tvshow(n *cnode) (tv *formats.TVShow, ok bool, err error) {
	tv = &formats.TVShow{}
	singles := []string{"show_title", "video_type", "episode_title", "season_number", "episode_number", "premier_date"}
	ok, err = r.fields(n, VideoNamespace, singles, nil, func(k *cnode) (bool, error) {
		s, ok := k.value()
		if !ok {
			return false, nil
		}
		var err error
		switch k.t.name.Local {
		case "show_title":
			tv.ShowTitle = s
		case "video_type":
			tv.VideoType = s
		case "episode_title":
			tv.EpisodeTitle = s
		case "season_number":
			tv.SeasonNumber, err = r.integer(k, s, 1, 1<<31-1)
		case "episode_number":
			tv.EpisodeNumber, err = r.integer(k, s, 1, 1<<31-1)
		case "premier_date":
			tv.PremierDate, err = r.date(k, s)
		}
		return true, err
	})
	return tv, ok, err
}

func (r *Reader) news(n *cnode) (nw *formats.News, ok bool, err error) {
	nw = &formats.News{}
	badDate := false // a publication_date was given, unusable
	singles := []string{"publication", "access", "genres", "publication_date", "title", "keywords", "stock_tickers"}
	ok, err = r.fields(n, NewsNamespace, singles, nil, func(k *cnode) (bool, error) {
		if k.t.name.Local == "publication" {
			return r.fields(k, NewsNamespace, []string{"name", "language"}, nil, func(k *cnode) (bool, error) {
				s, ok := k.value()
				if k.t.name.Local == "name" {
					nw.PublicationName = s
				} else {
					nw.PublicationLanguage = s
				}
				return ok, nil
			})
		}
		s, ok := k.value()
		if !ok {
			return false, nil
		}
		var err error
		switch k.t.name.Local {
		case "access":
			nw.Access, err = r.checked(k, s, formats.IsNewsAccess, "Subscription or Registration")
		case "genres":
			nw.Genres, err = r.checked(k, s, formats.IsNewsGenres, "a list of PressRelease, Satire, Blog, OpEd, Opinion and UserGenerated")
		case "publication_date":
			nw.PublicationDate, err = r.date(k, s)
			badDate = nw.PublicationDate.IsZero()
		case "title":
			nw.Title = s
		case "keywords":
			nw.Keywords = s
		case "stock_tickers":
			nw.StockTickers, err = r.checked(k, s, formats.IsStockTickers, "at most five EXCHANGE:SYMBOL tickers")
		}
		return true, err
	})
	if ok && err == nil && badDate && nw.PublicationDate.IsZero() {
		// The schema requires the date: the news data without the one
		// the source gave would make the written sitemap invalid.
		return nil, true, r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> dropped: its publication_date is unusable", n.qname()))
	}
	if ok && err == nil && nw.PublicationLanguage != "" && !formats.IsNewsLanguage(nw.PublicationLanguage) {
		if lang, mapped := formats.NewsLanguage(nw.PublicationLanguage); mapped {
			// The meaning is clear (en-US is en): the code the schema
			// takes, said unless only the case changes (zh-TW is zh-tw).
			var werr error
			if !strings.EqualFold(formats.TrimSpace(nw.PublicationLanguage), lang) {
				werr = r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> language %q written as %q, the ISO 639 code the news schema takes",
					n.qname(), clip([]byte(nw.PublicationLanguage)), lang))
			}
			nw.PublicationLanguage = lang
			return nw, ok, werr
		}
		return nil, true, r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> dropped: its language %q is not an ISO 639 code (en, zh-cn, zh-tw)",
			n.qname(), clip([]byte(nw.PublicationLanguage))))
	}
	return nw, ok, err
}

// link reads an <xhtml:link rel="alternate">; any other link, one with
// other attributes or content, or one whose href is not an http(s) URL
// (an app link), is not for the model.
func (r *Reader) link(n *cnode) (a formats.Alternate, ok bool, err error) {
	if len(n.kids) > 0 || formats.TrimSpace(strings.Join(n.text, "")) != "" {
		return a, false, nil
	}
	rel := false
	for _, at := range n.t.attrs {
		switch {
		case at.name.Space != "":
			return a, false, nil
		case at.name.Local == "rel" && at.value == "alternate":
			rel = true
		case at.name.Local == "hreflang":
			a.Hreflang = at.value
		case at.name.Local == "media":
			a.Media = at.value
		case at.name.Local != "href":
			return a, false, nil
		}
	}
	href := formats.TrimSpace(n.attr("href"))
	if !rel || href == "" {
		return a, false, nil
	}
	if a.Hreflang != "" && !formats.IsLanguage(strings.Trim(a.Hreflang, " \t\r\n")) {
		// xs:language: kept, even verbatim, it would make the written
		// sitemap invalid.
		return formats.Alternate{}, true, r.warnf(n.t.line, n.t.col, false, "<%s> ignored: hreflang %q is not a language tag (en, en-GB, x-default)",
			n.qname(), clip([]byte(a.Hreflang)))
	}
	if a.Href, err = formats.ParseLoc(href, r.opts.Base); err != nil {
		if isHTTP(href) {
			return formats.Alternate{}, true, r.warn(n.t.line, n.t.col, false, fmt.Errorf("<%s> ignored: %w", n.qname(), err))
		}
		// Not a page (an android-app: link, say): kept verbatim.
		return a, false, nil
	}
	return a, true, nil
}

// isHTTP reports whether s starts with an http or https scheme, in any
// case.
func isHTTP(s string) bool {
	return len(s) >= 5 && strings.EqualFold(s[:5], "http:") || len(s) >= 6 && strings.EqualFold(s[:6], "https:")
}
