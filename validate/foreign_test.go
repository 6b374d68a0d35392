package validate

import (
	"slices"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestForeignCoreElementsAgreeWithReader checks documents in which
// elements named like sitemap elements stand in another namespace: validate
// counts and follows what the XML reader reads, reports the foreign
// elements as such, and never as a repeated <loc> or a second entry.
func TestForeignCoreElementsAgreeWithReader(t *testing.T) {
	const (
		urlset = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
		index  = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	)
	for _, doc := range []string{
		urlset + `<url><loc>https://example.com/a</loc><x:loc xmlns:x="urn:other">https://example.com/b</x:loc></url></urlset>`,
		urlset + `<url><loc>https://example.com/a</loc><x:loc xmlns:x="other">https://example.com/b</x:loc></url></urlset>`,
		urlset + `<url><loc>https://example.com/a</loc><x:url xmlns:x="urn:other"><x:loc>https://example.com/b</x:loc></x:url></url></urlset>`,
		urlset + `<url><loc>https://example.com/a</loc></url><x:url xmlns:x="urn:other"><loc>https://example.com/b</loc></x:url></urlset>`,
		urlset + `<url><loc>https://example.com/a</loc><x:lastmod xmlns:x="other">soon</x:lastmod><x:priority xmlns:x="other">7</x:priority></url></urlset>`,
		index + `<sitemap><loc>https://example.com/a.xml</loc><x:loc xmlns:x="urn:other">https://example.com/b.xml</x:loc></sitemap></sitemapindex>`,
		index + `<x:sitemap xmlns:x="urn:other"><loc>https://example.com/b.xml</loc></x:sitemap><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>`,
	} {
		r, _, err := formats.Open(strings.NewReader(doc), formats.OpenOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var read []string
		for e, err := range formats.All(r) {
			if err != nil {
				t.Fatalf("%s: %v", doc, err)
			}
			read = append(read, e.Loc)
		}

		var opened []string
		var docs []Document
		children := map[string]string{"https://example.com/a.xml": twoURLs, "https://example.com/b.xml": twoURLs}
		v := New(Options{Now: testNow, Independent: true, OpenChild: memChildren(children, &opened),
			OnDocument: func(d Document) { docs = append(docs, d) }})
		got := run(t, v, doc, "doc.xml", "https://example.com/doc.xml")
		i := slices.IndexFunc(docs, func(d Document) bool { return d.Source == "doc.xml" })
		if i < 0 || docs[i].URLs != len(read) {
			t.Errorf("%s: validate counts the entries of %+v, the reader reads %v", doc, docs, read)
		}
		if strings.Contains(doc, "<sitemapindex") && !slices.Equal(opened, read) {
			t.Errorf("%s: validate follows %v, the reader reads %v", doc, opened, read)
		}
		for _, f := range got {
			if f.Source == "doc.xml" && (strings.Contains(f.Message, "repeated") || f.Rule.ID == "duplicate-url") {
				t.Errorf("%s: %s: %s", doc, f.Rule.ID, f.Message)
			}
		}
	}
}
