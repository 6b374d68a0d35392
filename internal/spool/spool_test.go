package spool

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

func lastmod(t *testing.T, s string) formats.LastMod {
	l, err := formats.ParseLastMod(s)
	require.NoError(t, err)
	return l
}

func entries(t *testing.T) []formats.Entry {
	p, _ := formats.NewPriority(0.75)
	zero, _ := formats.NewPriority(0)
	return []formats.Entry{
		{Loc: "https://example.com/"},
		{Loc: "https://example.com/a", LastMod: lastmod(t, "2024-05-06"), ChangeFreq: formats.ChangeFreq("daily"), Priority: p},
		{Loc: "https://example.com/b", LastMod: lastmod(t, "2024-05-06T07:08:09.123+05:30"), Priority: zero},
		{Loc: "https://example.com/c", LastMod: lastmod(t, "2024-05-06T07:08:09.000Z")},
		{Loc: "https://example.com/d", LastMod: lastmod(t, "2024-05-06T07:08-04:00")},
		{Loc: "https://example.com/e", LastMod: lastmod(t, "2024")},
		{Loc: "https://example.com/sitemap.xml", Kind: formats.KindSitemap, LastMod: lastmod(t, "Tue, 10 Jun 2003 04:00:00 GMT")},
		{Loc: "https://example.com/" + strings.Repeat("long/", 2000)},
		{Loc: "https://example.com/t", Title: "A title", Summary: "What it is about"},
		{Loc: "https://example.com/u", Summary: "Only a summary", Ext: &formats.Extensions{Images: []formats.Image{{Loc: "https://example.com/k.jpg"}}}},
		{Loc: "https://example.com/x", Ext: &formats.Extensions{
			Images: []formats.Image{{Loc: "https://example.com/i.jpg", Caption: "c", Title: "t"}, {Loc: "https://example.com/j.jpg"}},
			Videos: []formats.Video{{ThumbnailLoc: "https://example.com/t.jpg", Title: "v", Description: "d", ContentLoc: "https://example.com/v.mp4",
				Duration: 600, PublicationDate: lastmod(t, "2024-01-02T03:04:05Z"), Tags: []string{"a", "b"}, Live: "no"}},
			News:       &formats.News{PublicationName: "N", PublicationLanguage: "en", PublicationDate: lastmod(t, "2024-01-02"), Title: "T"},
			Alternates: []formats.Alternate{{Hreflang: "de", Href: "https://example.com/de/x"}},
		}},
	}
}

// same compares entries by what writers write.
func same(t *testing.T, want, got formats.Entry) {
	t.Helper()
	assert.Equal(t, want.Loc, got.Loc)
	assert.Equal(t, want.LastMod.String(), got.LastMod.String())
	assert.True(t, want.LastMod.Equal(got.LastMod), "%s vs %s", want.LastMod, got.LastMod)
	assert.Equal(t, want.ChangeFreq, got.ChangeFreq)
	assert.Equal(t, want.Priority, got.Priority)
	assert.Equal(t, want.Title, got.Title)
	assert.Equal(t, want.Summary, got.Summary)
	assert.Equal(t, want.Kind, got.Kind)
	if want.Ext == nil {
		assert.Nil(t, got.Ext)
		return
	}
	require.NotNil(t, got.Ext)
	assert.Equal(t, fmt.Sprint(want.Ext.Images, want.Ext.Alternates), fmt.Sprint(got.Ext.Images, got.Ext.Alternates))
	require.Len(t, got.Ext.Videos, len(want.Ext.Videos))
	for i := range want.Ext.Videos {
		w, g := want.Ext.Videos[i], got.Ext.Videos[i]
		assert.Equal(t, w.PublicationDate.String(), g.PublicationDate.String())
		w.PublicationDate, g.PublicationDate = formats.LastMod{}, formats.LastMod{}
		assert.Equal(t, w, g)
	}
	if want.Ext.News == nil {
		assert.Nil(t, got.Ext.News)
		return
	}
	assert.Equal(t, want.Ext.News.PublicationDate.String(), got.Ext.News.PublicationDate.String())
	assert.Equal(t, want.Ext.News.Title, got.Ext.News.Title)
}

func TestRoundTrip(t *testing.T) {
	s, err := New(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	want := entries(t)
	// Enough records to go through the file and not only the buffer.
	var offs []int64
	for i := 0; i < 3000; i++ {
		e := want[i%len(want)]
		off, err := s.Append(&Record{Flags: uint8(i % 3), Hash: uint64(i) * 0x9e3779b97f4a7c15, Input: i % 5, Link: int64(i), Entry: e})
		require.NoError(t, err)
		offs = append(offs, off)
	}
	assert.Greater(t, s.Size(), int64(bufSize))
	for _, i := range []int{0, 7, 8, 1500, 2998, 2999} {
		r, err := s.ReadAt(offs[i])
		require.NoError(t, err)
		assert.Equal(t, offs[i], r.Off)
		assert.Equal(t, uint8(i%3), r.Flags)
		assert.Equal(t, uint64(i)*0x9e3779b97f4a7c15, r.Hash)
		assert.Equal(t, i%5, r.Input)
		assert.Equal(t, int64(i), r.Link)
		same(t, want[i%len(want)], r.Entry)
	}
	sc, err := s.Scan()
	require.NoError(t, err)
	for i := 0; ; i++ {
		r, err := sc.Next()
		if err == io.EOF {
			assert.Equal(t, 3000, i)
			break
		}
		require.NoError(t, err)
		assert.Equal(t, offs[i], r.Off)
		same(t, want[i%len(want)], r.Entry)
		// Reading by offset while scanning.
		if i%500 == 0 {
			r2, err := s.ReadAt(offs[i/2])
			require.NoError(t, err)
			same(t, want[(i/2)%len(want)], r2.Entry)
		}
	}
}

func BenchmarkAppendScan(b *testing.B) {
	s, err := New(b.TempDir())
	require.NoError(b, err)
	defer s.Close()
	e := formats.Entry{Loc: "https://www.example.com/blog/2024/05/some-post-title.html"}
	e.LastMod, _ = formats.ParseLastMod("2024-05-06T07:08:09Z")
	b.ReportAllocs()
	r := Record{Flags: 1, Entry: e}
	for i := 0; b.Loop(); i++ {
		r.Hash = uint64(i)
		s.Append(&r)
	}
	sc, _ := s.Scan()
	for {
		if _, err := sc.Next(); err != nil {
			break
		}
	}
}
