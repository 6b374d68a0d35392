package xml_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
)

// TestForeignKeepsItsPlaceAmongExtensions: a shop's sitemap in the
// writer's normal form whose PageMaps (and a ResourceSync rs:ln) stand
// before, between and after the image, video and hreflang elements of
// their <url> is written back byte for byte: each foreign element keeps
// its place among the extension items (Extensions.ForeignAt), on both
// reader paths.
func TestForeignKeepsItsPlaceAmongExtensions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "foreign_among_extensions.xml"))
	require.NoError(t, err)
	for _, read := range readOnBothPaths(t, "foreign_among_extensions.xml") {
		entries := read.entries
		assert.Empty(t, read.warnings)
		var uses formats.ExtensionSet
		for _, e := range entries {
			uses |= e.Ext.Uses()
		}
		require.Len(t, entries, 4)
		var places [][]int
		for _, e := range entries {
			places = append(places, e.Ext.ForeignAt)
		}
		assert.Equal(t, [][]int{{1}, {0, 2}, nil, nil}, places,
			"after the first image; before the image and after the video; after every item (no place needed)")
		assert.Equal(t, string(data), string(writeAll(t, entries, formats.WriteOptions{Uses: uses})))
	}
}

// TestForeignPlacesLossless: the extension schema's fixture with foreign
// elements among its items and after the last
// (extschema.FullForeign) is written with each in its place, read back the
// same, and written again the same bytes.
func TestForeignPlacesLossless(t *testing.T) {
	want := formats.Entry{Loc: "https://example.com/", Ext: extschema.FullForeign()}
	doc := writeAll(t, []formats.Entry{want}, formats.WriteOptions{Uses: formats.ExtAll})
	s := string(doc)
	assert.Contains(t, s, `</image:image><p:first xmlns:p="urn:example:pagemap">1 &amp; 2</p:first><image:image>`, "after the first image")
	assert.Contains(t, s, `</video:video><p:between xmlns:p="urn:example:pagemap" a="b"><p:c/></p:between><video:video>`, "after the first video")
	assert.Contains(t, s, `<mobile:mobile/><last xmlns="urn:example:other"/></url>`, "after the last item")
	res := readAll(t, bytes.NewReader(doc), formats.ReadOptions{})
	require.NoError(t, res.err, "%s", doc)
	require.Len(t, res.entries, 1)
	assert.Equal(t, want, res.entries[0], "%s", doc)
	assert.Equal(t, s, string(writeAll(t, res.entries, formats.WriteOptions{Uses: formats.ExtAll})))
}
