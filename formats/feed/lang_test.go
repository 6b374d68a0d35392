package feed_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestEmptyXMLLangIsUnknown: xml:lang="" on an entry, or on an element
// around it, says its language is unknown (XML 1.0, 2.12): it does not
// inherit the feed's language, for alternates or for news.
func TestEmptyXMLLangIsUnknown(t *testing.T) {
	res := readFile(t, "atom_xml_lang_empty_not_inherited.atom", formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 3)
	assert.Equal(t, []formats.Alternate{
		{Hreflang: "en", Href: "https://multi.example/a"}, {Hreflang: "de", Href: "https://multi.example/de/a"},
	}, res.entries[0].Ext.Alternates, "inherits en")
	assert.Equal(t, []formats.Alternate{{Hreflang: "de", Href: "https://multi.example/de/b"}},
		res.entries[1].Ext.Alternates, "unknown: the page is not listed")
	assert.Equal(t, []formats.Alternate{
		{Hreflang: "fr", Href: "https://multi.example/fr/c"}, {Hreflang: "en", Href: "https://multi.example/c"},
	}, res.entries[2].Ext.Alternates)
	require.Len(t, res.warnings, 1)
	assert.Contains(t, res.warnings[0].Error(), `item 2 ("Language unknown"): the page's own language is unknown (xml:lang=""): it is not listed among its alternates`)

	// News needs a language: the item inside a channel with xml:lang=""
	// has none, though the channel's <language> says en.
	now := time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC)
	res = readFile(t, "rss_xml_lang_on_channel.rss", formats.ReadOptions{NewsName: "Scope", Now: now})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 2)
	assert.True(t, res.entries[0].Ext == nil || res.entries[0].Ext.News == nil, "no language, no news")
	require.NotNil(t, res.entries[1].Ext)
	require.NotNil(t, res.entries[1].Ext.News)
	assert.Equal(t, "de", res.entries[1].Ext.News.PublicationLanguage)
}
