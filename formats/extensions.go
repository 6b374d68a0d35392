package formats

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// Merge returns the union of the extension data of two entries for the
// same URL, where winner is the entry that wins (the newer one, as
// dedupe decides). Lists are united, the winner's items first and in
// order, then the loser's items the winner lacks: images are the same when
// their locs are, videos when their content_loc (or, lacking one, their
// player_loc) are, alternates when hreflang, href and media are, foreign
// elements when their text is. Images are capped at MaxImages. Scalar data
// (news, the mobile marker) is the winner's, or the loser's when the
// winner has none.
//
// Neither winner nor loser is modified: the result's lists are new slices, holding
// shallow copies of the items (a video's tags are shared, say), and its
// news is a copy. It returns nil when both are empty.
func (winner *Extensions) Merge(loser *Extensions) *Extensions {
	if loser.IsEmpty() && winner.IsEmpty() {
		return nil
	}
	x := &Extensions{}
	if winner == nil {
		winner = &Extensions{}
	}
	if loser == nil {
		loser = &Extensions{}
	}
	x.Images = unionBy(winner.Images, loser.Images, func(im Image) string { return im.Loc })
	if len(x.Images) > MaxImages {
		x.Images = x.Images[:MaxImages:MaxImages]
	}
	x.Videos = unionBy(winner.Videos, loser.Videos, videoKey)
	x.Alternates = unionBy(winner.Alternates, loser.Alternates, func(a Alternate) Alternate { return a })
	x.Foreign = unionBy(winner.Foreign, loser.Foreign, func(s string) string { return s })
	switch {
	case winner.News != nil:
		n := *winner.News
		x.News = &n
	case loser.News != nil:
		n := *loser.News
		x.News = &n
	}
	x.Mobile = winner.Mobile || loser.Mobile
	x.ForeignAt = mergedForeignAt(winner, x)
	return x
}

// Items returns how many extension items x holds, counted as
// Extensions.ForeignAt counts them: its images, videos, news data,
// alternates and mobile marker.
func (x *Extensions) Items() int {
	n := 0
	for _, c := range x.itemCounts() {
		n += c
	}
	return n
}

// itemCounts returns how many items of each extension x holds, in the
// order the XML writer writes them: images, videos, news, alternates, the
// mobile marker.
func (x *Extensions) itemCounts() [5]int {
	if x == nil {
		return [5]int{}
	}
	c := [5]int{len(x.Images), len(x.Videos), 0, len(x.Alternates), 0}
	if x.News != nil {
		c[2] = 1
	}
	if x.Mobile {
		c[4] = 1
	}
	return c
}

// CheckForeignAt says what is wrong with x.ForeignAt, or returns nil when
// it places the foreign elements as ForeignAt says it must: nil, or one
// place for each, not decreasing, none past Items.
func (x *Extensions) CheckForeignAt() error {
	if x.ForeignAt == nil {
		return nil
	}
	if len(x.ForeignAt) != len(x.Foreign) {
		return fmt.Errorf("%d places for %d foreign elements", len(x.ForeignAt), len(x.Foreign))
	}
	prev, items := 0, x.Items()
	for _, at := range x.ForeignAt {
		if at < prev || at > items {
			return fmt.Errorf("place %d is not from %d to %d (the places do not decrease, and %d extension items are held)", at, prev, items, items)
		}
		prev = at
	}
	return nil
}

// mergedForeignAt returns the places of merged's foreign elements, merged
// by Merge from winner's and then the loser's: each of winner's keeps its
// place among the items of the extension it stood before (its images,
// say, which come first in merged's lists too), and the loser's come after
// every item. It returns nil when every one comes after them all.
func mergedForeignAt(winner, merged *Extensions) []int {
	if winner.ForeignAt == nil {
		return nil
	}
	wc, mc := winner.itemCounts(), merged.itemCounts()
	total := merged.Items()
	at := make([]int, len(merged.Foreign))
	placed := false
	for i := range at {
		at[i] = total
		if i >= len(winner.ForeignAt) {
			continue
		}
		// Before item n of extension k in winner: before item n of k in
		// merged, after all of merged's items of the extensions before k.
		c, before := winner.ForeignAt[i], 0
		for k := range wc {
			if c < wc[k] {
				at[i] = before + c
				break
			}
			c -= wc[k]
			before += mc[k]
		}
		placed = placed || at[i] < total
	}
	if !placed {
		return nil
	}
	return at
}

// videoKey is what tells two videos apart: the content_loc, or the
// player_loc of a video that has none.
func videoKey(v Video) [2]string {
	if v.ContentLoc != "" {
		return [2]string{"c", v.ContentLoc}
	}
	return [2]string{"p", v.PlayerLoc}
}

// unionBy returns a new slice of the items of a, then those of b whose key
// no earlier item has. It returns nil when both are empty. Items of a are
// all kept, even when two of them share a key.
func unionBy[T any, K comparable](a, b []T, key func(T) K) []T {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := slices.Clip(append(make([]T, 0, len(a)+len(b)), a...))
	if len(b) == 0 {
		return out
	}
	seen := make(map[K]bool, len(a)+len(b))
	for _, v := range a {
		seen[key(v)] = true
	}
	for _, v := range b {
		if k := key(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return slices.Clip(out)
}

// Missing returns the names of the fields the protocol requires that im
// lacks (its loc); nil when it has them all.
func (im *Image) Missing() []string {
	return missing(nil, "loc", im.Loc)
}

// Missing returns the names of the fields the protocol requires that v
// lacks: thumbnail_loc, title, description, and content_loc or
// player_loc; nil when it has them all. A video that lacks one is not
// written: an empty required element would make the sitemap invalid.
func (v *Video) Missing() []string {
	m := missing(nil, "thumbnail_loc", v.ThumbnailLoc)
	m = missing(m, "title", v.Title)
	m = missing(m, "description", v.Description)
	if uri.TrimSpace(v.ContentLoc) == "" && uri.TrimSpace(v.PlayerLoc) == "" {
		m = append(m, "content_loc or player_loc")
	}
	return m
}

// Missing returns the names of the fields the schema requires that t
// lacks: show_title and video_type; nil when it has them both. A video's
// tvshow that lacks one is left out, not the video.
func (t *TVShow) Missing() []string {
	return missing(missing(nil, "show_title", t.ShowTitle), "video_type", t.VideoType)
}

// Missing returns the names of the fields the protocol requires that n
// lacks: the publication's name and language, publication_date and title;
// nil when it has them all.
func (n *News) Missing() []string {
	m := missing(nil, "publication name", n.PublicationName)
	m = missing(m, "publication language", n.PublicationLanguage)
	if n.PublicationDate.IsZero() {
		m = append(m, "publication_date")
	}
	return missing(m, "title", n.Title)
}

// missing returns m with name added when v is empty or only spaces.
func missing(m []string, name, v string) []string {
	if uri.TrimSpace(v) == "" {
		return append(m, name)
	}
	return m
}

// Complete removes from x the images, videos and news data that lack a
// field the protocol requires, and the tvshow of a video that lacks one
// (see the Missing methods), calling drop for
// each with what it is and what it lacks ("video https://example.com/v.mp4:
// no title, no description"), and returns drop's first error. Every
// reader applies this rule, so converting never writes an invented or
// empty required field.
func (x *Extensions) Complete(drop func(what string) error) error {
	var first error
	x.incomplete(func(what string) {
		if err := drop(what); err != nil && first == nil {
			first = err
		}
	}, true)
	return first
}

// Incomplete returns what Complete would say of the first item it would
// remove from x, or "" when it would remove none; x is not changed.
func (x *Extensions) Incomplete() string {
	first := ""
	x.incomplete(func(what string) {
		if first == "" {
			first = what
		}
	}, false)
	return first
}

// incomplete calls say for each image, video and news data of x that
// lacks a required field, and removes it when remove is set. Images are
// named by their place (image 2), videos by Video.Name, news by title.
func (x *Extensions) incomplete(say func(what string), remove bool) {
	if x == nil {
		return
	}
	var gone []int // the items removed, by their count before them (see ForeignAt)
	images, videos := x.Images[:0], x.Videos[:0]
	for i, im := range x.Images {
		if m := im.Missing(); m != nil {
			say(describe("image", strconv.Itoa(i+1), m))
			gone = append(gone, i)
		} else if remove {
			images = append(images, im)
		}
	}
	for j, v := range x.Videos {
		if m := v.Missing(); m != nil {
			say(describe("video", v.Name(), m))
			gone = append(gone, len(x.Images)+j)
			continue
		}
		if v.TVShow != nil {
			if m := v.TVShow.Missing(); m != nil {
				say(describe("video", v.Name()+" tvshow", m))
				v.TVShow = nil
			}
		}
		if remove {
			videos = append(videos, v)
		}
	}
	if x.News != nil {
		if m := x.News.Missing(); m != nil {
			say(describe("news", strconv.Quote(x.News.Title), m))
			gone = append(gone, len(x.Images)+len(x.Videos))
			if remove {
				x.News = nil
			}
		}
	}
	if remove {
		x.Images, x.Videos = slices.Clip(images), slices.Clip(videos)
		x.unplace(gone)
	}
}

// unplace moves the foreign elements back by the items removed before
// them: gone holds, in increasing order, how many items came before each
// removed item.
func (x *Extensions) unplace(gone []int) {
	if len(gone) == 0 || x.ForeignAt == nil {
		return
	}
	for i, at := range x.ForeignAt {
		n := 0
		for n < len(gone) && gone[n] < at {
			n++
		}
		x.ForeignAt[i] = at - n
	}
}

// describe is how Complete names an item that lacks the fields m.
func describe(what, name string, m []string) string {
	return fmt.Sprintf("%s %s: no %s", what, name, strings.Join(m, ", no "))
}

// Name is how a warning names v: its content_loc, else its player_loc,
// else its title, quoted.
func (v *Video) Name() string {
	switch {
	case v.ContentLoc != "":
		return v.ContentLoc
	case v.PlayerLoc != "":
		return v.PlayerLoc
	}
	return fmt.Sprintf("%q", v.Title)
}
