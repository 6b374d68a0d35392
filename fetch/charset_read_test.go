package fetch_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
)

// TestFetchedFeedReadInServersCharset: a Russian paper's RSS in KOI8-R
// without an XML declaration, served as "application/rss+xml;
// charset=koi8-r", is read through formats.Open in KOI8-R: its titles and
// Cyrillic paths come out right, with no warning (no windows-1252
// fallback, which is for bytes that no one declared).
func TestFetchedFeedReadInServersCharset(t *testing.T) {
	feed, err := os.ReadFile(filepath.Join("..", "internal", "textenc", "testdata", "koi8r_feed_without_declaration.rss"))
	require.NoError(t, err)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml; charset=koi8-r")
		w.Write(feed)
	}))
	defer srv.Close()
	f, _ := newFetcher(t, fetch.Options{})
	body, err := f.Fetch(context.Background(), srv.URL+"/rss")
	require.NoError(t, err)
	defer body.Close()
	var warnings []string
	r, format, err := formats.Open(body, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: srv.URL,
		Warn: func(pe *formats.ParseError) { warnings = append(warnings, pe.Error()) }}})
	require.NoError(t, err)
	assert.Equal(t, "feed", format.Name)
	var titles, locs []string
	for e, err := range formats.All(r) {
		require.NoError(t, err)
		titles, locs = append(titles, e.Title), append(locs, e.Loc)
	}
	assert.Equal(t, []string{"Мост через Каму откроют в мае", "Ярмарка на площади"}, titles)
	assert.Equal(t, "https://zarechye.example/%D0%BD%D0%BE%D0%B2%D0%BE%D1%81%D1%82%D0%B8/%D0%BC%D0%BE%D1%81%D1%82", locs[0])
	assert.Empty(t, warnings)
}
