package feed_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestRelativeLinksResolveAgainstSelfLink reads, as from a file or standard
// input (no base of its own), feeds whose entries have relative links and
// whose only absolute link is the self link: xml:base first (nested ones
// per RFC 3986), then the feed's own link resolved against the self link,
// then the self link.
func TestRelativeLinksResolveAgainstSelfLink(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		// <link href="/"/> relative, rel="self" absolute: a blog lost
		// every entry.
		{"atom_relative_links_only_self_absolute.atom", []string{
			"https://shed.example.org/posts/caching/",
			"https://shed.example.org/posts/a-year/",
			"https://shed.example.org/photos/?page=2",
		}},
		// No feed link at all: the self link is the base.
		{"atom_relative_links_no_feed_link_self_absolute.atom", []string{
			"https://notes.example.net/blog/rooted/",
			"https://notes.example.net/blog/relative.html",
		}},
		// The feed's own link, relative, resolves against the self link,
		// and the entries against it.
		{"atom_feed_link_relative_to_self.atom", []string{
			"https://docs.example.com/docs/install.html",
		}},
		// xml:base on the feed and on entries, nested: it comes before
		// the self link.
		{"atom_nested_xml_base.atom", []string{
			"https://base.example/site/2024/may/post.html",
			"https://base.example/other/page?x=1",
			"https://base.example/root.html",
		}},
		// A relative xml:base resolves against the self link.
		{"atom_relative_xml_base_self_absolute.atom", []string{
			"https://rel.example/blog/post-1/",
		}},
		// RSS: the channel <link> relative, an atom:link rel="self"
		// absolute.
		{"rss_relative_links_atom_self_absolute.rss", []string{
			"https://static.example.io/posts/first/",
			"https://static.example.io/posts/second/",
		}},
		{"rss_no_channel_link_atom_self_absolute.rss", []string{
			"https://self.example/news/story-1.html",
		}},
		// JSON Feed: feed_url is the self link.
		{"jsonfeed_relative_urls_feed_url_absolute.json", []string{
			"https://json.example/posts/one/",
			"https://json.example/two/",
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			res := readFile(t, tc.file, formats.ReadOptions{})
			require.NoError(t, res.err)
			assert.Equal(t, tc.want, res.locs())
			assert.Empty(t, res.warnings)
		})
	}
}

// TestSelfLinkComesBeforeReadLocation checks the order against the place
// the feed was read from: the self link wins, and a relative self link
// resolves against that place.
func TestSelfLinkComesBeforeReadLocation(t *testing.T) {
	res := readFile(t, "rss_relative_links_atom_self_absolute.rss", formats.ReadOptions{Base: mustURL("https://mirror.example/feeds/x.rss")})
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://static.example.io/posts/first/", "https://static.example.io/posts/second/"}, res.locs())

	doc := `<feed xmlns="http://www.w3.org/2005/Atom"><link rel="self" href="/blog/feed.atom"/>
<entry><title>t</title><link href="post/"/><id>x</id><updated>2024-05-06T09:00:00Z</updated></entry></feed>`
	res = read(t, doc, formats.ReadOptions{Base: mustURL("https://host.example/other/path.xml")})
	require.NoError(t, res.err)
	assert.Equal(t, []string{"https://host.example/blog/post/"}, res.locs())
}
