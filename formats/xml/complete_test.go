package xml_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// TestReaderDropsExtensionsMissingRequiredFields reads extensions that lack
// a field the protocol requires: each is dropped with a warning naming
// its place and the field, and writing what was read invents nothing (no
// empty <video:title>, no empty <news:name>).
func TestReaderDropsExtensionsMissingRequiredFields(t *testing.T) {
	doc, err := os.ReadFile("testdata/extensions_missing_required_fields.xml")
	require.NoError(t, err)
	res := readString(t, string(doc), formats.ReadOptions{Source: "in.xml"})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 5)
	assert.Equal(t, []string{
		"in.xml:8:3: <video:video> dropped: no title (required)",
		"in.xml:16:3: <video:video> dropped: no content_loc or player_loc (required)",
		"in.xml:24:3: <news:news> dropped: no publication name, no publication_date (required)",
		"in.xml:31:3: <image:image> without a usable <loc> ignored",
		"in.xml:40:5: <video:tvshow> dropped: no show_title (required)",
	}, res.warningText())
	for _, e := range res.entries[:4] {
		assert.True(t, e.Ext.Uses() == 0, "%s keeps no extension", e.Loc)
	}
	require.Len(t, res.entries[4].Ext.Videos, 1)
	assert.Nil(t, res.entries[4].Ext.Videos[0].TVShow, "the video is kept, without its tvshow")

	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{Uses: formats.ExtAll})
	for _, e := range res.entries {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	assert.NotRegexp(t, `<(video|news|image):[a-z_]+></`, buf.String(), "an empty element")
	assert.Equal(t, 1, strings.Count(buf.String(), "<video:video>"))
}

// TestWriterLeavesOutIncompleteExtensions gives the writer, as a library
// user may, an image, a video and news data that lack required fields:
// none is written, the sizes stay exact, and Close says so.
func TestWriterLeavesOutIncompleteExtensions(t *testing.T) {
	e := formats.Entry{Loc: "https://example.com/a", Ext: &formats.Extensions{
		Images: []formats.Image{{Caption: "no loc"}, {Loc: "https://example.com/i.jpg"}},
		Videos: []formats.Video{{ThumbnailLoc: "https://example.com/t.jpg", Description: "d", ContentLoc: "https://example.com/v.mp4"}},
		News:   &formats.News{PublicationName: "P", PublicationLanguage: "en", Title: " "},
	}}
	var warnings []string
	o := formats.WriteOptions{Uses: formats.ExtAll, Warn: func(s string) { warnings = append(warnings, s) }}
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, o)
	require.NoError(t, w.Write(e))
	require.NoError(t, w.Close())
	assert.Equal(t, xml.HeaderSize(o)+xml.EntrySizeWith(e, o)+xml.FooterSize(o), buf.Len())
	assert.Contains(t, buf.String(), "<url><loc>https://example.com/a</loc><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url>")
	assert.Equal(t, []string{"extension data without a required field left out (the first: https://example.com/a: image 1: no loc)"}, warnings)
	assert.Len(t, e.Ext.Videos, 1, "the entry is not changed")
}

// TestComplete is the rule every reader applies: what lacks a required
// field is removed and named, the rest kept in order.
func TestComplete(t *testing.T) {
	x := &formats.Extensions{
		Images: []formats.Image{{Loc: "https://example.com/1.jpg"}, {Title: "t"}, {Loc: "https://example.com/3.jpg"}},
		Videos: []formats.Video{
			{ThumbnailLoc: "t", Title: "a", Description: "d", PlayerLoc: "https://example.com/p"},
			{ThumbnailLoc: "t", Description: "d", ContentLoc: "https://example.com/v.mp4"},
			{ThumbnailLoc: "t", Title: "b", Description: "d", ContentLoc: "https://example.com/w.mp4", TVShow: &formats.TVShow{VideoType: "clip"}},
		},
		News: &formats.News{PublicationName: "P", Title: "N"},
	}
	assert.Equal(t, "image 2: no loc", x.Incomplete())
	var said []string
	require.NoError(t, x.Complete(func(s string) error { said = append(said, s); return nil }))
	assert.Equal(t, []string{
		"image 2: no loc",
		"video https://example.com/v.mp4: no title",
		"video https://example.com/w.mp4 tvshow: no show_title",
		`news "N": no publication language, no publication_date`,
	}, said)
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/1.jpg"}, {Loc: "https://example.com/3.jpg"}}, x.Images)
	require.Len(t, x.Videos, 2)
	assert.Equal(t, "a", x.Videos[0].Title)
	assert.Nil(t, x.Videos[1].TVShow)
	assert.Nil(t, x.News)
	assert.Empty(t, x.Incomplete())
}

// TestWriterSaysOverMaxNews writes more news entries to one writer than a
// news sitemap may hold: Close says so (package output splits before).
func TestWriterSaysOverMaxNews(t *testing.T) {
	var warnings []string
	w := xml.NewWriter(io.Discard, formats.WriteOptions{Uses: formats.ExtNews, Warn: func(s string) { warnings = append(warnings, s) }})
	pub, err := formats.ParseLastMod(time.Now().UTC().Format(time.RFC3339))
	require.NoError(t, err)
	for i := range formats.MaxNews + 1 {
		require.NoError(t, w.Write(formats.Entry{Loc: fmt.Sprintf("https://example.com/%d", i), Ext: &formats.Extensions{
			News: &formats.News{PublicationName: "P", PublicationLanguage: "en", PublicationDate: pub, Title: "T"}}}))
	}
	require.NoError(t, w.Close())
	assert.Equal(t, []string{"1001 entries with news data in one sitemap, over the 1000 a news sitemap may hold: split them into files of at most 1000, in an index"}, warnings)
}
