package xml_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// foreignCoreCases are documents in which an element named like a sitemap
// element (url, sitemap, loc, lastmod, changefreq, priority) stands in
// another namespace, or under an undeclared prefix: extension data, never
// the sitemap element of that name. Each gives the locs read, whether the
// first entry keeps the element as foreign extension data, and the
// warnings. (One directly under the root is a document-level element,
// kept: see TestHeadCases.)
var foreignCoreCases = []struct {
	name, doc string
	locs      []string
	kept      bool
	warnings  []string
}{
	{"loc in a namespace", urlset + `<url><loc>https://a.example/</loc><x:loc xmlns:x="urn:other">https://b.example/</x:loc></url></urlset>`,
		[]string{"https://a.example/"}, true, nil},
	{"loc in a namespace without a colon", urlset + `<url><loc>https://a.example/</loc><x:loc xmlns:x="other">https://b.example/</x:loc></url></urlset>`,
		[]string{"https://a.example/"}, false, []string{"2:95: unknown element <other:loc> in <url> ignored"}},
	{"loc under an undeclared prefix", urlset + `<url><loc>https://a.example/</loc><x:loc>https://b.example/</x:loc></url></urlset>`,
		[]string{"https://a.example/"}, false, []string{"2:95: unknown element <x:loc> in <url> ignored"}},
	{"loc in a default namespace", urlset + `<url><loc xmlns="urn:other">https://b.example/</loc><loc>https://a.example/</loc></url></urlset>`,
		[]string{"https://a.example/"}, true, nil},
	{"url in a namespace inside a url", urlset + `<url><loc>https://a.example/</loc><x:url xmlns:x="urn:other"><x:loc>https://b.example/</x:loc></x:url></url></urlset>`,
		[]string{"https://a.example/"}, true, nil},
	{"url in a namespace inside the urlset", urlset + `<url><loc>https://a.example/</loc></url><x:url xmlns:x="urn:other"><loc>https://b.example/</loc></x:url></urlset>`,
		[]string{"https://a.example/"}, false, nil},
	{"sitemap in a namespace inside the urlset", urlset + `<url><loc>https://a.example/</loc></url><x:sitemap xmlns:x="urn:other"><loc>https://b.example/s.xml</loc></x:sitemap></urlset>`,
		[]string{"https://a.example/"}, false, nil},
	{"fields in a namespace", urlset + `<url><loc>https://a.example/</loc><lastmod>2024-01-02</lastmod><x:lastmod xmlns:x="urn:other">2025-01-01</x:lastmod>` +
		`<y:changefreq xmlns:y="other">sometimes</y:changefreq><y:priority xmlns:y="other">2</y:priority></url></urlset>`,
		[]string{"https://a.example/"}, true, []string{"2:177: unknown element <other:changefreq> in <url> ignored", "2:231: unknown element <other:priority> in <url> ignored"}},
	{"loc in a namespace in an index", index + `<sitemap><loc>https://a.example/s.xml</loc><x:loc xmlns:x="urn:other">https://b.example/s.xml</x:loc></sitemap></sitemapindex>`,
		[]string{"https://a.example/s.xml"}, true, nil},
	{"lastmod under an undeclared prefix in an index", index + `<sitemap><loc>https://a.example/s.xml</loc><x:lastmod>never</x:lastmod></sitemap></sitemapindex>`,
		[]string{"https://a.example/s.xml"}, false, []string{"2:110: unknown element <x:lastmod> in <sitemap> ignored"}},
	{"sitemap in a namespace inside an index", index + `<x:sitemap xmlns:x="urn:other"><loc>https://b.example/s.xml</loc></x:sitemap><sitemap><loc>https://a.example/s.xml</loc></sitemap></sitemapindex>`,
		[]string{"https://a.example/s.xml"}, false, nil},
}

// TestForeignCoreElements reads elements named like sitemap elements in
// another namespace as extension data, on both paths alike.
func TestForeignCoreElements(t *testing.T) {
	for _, tt := range foreignCoreCases {
		t.Run(tt.name, func(t *testing.T) {
			res := readString(t, tt.doc, formats.ReadOptions{})
			require.NoError(t, res.err)
			assert.Equal(t, tt.locs, res.locs())
			var w []string
			for _, pe := range res.warnings {
				w = append(w, pe.Error()[len(pe.Source)+1:])
			}
			assert.Equal(t, tt.warnings, w)
			require.NotEmpty(t, res.entries)
			e := res.entries[0]
			assert.Equal(t, tt.kept, e.Ext != nil && len(e.Ext.Foreign) > 0, "kept as foreign extension data")
			if tt.name == "fields in a namespace" {
				assert.Equal(t, "2024-01-02", e.LastMod.String())
			}
			checkSameOnBothPaths(t, []byte(tt.doc))
		})
	}
}
