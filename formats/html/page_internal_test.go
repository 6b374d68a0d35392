package html

import (
	"errors"
	"io"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// errReadPastHead is what a page's body gives when it is read.
var errReadPastHead = errors.New("read past the head")

// failing fails every read.
type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errReadPastHead }

// The head is read and no further, unless images are asked for.
func TestParseHeadStopsAtTheHead(t *testing.T) {
	for _, head := range []string{
		`<html><head><meta name="robots" content="noindex"></head>`,
		`<html><head><meta name="robots" content="noindex"><body>`,
		`<meta name="robots" content="noindex"><div>`, // no head or body tag: a div has no place in a head
		`<head><meta name="robots" content="noindex"><script>var x = "<div>";</script><style>p{}</style><title>&lt;div&gt;</title><p>`,
	} {
		h, err := parseHead(io.MultiReader(strings.NewReader(head), failing{}), false)
		require.NoError(t, err, head)
		assert.True(t, h.noindex, head)
		_, err = parseHead(io.MultiReader(strings.NewReader(head), failing{}), true)
		assert.ErrorIs(t, err, errReadPastHead, "with images, the body is read: %s", head)
	}
}

func TestPageLoc(t *testing.T) {
	site, _ := url.Parse("https://example.com/sub/")
	for _, tc := range []struct {
		file, want, clean string
	}{
		{"index.html", "https://example.com/sub/", "https://example.com/sub/"},
		{"INDEX.HTM", "https://example.com/sub/", "https://example.com/sub/"},
		{"a/b/index.html", "https://example.com/sub/a/b/", "https://example.com/sub/a/b/"},
		{"a/about.html", "https://example.com/sub/a/about.html", "https://example.com/sub/a/about"},
		{"page.HTM", "https://example.com/sub/page.HTM", "https://example.com/sub/page"},
		// Percent-encoded exactly once: a '%' in a file name is %25.
		{"a%20b.html", "https://example.com/sub/a%2520b.html", "https://example.com/sub/a%2520b"},
		{"a b/c d.html", "https://example.com/sub/a%20b/c%20d.html", "https://example.com/sub/a%20b/c%20d"},
		{"café/menü.html", "https://example.com/sub/caf%C3%A9/men%C3%BC.html", "https://example.com/sub/caf%C3%A9/men%C3%BC"},
		{"\xff.html", "https://example.com/sub/%FF.html", "https://example.com/sub/%FF"},
		{"what?#.html", "https://example.com/sub/what%3F%23.html", "https://example.com/sub/what%3F%23"},
		{"x:y.html", "https://example.com/sub/x:y.html", "https://example.com/sub/x:y"},
		{"a+b&c=d.html", "https://example.com/sub/a+b&c=d.html", "https://example.com/sub/a+b&c=d"},
	} {
		got, err := pageLoc(DirOptions{Site: site}, tc.file)
		require.NoError(t, err, tc.file)
		assert.Equal(t, tc.want, got, tc.file)
		got, err = pageLoc(DirOptions{Site: site, CleanURLs: true}, tc.file)
		require.NoError(t, err, tc.file)
		assert.Equal(t, tc.clean, got, tc.file)
	}
	long := strings.Repeat("a", formats.MaxLocLength) + ".html"
	_, err := pageLoc(DirOptions{Site: site}, long)
	assert.Error(t, err, "a URL over the protocol's length")
}

// FuzzHead parses any page: it never panics, what the head says is the
// same whether the body is read or not, and a noindex the head says is
// seen.
func FuzzHead(f *testing.F) {
	f.Add([]byte(`<html><head><meta name="robots" content="noindex"><link rel="canonical" href="/a"></head><body><img src="x.png"></body></html>`))
	f.Add([]byte(`<head><script type="application/ld+json">{"@graph":[{"dateModified":"2024-01-01"}]}</script><link rel="alternate" hreflang="fr" href="/fr/">`))
	f.Add([]byte(`<meta property="og:image" content="a.png"><meta property="article:modified_time" content="2024"><div><img src=b.png>`))
	f.Add([]byte("<html><head><title><meta name=robots content=noindex></title><base href=//x/>"))
	f.Add([]byte("\x00\xff<!--<head>--><noscript><img src=a></noscript>"))
	f.Fuzz(func(t *testing.T, page []byte) {
		h, err := parseHead(strings.NewReader(string(page)), false)
		full, ferr := parseHead(strings.NewReader(string(page)), true)
		require.NoError(t, err)
		require.NoError(t, ferr)
		// The head's images (og:image) begin the page's.
		require.GreaterOrEqual(t, len(full.images), len(h.images))
		assert.True(t, slices.Equal(h.images, full.images[:len(h.images)]), "%q, %q", h.images, full.images)
		full.images = h.images
		assert.Equal(t, h, full)
		if lower := strings.ToLower(string(page)); h.noindex {
			assert.True(t, strings.Contains(lower, "noindex") || strings.Contains(lower, "none"))
		}
	})
}
