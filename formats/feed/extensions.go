package feed

import (
	"fmt"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// NewsAge is how old an item may be, before ReadOptions.Now, to become a
// news entry when ReadOptions.NewsName is set: Google News sitemaps list
// only the articles of the last two days (48 hours).
const NewsAge = vocab.NewsAge

// extensions returns the sitemap extensions of the nth item, whose entry
// is e (with its loc): its images, its videos, its language
// alternates and, when news is asked for, its news data. It returns nil
// when there are none. Media that cannot be used are reported with
// warnings; the entry is always kept.
func (r *Reader) extensions(n int, it *item, e *formats.Entry) (*formats.Extensions, error) {
	x := &formats.Extensions{}
	var err error
	if x.Videos, err = r.videos(n, it, e); err != nil {
		return nil, err
	}
	if x.Images, err = r.images(n, it, x.Videos); err != nil {
		return nil, err
	}
	if x.Alternates, err = r.alternates(n, it, e.Loc); err != nil {
		return nil, err
	}
	if x.News, err = r.news(n, it); err != nil {
		return nil, err
	}
	// What the item lacks was said above; this is the rule every reader
	// applies, so no required field is ever written empty.
	if err := x.Complete(func(what string) error {
		return r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: %s dropped (required)", it.name(n), what))
	}); err != nil {
		return nil, err
	}
	if x.Uses() == 0 {
		return nil, nil
	}
	return x, nil
}

// mediaLoc resolves the URL of a media element like an item link. A URL
// that cannot be used gives "" and a warning.
func (r *Reader) mediaLoc(n int, it *item, what, raw string) (string, error) {
	if uri.TrimSpace(raw) == "" {
		return "", nil
	}
	loc, err := parseLoc(raw, r.base)
	if err != nil {
		return "", r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: %s dropped: %w", it.name(n), what, err))
	}
	return loc, nil
}

// images returns the images of the nth item: its image media, then its
// media:thumbnail elements that are no video's thumbnail, each once, at
// most formats.MaxImages.
func (r *Reader) images(n int, it *item, videos []formats.Video) ([]formats.Image, error) {
	if len(it.images) == 0 && len(it.thumbs) == 0 {
		return nil, nil
	}
	seen, thumbnails := map[string]bool{}, map[string]bool{}
	for _, v := range videos {
		thumbnails[v.ThumbnailLoc] = true
	}
	var images []formats.Image
	dropped := 0
	add := func(refs []mediaRef, skip map[string]bool) error {
		for _, ref := range refs {
			loc, err := r.mediaLoc(n, it, "image "+ref.what, ref.url)
			if err != nil {
				return err
			}
			if loc == "" || seen[loc] || skip[loc] {
				continue
			}
			seen[loc] = true
			if len(images) == formats.MaxImages {
				dropped++
				continue
			}
			images = append(images, formats.Image{Loc: loc})
		}
		return nil
	}
	if err := add(it.images, nil); err != nil {
		return nil, err
	}
	if err := add(it.thumbs, thumbnails); err != nil {
		return nil, err
	}
	if dropped > 0 {
		if err := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: %d images over the limit of %d dropped",
			it.name(n), dropped, formats.MaxImages)); err != nil {
			return nil, err
		}
	}
	return images, nil
}

// videos returns the videos of the nth item, each once: those that have
// every field the protocol requires (thumbnail_loc, title, description,
// and content_loc or player_loc) and a content_loc other than the page's
// loc. The others are skipped with a warning that says why.
func (r *Reader) videos(n int, it *item, e *formats.Entry) ([]formats.Video, error) {
	var videos []formats.Video
	contents, players := map[string]bool{}, map[string]bool{}
	for _, ref := range it.videos {
		var v formats.Video
		var err error
		for _, f := range []struct {
			dst       *string
			what, raw string
		}{
			{&v.ContentLoc, ref.what, ref.content},
			{&v.PlayerLoc, "media:player", ref.player},
			{&v.ThumbnailLoc, "media:thumbnail", ref.thumbnail},
		} {
			if *f.dst, err = r.mediaLoc(n, it, "video "+f.what, f.raw); err != nil {
				return nil, err
			}
		}
		name := v.ContentLoc
		if name == "" {
			name = v.PlayerLoc
		}
		if name == "" {
			continue // its URL was dropped with a warning
		}
		if v.ContentLoc != "" && contents[v.ContentLoc] || v.ContentLoc == "" && players[v.PlayerLoc] {
			continue
		}
		v.Title = firstText(maxVideoTitle, ref.title, it.title)
		v.Description = firstText(maxVideoDescription, append([]text{ref.description}, it.summary...)...)
		if d := parseDuration(ref.duration); d >= 1 && d <= 28800 {
			v.Duration = d
		}
		missing := v.Missing()
		var why string
		switch {
		case len(missing) > 0:
			why = "no " + strings.Join(missing, ", no ")
		case v.ContentLoc == e.Loc:
			why = "its content_loc is the page itself"
		}
		if why != "" {
			werr := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: video %s (%s) skipped: %s", it.name(n), name, ref.what, why))
			if werr != nil {
				return nil, werr
			}
			continue
		}
		contents[v.ContentLoc], players[v.PlayerLoc] = true, true
		videos = append(videos, v)
	}
	return videos, nil
}

// language returns the language of an item: its own (its xml:lang, or
// that of an element around it below the root), else the feed's; "" when
// unknown, as xml:lang="" says.
func (r *Reader) language(it *item) string {
	if l := uri.TrimSpace(it.lang); l != "" || it.langSet {
		return l
	}
	return uri.TrimSpace(r.lang)
}

// noLang says why an item's language is unknown.
func noLang(it *item) string {
	if it.langSet && uri.TrimSpace(it.lang) == "" {
		return `xml:lang=""`
	}
	return "no xml:lang"
}

// alternates returns the language versions of the nth item whose page is
// loc: its Atom links rel="alternate" with an hreflang, each once, and the
// page itself with the item's language when it is not among them. When
// that language is unknown, the page is left out, with a warning: a
// language is never guessed.
func (r *Reader) alternates(n int, it *item, loc string) ([]formats.Alternate, error) {
	if len(it.alternates) == 0 {
		return nil, nil
	}
	var alts []formats.Alternate
	seen := map[string]bool{}
	self := false
	for _, a := range it.alternates {
		if !vocab.IsLanguage(a.hreflang) {
			// The sitemap's xhtml:link would be invalid.
			if err := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: alternate link dropped: hreflang %q is not a language tag (en, en-GB, x-default)",
				it.name(n), a.hreflang)); err != nil {
				return nil, err
			}
			continue
		}
		href, err := r.mediaLoc(n, it, "alternate link", a.href)
		if err != nil {
			return nil, err
		}
		key := strings.ToLower(a.hreflang) + " " + href
		if href == "" || seen[key] || href == loc && strings.EqualFold(a.hreflang, undeterminedLanguage) {
			continue // "und": the page's language is not known
		}
		seen[key] = true
		self = self || href == loc
		alts = append(alts, formats.Alternate{Hreflang: a.hreflang, Href: href})
	}
	if !self && len(alts) > 0 {
		lang := r.language(it)
		if !vocab.IsLanguage(lang) {
			lang = "" // not a tag an xhtml:link may hold: unknown
		}
		if lang == "" {
			err := r.opts.Warning(it.line, 0, false, fmt.Errorf(
				"%s: the page's own language is unknown (%s): it is not listed among its alternates", it.name(n), noLang(it)))
			return alts, err
		}
		alts = append([]formats.Alternate{{Hreflang: lang, Href: loc}}, alts...)
	}
	return alts, nil
}

// news returns the news data of the nth item, titled as its entry, when
// ReadOptions.NewsName asks for news and the item was published in the
// NewsAge before ReadOptions.Now; nil otherwise. An item that qualifies but
// has no title, or whose feed has no language Google News knows, gets a
// warning (about the language once per feed) and no news data.
func (r *Reader) news(n int, it *item) (*formats.News, error) {
	if r.opts.NewsName == "" {
		return nil, nil
	}
	var pub formats.LastMod
	for _, d := range it.published {
		if lm, _ := parseDate(uri.TrimSpace(d.raw), d.parsed); !lm.IsZero() {
			pub = lm
			break
		}
	}
	now := r.opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	if pub.IsZero() || pub.Time().After(now) || now.Sub(pub.Time()) > NewsAge {
		return nil, nil
	}
	lang, ok := vocab.NewsLanguage(r.language(it))
	title := it.title.plain(MaxTitle)
	switch {
	case !ok:
		// The item's own language is reported for each item, the feed's once.
		whose := "the item"
		if uri.TrimSpace(it.lang) == "" && !it.langSet {
			if r.newsWarned {
				return nil, nil
			}
			r.newsWarned, whose = true, "the feed"
		}
		what := "no language"
		if l := r.language(it); l != "" {
			what = fmt.Sprintf("language %q, which is not an ISO 639 code", l)
		} else if whose == "the item" {
			what = `no language (xml:lang="")`
		}
		return nil, r.opts.Warning(it.line, 0, false, fmt.Errorf(
			"%s: no news entry: %s has %s (news:language is required)", it.name(n), whose, what))
	case title == "":
		return nil, r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: no news entry: the item has no title", it.name(n)))
	}
	if tag := uri.TrimSpace(r.language(it)); !strings.EqualFold(tag, lang) && !r.newsLangWarned[tag] {
		// Said once per language tag, not for each item, and not for a
		// change of case only (zh-TW is zh-tw).
		if r.newsLangWarned == nil {
			r.newsLangWarned = map[string]bool{}
		}
		r.newsLangWarned[tag] = true
		if err := r.opts.Warning(it.line, 0, false, fmt.Errorf("%s: news language %q written as %q, the ISO 639 code the news schema takes",
			it.name(n), tag, lang)); err != nil {
			return nil, err
		}
	}
	return &formats.News{
		PublicationName:     r.opts.NewsName,
		PublicationLanguage: lang,
		PublicationDate:     pub,
		Title:               title,
	}, nil
}
