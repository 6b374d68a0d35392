package feed

import (
	"path"
	"strconv"
	"strings"

	ext "github.com/mmcdole/gofeed/extensions"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// mediaRef is an image an item names, as written.
type mediaRef struct {
	what string // the element it came from, for messages: "enclosure"
	url  string
}

// videoRef is a video an item names, as written. Its title and description
// fall back to the item's when empty.
type videoRef struct {
	what                       string
	content, player, thumbnail string
	title, description         text
	duration                   string // seconds, or [[hh:]mm:]ss
}

// mediaKind is what a media URL holds.
type mediaKind uint8

const (
	mediaOther  mediaKind = iota // audio, documents, unknown: not used
	mediaImage                   // an image file
	mediaVideo                   // a video file: a video's content_loc
	mediaPlayer                  // a page or plug-in that plays a video: player_loc
)

// imageExts and videoExts are the file name extensions that tell an image
// or a video when nothing else does.
var (
	imageExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".webp": true,
		".avif": true, ".svg": true, ".bmp": true, ".tif": true, ".tiff": true, ".heic": true}
	videoExts = map[string]bool{".mp4": true, ".m4v": true, ".mov": true, ".webm": true, ".ogv": true,
		".mkv": true, ".avi": true, ".wmv": true, ".flv": true, ".mpg": true, ".mpeg": true, ".3gp": true, ".m3u8": true}
)

// classify tells what a media URL holds from, in this order, its Media RSS
// medium, its MIME type and the extension of its file name.
func classify(medium, mimeType, u string) mediaKind {
	mimeType = strings.ToLower(uri.TrimSpace(mimeType))
	if i := strings.IndexByte(mimeType, ';'); i >= 0 {
		mimeType = strings.TrimSpace(mimeType[:i])
	}
	byType := func() (mediaKind, bool) {
		switch {
		case strings.HasPrefix(mimeType, "image/"):
			return mediaImage, true
		case mimeType == "application/x-shockwave-flash" || mimeType == "text/html":
			return mediaPlayer, true
		case strings.HasPrefix(mimeType, "video/"), mimeType == "application/x-mpegurl",
			mimeType == "application/vnd.apple.mpegurl", mimeType == "application/dash+xml":
			return mediaVideo, true
		case mimeType != "":
			return mediaOther, true
		}
		return mediaOther, false
	}
	switch strings.ToLower(uri.TrimSpace(medium)) {
	case "image":
		return mediaImage
	case "video":
		if k, ok := byType(); ok && k == mediaPlayer {
			return k
		}
		return mediaVideo
	case "":
	default: // audio, document, executable
		return mediaOther
	}
	if k, ok := byType(); ok {
		return k
	}
	p := u
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	switch e := strings.ToLower(path.Ext(p)); {
	case imageExts[e]:
		return mediaImage
	case videoExts[e]:
		return mediaVideo
	}
	return mediaOther
}

// addEnclosure adds an enclosure (an RSS enclosure, an Atom link
// rel="enclosure", a JSON Feed attachment) of the given MIME type: an image,
// or a video with the player, thumbnail, title and description of the
// item-level Media RSS elements ctx.
func (it *item) addEnclosure(what, u, mimeType string, ctx mrssContext, v videoRef) {
	k := classify("", mimeType, u)
	if k == mediaVideo && !it.hasVideo(u) {
		v.player, v.thumbnail = ctx.player, ctx.thumbnail
		if v.title.value == "" {
			v.title = ctx.title
		}
		v.description = ctx.description
	}
	if k == mediaPlayer || k == mediaVideo && it.hasVideo(u) {
		return // a plug-in is no video file; the video is known already
	}
	it.addMedia(k, what, u, v)
}

// hasVideo reports whether a video of the item has the content u.
func (it *item) hasVideo(u string) bool {
	for _, v := range it.videos {
		if v.content == u {
			return true
		}
	}
	return false
}

// addMedia adds a media URL of kind k to the item: an image, or a video
// with the context's player, thumbnail, title and description.
func (it *item) addMedia(k mediaKind, what, u string, v videoRef) {
	if uri.TrimSpace(u) == "" {
		return
	}
	switch k {
	case mediaImage:
		it.images = append(it.images, mediaRef{what: what, url: u})
	case mediaVideo:
		v.what, v.content = what, u
		it.videos = append(it.videos, v)
	case mediaPlayer:
		v.what, v.player = what, u
		it.videos = append(it.videos, v)
	}
}

// mrssContext is what a level of Media RSS (the item, a media:group, a
// media:content) says about the media inside it; inner levels override
// outer ones.
type mrssContext struct {
	player, thumbnail  string
	title, description text
}

// within returns the context of the Media RSS elements children, inside c.
func (c mrssContext) within(children map[string][]ext.Extension) mrssContext {
	if p := attrOf(children["player"], "url"); p != "" {
		c.player = p
	}
	if t := attrOf(children["thumbnail"], "url"); t != "" {
		c.thumbnail = t
	}
	if t := mrssText(children["title"]); t.value != "" {
		c.title = t
	}
	if d := mrssText(children["description"]); d.value != "" {
		c.description = d
	}
	return c
}

// attrOf returns the attribute name of the first of es that has it.
func attrOf(es []ext.Extension, name string) string {
	for _, e := range es {
		if v := uri.TrimSpace(e.Attrs[name]); v != "" {
			return v
		}
	}
	return ""
}

// mrssText returns the first media:title or media:description of es, as
// HTML when its type says so.
func mrssText(es []ext.Extension) text {
	for _, e := range es {
		if uri.TrimSpace(e.Value) != "" {
			return text{value: e.Value, html: strings.EqualFold(e.Attrs["type"], "html")}
		}
	}
	return text{}
}

// addMRSS adds the images and videos of the Media RSS elements of an item
// (or Atom entry), given as gofeed parsed them: media:content, and
// media:content inside media:group, each with the player, thumbnail, title
// and description of its own level or the nearest level above; a
// media:player without a video media:content at its level is a video of its
// own. media:thumbnail elements are kept apart: they become images unless
// they are a video's thumbnail.
//
// It returns the item-level context, which the item's enclosures share.
func (it *item) addMRSS(e ext.Extensions, duration string) mrssContext {
	m := e["media"]
	if m == nil {
		return mrssContext{}
	}
	top := mrssContext{}.within(m)
	for _, g := range m["group"] {
		it.addMRSSLevel(g.Children, top.within(g.Children), "media:group/media:content", duration)
	}
	it.addMRSSLevel(m, top, "media:content", duration)
	return top
}

// addMRSSLevel adds the media of one level of Media RSS: the media:content
// and media:thumbnail elements of children, in context ctx.
func (it *item) addMRSSLevel(children map[string][]ext.Extension, ctx mrssContext, what, duration string) {
	videos := len(it.videos)
	for _, c := range children["content"] {
		u := c.Attrs["url"]
		k := classify(c.Attrs["medium"], c.Attrs["type"], u)
		in := ctx.within(c.Children)
		d := c.Attrs["duration"]
		if d == "" {
			d = duration
		}
		v := videoRef{player: in.player, thumbnail: in.thumbnail, title: in.title, description: in.description, duration: d}
		if k == mediaPlayer && in.player != "" {
			// A plug-in URL beside a player page: the page plays it.
			k = mediaOther
		}
		if u == "" && (k == mediaVideo || k == mediaPlayer) && in.player != "" {
			k, u = mediaPlayer, in.player // a video given by its player only
		}
		it.addMedia(k, what, u, v)
		for _, t := range c.Children["thumbnail"] {
			it.thumbs = append(it.thumbs, mediaRef{what: "media:thumbnail", url: t.Attrs["url"]})
		}
	}
	if ctx.player != "" && len(it.videos) == videos && !it.hasPlayer(ctx.player) {
		it.addMedia(mediaPlayer, "media:player", ctx.player,
			videoRef{thumbnail: ctx.thumbnail, title: ctx.title, description: ctx.description, duration: duration})
	}
	for _, t := range children["thumbnail"] {
		it.thumbs = append(it.thumbs, mediaRef{what: "media:thumbnail", url: t.Attrs["url"]})
	}
}

// hasPlayer reports whether a video of the item has the player p.
func (it *item) hasPlayer(p string) bool {
	for _, v := range it.videos {
		if v.player == p {
			return true
		}
	}
	return false
}

// parseDuration reads a duration in seconds, or as [[hh:]mm:]ss as
// itunes:duration has it; it returns 0 when it cannot.
func parseDuration(s string) int {
	s = uri.TrimSpace(s)
	if s == "" {
		return 0
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f < 0 || f > 1e9 {
			return 0
		}
		return int(f + 0.5)
	}
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return 0
	}
	total := 0
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 1e6 {
			return 0
		}
		total = total*60 + n
	}
	return total
}
