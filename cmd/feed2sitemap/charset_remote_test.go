package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"
)

// TestRemoteKOI8RByServersCharset: a feed and a text list in KOI8-R that
// declare nothing, served with charset=koi8-r, are read in KOI8-R by
// convert, whose Cyrillic paths come out in UTF-8 with no windows-1252
// fallback, and are reported as KOI8-R by convert --strict and by
// validate of their URL.
func TestRemoteKOI8RByServersCharset(t *testing.T) {
	feed, err := os.ReadFile(filepath.Join("..", "..", "internal", "textenc", "testdata", "koi8r_feed_without_declaration.rss"))
	require.NoError(t, err)
	s := newSite(t)
	feed = bytes.ReplaceAll(feed, []byte("https://zarechye.example"), []byte(s.URL))
	list, err := charmap.KOI8R.NewEncoder().String(s.URL + "/новости/мост\n" + s.URL + "/новости/ярмарка\n")
	require.NoError(t, err)
	for path, body := range map[string]string{"/rss": string(feed), "/urls.txt": list} {
		typ := map[string]string{"/rss": "application/rss+xml", "/urls.txt": "text/plain"}[path] + "; charset=koi8-r"
		s.mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", typ)
			io.WriteString(w, body)
		})
	}
	want := s.URL + "/%D0%BD%D0%BE%D0%B2%D0%BE%D1%81%D1%82%D0%B8/%D0%BC%D0%BE%D1%81%D1%82\n" +
		s.URL + "/%D0%BD%D0%BE%D0%B2%D0%BE%D1%81%D1%82%D0%B8/%D1%8F%D1%80%D0%BC%D0%B0%D1%80%D0%BA%D0%B0\n"
	for _, path := range []string{"/rss", "/urls.txt"} {
		out, errOut, status := runCLI(t, nil, s.URL+path, "--allow-private-hosts", "--to", "text")
		require.Equal(t, exitOK, status, "%s: %s", path, errOut)
		assert.Equal(t, want, out, path)
		assert.NotContains(t, errOut, "windows-1252", path)
		_, errOut, status = runCLI(t, nil, s.URL+path, "--allow-private-hosts", "--to", "text", "--strict")
		assert.Equal(t, exitFail, status, path)
		assert.Contains(t, errOut, s.URL+path+":1:1: not encoded in UTF-8: the input is encoded in koi8-r\n", path)
		out, _, status = runCLI(t, nil, "validate", s.URL+path, "--allow-private-hosts")
		assert.Equal(t, exitFail, status, path)
		assert.Contains(t, out, "1:1: error: the document is encoded in koi8-r, not UTF-8 [encoding]\n", path)
		assert.NotContains(t, out, "windows-1252", path)
	}
}
