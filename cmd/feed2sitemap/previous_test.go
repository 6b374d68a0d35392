package main

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// TestPreviousDamaged reads back a previous set whose index is cut short,
// has an entry that cannot be read, or lists a part that is missing: the
// files found come with a damageError naming the file and the place.
func TestPreviousDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xml")
	baseURL, err := url.Parse("https://example.com/")
	require.NoError(t, err)
	opts := output.Options{Path: path, Format: xml.Format, MaxURLs: 10, BaseURL: baseURL}
	s, err := output.New(opts)
	require.NoError(t, err)
	for i := range 30 {
		require.NoError(t, s.Write(formats.Entry{Loc: fmt.Sprintf("https://example.com/page/%d", i)}))
	}
	require.NoError(t, s.Close())
	index, err := os.ReadFile(path)
	require.NoError(t, err)
	parts := make([]string, 3)
	for i, f := range s.Files()[:3] {
		parts[i] = f.Path
	}
	previous := func() ([]string, error) {
		t.Helper()
		s, err := output.New(opts)
		require.NoError(t, err)
		return previousFiles(s)
	}
	got, err := previous()
	require.NoError(t, err)
	assert.Equal(t, parts, got)

	var damage *damageError
	lines := strings.SplitAfter(string(index), "\n")
	cases := map[string]struct {
		index string
		want  []string
		msg   string
	}{
		"cut short": {strings.Join(lines[:len(lines)-3], ""), parts[:2], path + ":5:1: XML syntax error: unexpected EOF (document cut short?)"},
		"bad entry": {strings.Replace(string(index), "<loc>https://example.com/sitemap-2", "<loc>ftp://example.com/sitemap-2", 1), []string{parts[0], parts[2]}, path + ":4:10: <loc> skipped"},
	}
	for name, c := range cases {
		require.NoError(t, os.WriteFile(path, []byte(c.index), 0o644))
		got, err := previous()
		require.ErrorAs(t, err, &damage, name)
		assert.Contains(t, err.Error(), c.msg, name)
		assert.Equal(t, c.want, got, name)
	}

	require.NoError(t, os.WriteFile(path, index, 0o644))
	require.NoError(t, os.Remove(parts[1]))
	got, err = previous()
	require.ErrorAs(t, err, &damage)
	assert.EqualError(t, err, "the index "+path+" lists "+filepath.Base(parts[1])+", which is missing")
	assert.Equal(t, []string{parts[0], parts[2]}, got)

	// Not damage: an index that lists another output's files.
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(index), "sitemap-2", "other-2", 1)), 0o644))
	_, err = previous()
	require.Error(t, err)
	assert.False(t, errors.As(err, &damage))
}
