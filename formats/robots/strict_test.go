package robots_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// readStrict reads a robots.txt strictly, served at base, and returns the
// error it stops with.
func readStrict(t *testing.T, in, base string) error {
	t.Helper()
	opts := formats.ReadOptions{Source: "robots.txt", Strict: true}
	opts.Base, _ = url.Parse(base)
	rd, _, err := formats.Open(strings.NewReader(in), formats.OpenOptions{ReadOptions: opts})
	require.NoError(t, err)
	for _, err := range formats.All(rd) {
		if err != nil {
			return err
		}
	}
	return nil
}

// In strict mode a Sitemap: line must hold an absolute URL as the
// protocol writes it, as validate wants: a relative one is refused even
// when the file's location is known (lenient reading resolves it), and so
// is one that breaks the URI grammar (lenient reading repairs it).
func TestStrictSitemapValues(t *testing.T) {
	const base = "https://example.com/robots.txt"
	got, warnings := read(t, strings.NewReader("Sitemap: /s.xml\nSitemap: https://example.com/a b.xml\n"), base)
	assert.Equal(t, []string{"https://example.com/s.xml", "https://example.com/a%20b.xml"}, locs(got))
	assert.Empty(t, warnings)
	for _, in := range []string{"Sitemap: /s.xml\n", "Sitemap: https://example.com/a b.xml\n", "Sitemap: https://example.com/é.xml\n"} {
		assert.Error(t, readStrict(t, in, base), in)
	}
	assert.NoError(t, readStrict(t, "Sitemap: https://example.com/s.xml # the index\n", base))
}
