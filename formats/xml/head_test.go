package xml_test

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// rsMD and rsLn are the document-level elements of
// testdata/resourcesync_resource_list.xml as the Reader keeps them.
const (
	rsLn = `<rs:ln xmlns:rs="http://www.openarchives.org/rs/terms/" rel="up" href="http://example.com/dataset1/capabilitylist.xml"/>`
	rsMD = `<rs:md xmlns:rs="http://www.openarchives.org/rs/terms/" capability="resourcelist" at="2013-01-03T09:00:00Z" completed="2013-01-03T09:01:00Z"/>`
)

// rewrite reads data and writes it back as the Writer writes XML, with
// the document-level elements the Reader kept. It fails on a warning.
func rewrite(t *testing.T, data []byte) ([]byte, []string) {
	t.Helper()
	r := xml.NewReader(bytes.NewReader(data), formats.ReadOptions{Source: "doc.xml", Warn: func(pe *formats.ParseError) {
		t.Errorf("warning: %v", pe)
	}})
	var es []formats.Entry
	var uses formats.ExtensionSet
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		uses |= e.Ext.Uses()
		es = append(es, e)
	}
	var out bytes.Buffer
	w := xml.NewWriter(&out, formats.WriteOptions{Uses: uses, Head: r.Head()})
	for _, e := range es {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	return out.Bytes(), r.Head()
}

// TestResourceSyncHeadKept reads a ResourceSync resource list, whose rs:ln
// and rs:md stand directly in the urlset, and writes them back after the
// root start tag, before the entries, self-contained; a document already
// in that normal form is written back byte for byte. Both paths read them
// alike.
func TestResourceSyncHeadKept(t *testing.T) {
	data, err := os.ReadFile("testdata/resourcesync_resource_list.xml")
	require.NoError(t, err)
	out, head := rewrite(t, data)
	assert.Equal(t, []string{rsLn, rsMD}, head)
	want := xml.URLSetHeader + rsLn + "\n" + rsMD + "\n"
	assert.True(t, strings.HasPrefix(string(out), want), "head written after the root start tag:\n%s", out)
	assert.Contains(t, string(out), `<loc>http://example.com/res1</loc><lastmod>2013-01-02T13:00:00Z</lastmod><rs:md xmlns:rs=`, "the entries' own rs:md kept")
	assert.Equal(t, 2, strings.Count(string(out), "<url>"))
	again, _ := rewrite(t, out)
	assert.Equal(t, string(out), string(again), "normal form is written back byte for byte")
	assert.Equal(t, xml.HeaderSize(formats.WriteOptions{Head: head}), len(want), "HeaderSize counts the head")
	checkSameOnBothPaths(t, data)
	checkSameOnBothPaths(t, out)
}

// TestHeadCases: what is kept directly under the root, and what is not.
func TestHeadCases(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		head      []string
		warnings  int
	}{
		{"index", index + `<rs:md xmlns:rs="http://www.openarchives.org/rs/terms/" capability="resourcelist"/><sitemap><loc>https://a.example/s.xml</loc></sitemap></sitemapindex>`,
			[]string{`<rs:md xmlns:rs="http://www.openarchives.org/rs/terms/" capability="resourcelist"/>`}, 0},
		{"after the entries, with content", urlset + `<url><loc>https://a.example/</loc></url><x:a xmlns:x="urn:x" k="v">t<x:b/>&amp;</x:a></urlset>`,
			[]string{`<x:a xmlns:x="urn:x" k="v">t<x:b/>&amp;</x:a>`}, 0},
		{"an extension's element is not kept", urlset + `<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"/><url><loc>https://a.example/</loc></url></urlset>`,
			nil, 1},
		{"an undeclared prefix is not kept", urlset + `<x:a/><url><loc>https://a.example/</loc></url></urlset>`, nil, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var warnings int
			r := xml.NewReader(strings.NewReader(tt.doc), formats.ReadOptions{Warn: func(*formats.ParseError) { warnings++ }})
			for _, err := range formats.All(r) {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.head, r.Head())
			assert.Equal(t, tt.warnings, warnings)
			checkSameOnBothPaths(t, []byte(tt.doc))
		})
	}
}
