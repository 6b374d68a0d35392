package convert_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
)

func TestChildSelectionSkipsChildrenUnopened(t *testing.T) {
	w := &web{docs: map[string]string{
		"https://a.example/index.xml": `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://a.example/maps/posts.txt</loc><lastmod>2025-03-01</lastmod></sitemap>
<sitemap><loc>https://a.example/maps/old-posts.txt</loc><lastmod>2023-01-01</lastmod></sitemap>
<sitemap><loc>https://a.example/maps/tags.txt</loc><lastmod>2025-03-01</lastmod></sitemap>
<sitemap><loc>https://a.example/maps/pages.txt</loc></sitemap>
<sitemap><loc>https://a.example/other/x.txt</loc></sitemap>
</sitemapindex>`,
		"https://a.example/maps/posts.txt":     "https://a.example/p/1\n",
		"https://a.example/maps/old-posts.txt": "https://a.example/p/0\n",
		"https://a.example/maps/tags.txt":      "https://a.example/t/1\n",
		"https://a.example/maps/pages.txt":     "https://a.example/about\n",
		"https://a.example/other/x.txt":        "https://a.example/x\n",
	}}
	sel, err := convert.ChildSelection{Include: []string{"/maps/*"}, Exclude: []string{"/**/tags.*"},
		Since: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}.Selector()
	require.NoError(t, err)
	out, stats, warnings, err := follow(t, w, convert.Options{Follow: convert.FollowOptions{Select: sel}}, "https://a.example/index.xml")
	require.NoError(t, err)
	assert.Empty(t, warnings)
	assert.Equal(t, "https://a.example/p/1\nhttps://a.example/about\n", out)
	assert.ElementsMatch(t, []string{"https://a.example/index.xml", "https://a.example/maps/posts.txt", "https://a.example/maps/pages.txt"}, w.opened,
		"a child left out is never opened; one without lastmod is followed")
	require.Len(t, stats.Inputs, 3)
	assert.Equal(t, 5, stats.Inputs[0].Children)
	assert.Equal(t, map[string]int{convert.RuleInclude: 1, convert.RuleExclude: 1, convert.RuleSince: 1}, stats.Inputs[0].SkippedChildren)
	assert.Nil(t, stats.Inputs[1].SkippedChildren)
}

func TestChildSelector(t *testing.T) {
	sel, err := convert.ChildSelection{}.Selector()
	require.NoError(t, err)
	assert.Nil(t, sel, "an empty selection leaves nothing out")

	_, err = convert.ChildSelection{Exclude: []string{"*.xml"}}.Selector()
	assert.ErrorContains(t, err, `glob "*.xml"`)

	sel, err = convert.ChildSelection{Exclude: []string{"/sitemap-{tags,authors}.xml"}}.Selector()
	require.NoError(t, err)
	assert.Equal(t, convert.RuleExclude, sel(formats.Entry{Loc: "https://a.example/sitemap-tags.xml"}))
	assert.Equal(t, convert.RuleExclude, sel(formats.Entry{Loc: "https://a.example/x/../sitemap-authors.xml"}), "matched in normal form too")
	assert.Equal(t, "", sel(formats.Entry{Loc: "https://a.example/sitemap-posts.xml"}))
}
