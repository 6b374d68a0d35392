package formats

import (
	"slices"
	"time"
)

// MaxImages is the most images one URL may list; MergeExtensions keeps no
// more.
const MaxImages = 1000

// MaxNews is the most news:news entries one sitemap file may hold (Google's
// news sitemap rule); package output splits a set at it like at MaxURLs.
const MaxNews = 1000

// NewsAge is how old a news article may be: Google News sitemaps list only
// the articles of the last two days.
const NewsAge = 48 * time.Hour

// MergeExtensions returns the union of the extension data of two entries
// for the same URL, where winner is the entry that wins (the newer one, as
// dedupe decides). Lists are united, the winner's items first and in
// order, then the loser's items the winner lacks: images are the same when
// their locs are, videos when their content_loc (or, lacking one, their
// player_loc) are, alternates when hreflang, href and media are, foreign
// elements when their text is. Images are capped at MaxImages. Scalar data
// (news, the mobile marker) is the winner's, or the loser's when the
// winner has none.
//
// Neither argument is modified: the result's lists are new slices, holding
// shallow copies of the items (a video's tags are shared, say), and its
// news is a copy. It returns nil when both are empty.
func MergeExtensions(winner, loser *Extensions) *Extensions {
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
	return x
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
