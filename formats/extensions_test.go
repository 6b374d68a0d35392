package formats_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

func TestExtensionsMerge(t *testing.T) {
	winner := &formats.Extensions{
		Images:     []formats.Image{{Loc: "https://e.com/a.jpg", Title: "new"}},
		Videos:     []formats.Video{{ContentLoc: "https://e.com/v.mp4", Title: "new"}},
		Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://e.com/de"}},
		Foreign:    []string{`<a xmlns="urn:a"/>`},
	}
	loser := &formats.Extensions{
		Images:     []formats.Image{{Loc: "https://e.com/a.jpg", Title: "old"}, {Loc: "https://e.com/b.jpg"}},
		Videos:     []formats.Video{{ContentLoc: "https://e.com/v.mp4", Title: "old"}, {PlayerLoc: "https://e.com/v.mp4"}},
		News:       &formats.News{Title: "old news"},
		Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://e.com/de"}, {Hreflang: "fr", Href: "https://e.com/fr"}},
		Mobile:     true,
		Foreign:    []string{`<a xmlns="urn:a"/>`, `<b xmlns="urn:b"/>`},
	}
	got := winner.Merge(loser)
	assert.Equal(t, &formats.Extensions{
		Images:     []formats.Image{{Loc: "https://e.com/a.jpg", Title: "new"}, {Loc: "https://e.com/b.jpg"}},
		Videos:     []formats.Video{{ContentLoc: "https://e.com/v.mp4", Title: "new"}, {PlayerLoc: "https://e.com/v.mp4"}},
		News:       &formats.News{Title: "old news"},
		Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://e.com/de"}, {Hreflang: "fr", Href: "https://e.com/fr"}},
		Mobile:     true,
		Foreign:    []string{`<a xmlns="urn:a"/>`, `<b xmlns="urn:b"/>`},
	}, got)
	assert.NotSame(t, loser.News, got.News, "news is copied")
	got.Images[0].Title = "changed"
	assert.Equal(t, "new", winner.Images[0].Title, "the arguments are not shared")

	// The winner's news wins.
	winner.News = &formats.News{Title: "new news"}
	assert.Equal(t, "new news", winner.Merge(loser).News.Title)

	assert.Nil(t, (*formats.Extensions)(nil).Merge(nil))
	assert.Nil(t, (&formats.Extensions{}).Merge(nil))
	assert.Equal(t, loser.Images, (*formats.Extensions)(nil).Merge(loser).Images)
}

func TestExtensionsMergeCapsImages(t *testing.T) {
	a, b := &formats.Extensions{}, &formats.Extensions{}
	for i := range 700 {
		a.Images = append(a.Images, formats.Image{Loc: fmt.Sprintf("https://e.com/a%d", i)})
		b.Images = append(b.Images, formats.Image{Loc: fmt.Sprintf("https://e.com/b%d", i)})
	}
	got := a.Merge(b)
	assert.Len(t, got.Images, formats.MaxImages)
	assert.Equal(t, "https://e.com/b299", got.Images[formats.MaxImages-1].Loc)
}

func ExampleExtensions_Merge() {
	newer := &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/a.jpg"}}}
	older := &formats.Extensions{
		Images:     []formats.Image{{Loc: "https://example.com/a.jpg"}, {Loc: "https://example.com/b.jpg"}},
		Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://example.com/de/"}},
	}
	x := newer.Merge(older)
	fmt.Println(len(x.Images), x.Images[1].Loc, x.Alternates[0].Hreflang)
	// Output: 2 https://example.com/b.jpg de
}
