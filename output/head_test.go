package output_test

import (
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

// TestSplitKeepsHeadInEveryDocument: document-level elements (a
// ResourceSync rs:md) are in every part and in the index, each a complete
// document that says what it is; the byte limit counts them exactly. (The
// sitemaps.org schemas' strict wildcard refuses an element of a namespace
// they have no schema for, as it does a PageMap inside a <url>: the
// documents are not checked against them.)
func TestSplitKeepsHeadInEveryDocument(t *testing.T) {
	head := []string{`<rs:md xmlns:rs="http://www.openarchives.org/rs/terms/" capability="resourcelist"/>`}
	entries := pages(5, false)
	for i := range entries {
		entries[i].Loc += "/" + strings.Repeat("x", 200)
	}
	one := int64(entrySize(entries[0]))
	withHead := int64(frameSize(formats.WriteOptions{Head: head}))
	dir := t.TempDir()
	// Room for two entries with the head: a limit that ignored the head
	// would put three in a part.
	max := withHead + 2*one + one/2
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxBytes: max,
		BaseURL: base(t, "https://example.com/"), Write: formats.WriteOptions{Head: head}}, entries)
	require.NoError(t, err)
	files := s.Files()
	require.Len(t, files, 4, "three parts and an index")
	for _, f := range files {
		data, err := os.ReadFile(f.Path)
		require.NoError(t, err)
		assert.LessOrEqual(t, int64(len(data)), max, f.Path)
		assert.Equal(t, 1, strings.Count(string(data), head[0]), f.Path)
		assert.Contains(t, string(data), ">\n"+head[0]+"\n<", f.Path)
	}
	var got []formats.Entry
	for _, f := range files[:3] {
		got = append(got, readEntries(t, f.Path)...)
	}
	assert.Equal(t, locs(entries), locs(got))
	assert.Len(t, readEntries(t, s.Path()), 3)
}
