package fetch_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

// TestBodyCharset: the charset parameter of the answer's Content-Type is
// the body's Charset (what the readers decode it with), kept in the cache
// for the body served again on a 304; none without one, or with a
// Content-Type that does not parse.
func TestBodyCharset(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/koi8.rss", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == `"k1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", `"k1"`)
		w.Header().Set("Content-Type", `application/rss+xml; charset="KOI8-R"`)
		w.Write([]byte("<rss/>"))
	})
	mux.HandleFunc("/plain.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Write([]byte("<urlset/>"))
	})
	mux.HandleFunc("/broken.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset")
		w.Write([]byte("https://a.example/\n"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f, _ := newFetcher(t, fetch.Options{CacheDir: t.TempDir()})
	for _, tt := range []struct{ path, charset string }{{"/koi8.rss", "KOI8-R"}, {"/plain.xml", ""}, {"/broken.txt", ""}} {
		_, b, err := get(t, f, srv.URL+tt.path)
		require.NoError(t, err)
		assert.Equal(t, tt.charset, b.Charset, tt.path)
		assert.Equal(t, tt.charset, b.ContentCharset(), tt.path)
	}
	_, b, err := get(t, f, srv.URL+"/koi8.rss")
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotModified, b.Status)
	assert.Equal(t, "KOI8-R", b.Charset, "the cached answer's charset")
}
