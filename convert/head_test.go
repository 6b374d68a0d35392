package convert_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// resourceList is a ResourceSync resource list with a document-level
// rs:ln and rs:md, whose pages are under loc.
func resourceList(loc, capability string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:rs="http://www.openarchives.org/rs/terms/">
<rs:ln rel="up" href="` + loc + `capabilitylist.xml"/>
<rs:md capability="` + capability + `"/>
<url><loc>` + loc + `res1</loc></url>
</urlset>
`)
}

// TestRunKeepsDocumentLevelElements: the output takes the document-level
// elements of the input its first entry comes from, with their
// namespaces declared on them; those of the other inputs, and all of them
// for an output that cannot hold foreign elements, are counted in
// HeadDropped.
func TestRunKeepsDocumentLevelElements(t *testing.T) {
	inputs := []convert.Input{
		input("a.xml", resourceList("https://a.example/", "resourcelist")),
		input("b.xml", resourceList("https://b.example/", "changelist")),
	}
	var out bytes.Buffer
	var head []string
	stats, err := convert.Run(inputs, func(o formats.WriteOptions) (formats.Writer, error) {
		head = o.Head
		return xml.NewWriter(&out, o), nil
	}, convert.Options{Output: convert.OutputOptions{Carries: xml.Format.Carries}})
	require.NoError(t, err)
	const rs = `xmlns:rs="http://www.openarchives.org/rs/terms/"`
	assert.Equal(t, []string{
		`<rs:ln ` + rs + ` rel="up" href="https://a.example/capabilitylist.xml"/>`,
		`<rs:md ` + rs + ` capability="resourcelist"/>`,
	}, head)
	assert.True(t, strings.HasPrefix(out.String(), xml.URLSetHeader+head[0]+"\n"+head[1]+"\n<url>"), out.String())
	assert.Equal(t, 2, stats.HeadDropped, "b.xml's")
	assert.Equal(t, 2, stats.Written)

	_, stats, _, err = run(t, inputs, convert.Options{Output: convert.OutputOptions{Carries: text.Format.Carries}})
	require.NoError(t, err)
	assert.Equal(t, 4, stats.HeadDropped, "a text sitemap holds none")
}
