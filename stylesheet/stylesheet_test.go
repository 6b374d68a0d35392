package stylesheet_test

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

func TestDefaultIsXSLT1(t *testing.T) {
	d := xml.NewDecoder(strings.NewReader(string(stylesheet.Default())))
	var root *xml.StartElement
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the stylesheet is well-formed XML")
		if se, ok := tok.(xml.StartElement); ok && root == nil {
			se := se.Copy()
			root = &se
		}
	}
	require.NotNil(t, root)
	assert.Equal(t, xml.Name{Space: "http://www.w3.org/1999/XSL/Transform", Local: "stylesheet"}, root.Name)
	attrs := map[string]string{}
	for _, a := range root.Attr {
		attrs[a.Name.Space+" "+a.Name.Local] = a.Value
	}
	assert.Equal(t, "1.0", attrs[" version"], "browsers run XSLT 1.0")
	for prefix, ns := range map[string]string{
		"s":     "http://www.sitemaps.org/schemas/sitemap/0.9",
		"image": "http://www.google.com/schemas/sitemap-image/1.1",
		"video": "http://www.google.com/schemas/sitemap-video/1.1",
	} {
		assert.Equal(t, ns, attrs["xmlns "+prefix], prefix)
	}
}

func TestDefaultLoadsNothing(t *testing.T) {
	s := string(stylesheet.Default())
	// Nothing that makes a browser fetch: no script, link, image, frame,
	// @import, url(), document() or xsl:import/include.
	for _, re := range []string{`<script`, `<link`, `<img`, `<iframe`, `@import`, `url\(`, `document\(`, `xsl:import`, `xsl:include`, `src=`} {
		assert.NotRegexp(t, regexp.MustCompile(re), s)
	}
	// The only absolute URLs are namespace names.
	for _, u := range regexp.MustCompile(`https?://[^"' <]+`).FindAllString(s, -1) {
		assert.Contains(t, []string{
			"http://www.w3.org/1999/XSL/Transform",
			"http://www.sitemaps.org/schemas/sitemap/0.9",
			"http://www.google.com/schemas/sitemap-image/1.1",
			"http://www.google.com/schemas/sitemap-video/1.1",
			"https://", "http://", // the loc template's scheme test
		}, u)
	}
}

func TestDefaultIsACopy(t *testing.T) {
	a := stylesheet.Default()
	a[0] = 'x'
	assert.Equal(t, byte('<'), stylesheet.Default()[0])
}

// TestDataURL checks that the data: URL holds the stylesheet, compacted
// to an XSLT document of the same elements, and is small enough for a
// sitemap that carries it to be recognized (sniff.Len).
func TestDataURL(t *testing.T) {
	u := stylesheet.DataURL()
	b64, ok := strings.CutPrefix(u, "data:text/xsl;base64,")
	require.True(t, ok, u[:40])
	doc, err := base64.StdEncoding.DecodeString(b64)
	require.NoError(t, err)
	assert.Equal(t, elements(t, stylesheet.Default()), elements(t, doc))
	assert.NotContains(t, string(doc), "<!--")
	assert.Less(t, len(u), sniff.Len-3000, "a sitemap's root element must stay within what readers look at")
}

// elements returns the names and attributes of the elements of doc, and
// its text other than white space, in order, with runs of white space as
// one space (as XPath and HTML take them).
func elements(t *testing.T, doc []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	var all []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return all
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			e := fmt.Sprint(tok.Name)
			for _, a := range tok.Attr {
				e += fmt.Sprintf(" %s=%q", a.Name, strings.Join(strings.Fields(a.Value), " "))
			}
			all = append(all, e)
		case xml.CharData:
			if s := strings.Join(strings.Fields(string(tok)), " "); s != "" {
				all = append(all, s)
			}
		}
	}
}
