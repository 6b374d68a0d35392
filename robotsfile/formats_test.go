package robotsfile_test

import (
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/robotsfile"
)

var registerOnce sync.Once

// registerThrowaways registers a sitemap format and a data format of this
// test's own, once however often the test runs.
func registerThrowaways() {
	registerOnce.Do(func() {
		writer := func(io.Writer, formats.WriteOptions) formats.Writer { return nil }
		formats.Register(&formats.Format{Name: "robotsfile-test-map", NewWriter: writer, Extensions: []string{".testmap"},
			Sitemap: true, Index: "xml"})
		formats.Register(&formats.Format{Name: "robotsfile-test-data", NewWriter: writer, Extensions: []string{".testdata"}, Index: "xml"})
	})
}

// TestSetExtensionsAreTheSitemapFormats shows that the files of a set are
// known by the extensions of the registered sitemap formats (and of their
// indexes), not by a list of names: a new sitemap format's parts belong to
// the set, a data format's files do not.
func TestSetExtensionsAreTheSitemapFormats(t *testing.T) {
	registerThrowaways()
	src := []byte("User-agent: *\n" +
		"Sitemap: https://example.com/sitemap-2-0123abcd.testmap\n" +
		"Sitemap: https://example.com/sitemap-3-0123abcd.testdata\n" +
		"Sitemap: https://example.com/sitemap.txt.gz\n")
	out, changed, err := robotsfile.Update(src, []string{"https://example.com/sitemap.xml"})
	require.NoError(t, err)
	assert.True(t, changed)
	got := string(out)
	assert.Contains(t, got, "Sitemap: https://example.com/sitemap.xml\n")
	assert.NotContains(t, got, ".testmap", "a part of a sitemap format belongs to the set")
	assert.NotContains(t, got, ".txt.gz", "a text sitemap belongs to the set")
	assert.True(t, strings.Contains(got, "Sitemap: https://example.com/sitemap-3-0123abcd.testdata\n"), "a data format's file is another tool's: %s", got)
}
