package formats_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestMergeKeepsForeignPlaces: merging the winner's PageMap, which stood
// after its first image and before its video, with a loser that brings
// another image and a video keeps it after the winner's first image, and
// places the loser's foreign element after every item; with no places on
// the winner there are none on the result.
func TestMergeKeepsForeignPlaces(t *testing.T) {
	winner := &formats.Extensions{
		Images:    []formats.Image{{Loc: "https://a.example/1.jpg"}, {Loc: "https://a.example/2.jpg"}},
		Videos:    []formats.Video{{ContentLoc: "https://a.example/v.mp4"}},
		Foreign:   []string{"<p:a xmlns:p=\"urn:p\"/>", "<p:b xmlns:p=\"urn:p\"/>"},
		ForeignAt: []int{1, 2}, // after the first image; before the video
	}
	loser := &formats.Extensions{
		Images:  []formats.Image{{Loc: "https://a.example/3.jpg"}},
		Videos:  []formats.Video{{ContentLoc: "https://a.example/w.mp4"}},
		Foreign: []string{"<p:c xmlns:p=\"urn:p\"/>"},
	}
	m := winner.Merge(loser)
	require.Len(t, m.Images, 3)
	require.Len(t, m.Videos, 2)
	assert.Equal(t, []int{1, 3, 5}, m.ForeignAt, "after image 1; after every image, before the videos; after all")
	require.NoError(t, m.CheckForeignAt())

	winner.ForeignAt = nil
	assert.Nil(t, winner.Merge(loser).ForeignAt)
}

// TestCompleteMovesForeignPlaces: an image without a loc, left out by
// Complete, no longer counts before the foreign elements after it.
func TestCompleteMovesForeignPlaces(t *testing.T) {
	x := &formats.Extensions{
		Images:    []formats.Image{{Loc: "https://a.example/1.jpg"}, {}, {Loc: "https://a.example/3.jpg"}},
		Foreign:   []string{"<p:a xmlns:p=\"urn:p\"/>", "<p:b xmlns:p=\"urn:p\"/>", "<p:c xmlns:p=\"urn:p\"/>"},
		ForeignAt: []int{1, 2, 3},
	}
	var said []string
	require.NoError(t, x.Complete(func(what string) error { said = append(said, what); return nil }))
	assert.Equal(t, []string{"image 2: no loc"}, said)
	assert.Len(t, x.Images, 2)
	assert.Equal(t, []int{1, 1, 2}, x.ForeignAt)
	require.NoError(t, x.CheckForeignAt())
}

// TestCheckForeignAt: places must be one per foreign element, not
// decreasing, none past the items.
func TestCheckForeignAt(t *testing.T) {
	x := &formats.Extensions{Images: []formats.Image{{Loc: "https://a.example/1.jpg"}}, Foreign: []string{"<a/>", "<b/>"}}
	for _, tt := range []struct {
		at []int
		ok bool
	}{{nil, true}, {[]int{0, 1}, true}, {[]int{1, 1}, true}, {[]int{1, 0}, false}, {[]int{0, 2}, false}, {[]int{0}, false}, {[]int{-1, 0}, false}} {
		x.ForeignAt = tt.at
		assert.Equal(t, tt.ok, x.CheckForeignAt() == nil, "%v", tt.at)
	}
}
