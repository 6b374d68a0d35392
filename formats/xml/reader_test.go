package xml_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// result is everything reading a document gave.
type result struct {
	entries  []formats.Entry
	warnings []*formats.ParseError
	err      error // nil when the reader ended with io.EOF
}

func (r result) locs() []string {
	locs := []string{}
	for _, e := range r.entries {
		locs = append(locs, e.Loc)
	}
	return locs
}

func (r result) warningText() []string {
	var s []string
	for _, w := range r.warnings {
		s = append(s, w.Error())
	}
	return s
}

// readAll reads every entry of doc with opts, collecting the warnings.
func readAll(t testing.TB, r io.Reader, opts formats.ReadOptions) result {
	t.Helper()
	var res result
	opts.Warn = func(pe *formats.ParseError) { res.warnings = append(res.warnings, pe) }
	xr := xml.NewReader(r, opts)
	for i := 0; ; i++ {
		require.Less(t, i, 1_000_000, "reader does not end")
		e, err := xr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			require.Equal(t, formats.Entry{}, e, "an error comes with a zero entry")
			res.err = err
			// The error is sticky.
			_, again := xr.Next()
			require.Equal(t, err, again)
			break
		}
		res.entries = append(res.entries, e)
	}
	return res
}

func readString(t testing.TB, doc string, opts formats.ReadOptions) result {
	t.Helper()
	return readAll(t, strings.NewReader(doc), opts)
}

const (
	header = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	urlset = header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	index  = header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`
	exts   = ` xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"`
)

// readerCase is a small document and what reading it gives.
type readerCase struct {
	name     string
	doc      string
	base     string   // ReadOptions.Base
	locs     []string // the entries' locs, in order
	warnings []string // a substring of each warning, in order
	err      string   // a substring of the error; "" for none
}

var readerCases = []readerCase{
	{
		name: "sitemaps.org namespace",
		doc:  urlset + `<url><loc>https://example.com/</loc></url><url><loc>https://example.com/a</loc></url></urlset>`,
		locs: []string{"https://example.com/", "https://example.com/a"},
	},
	{
		name: "old Google 0.84 namespace",
		doc:  header + `<urlset xmlns="http://www.google.com/schemas/sitemap/0.84"><url><loc>https://example.com/</loc></url></urlset>`,
		locs: []string{"https://example.com/"},
	},
	{
		name: "old Google 0.9 namespace",
		doc:  header + `<urlset xmlns="http://www.google.com/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>`,
		locs: []string{"https://example.com/"},
	},
	{
		name: "no namespace, no declaration",
		doc:  `<urlset><url><loc>https://example.com/</loc></url></urlset>`,
		locs: []string{"https://example.com/"},
	},
	{
		name: "namespace bound to a prefix",
		doc:  header + `<sit:urlset xmlns:sit="http://www.sitemaps.org/schemas/sitemap/0.9"><sit:url><sit:loc>https://example.com/</sit:loc></sit:url></sit:urlset>`,
		locs: []string{"https://example.com/"},
	},
	{
		name: "undeclared prefix",
		doc:  `<s:urlset><s:url><s:loc>https://example.com/</s:loc></s:url></s:urlset>`,
		locs: []string{"https://example.com/"},
	},
	{
		name: "odd encoding declaration",
		doc:  `<?xml version="1.0" encoding="windows-1252"?><urlset><url><loc>https://example.com/</loc></url></urlset>`,
		locs: []string{"https://example.com/"},
	},
	{
		name: "CDATA",
		doc:  urlset + `<url><loc><![CDATA[https://example.com/?a=1&b=2]]></loc></url><url><loc> <![CDATA[https://example.com/]]>x </loc></url></urlset>`,
		locs: []string{"https://example.com/?a=1&b=2", "https://example.com/x"},
	},
	{
		name: "entities",
		doc:  urlset + `<url><loc>https://example.com/?a=1&amp;b=&#50;&amp;c=&lt;&gt;&quot;&apos;</loc></url></urlset>`,
		locs: []string{"https://example.com/?a=1&b=2&c=%3C%3E%22'"},
	},
	{
		name: "bare ampersand is not a cut",
		doc:  urlset + `<url><loc>https://example.com/?a=1&b=2</loc></url><url><loc>https://example.com/x&y</loc></url></urlset>`,
		locs: []string{"https://example.com/?a=1&b=2", "https://example.com/x&y"},
		warnings: []string{`2:95: bare "&" or undeclared entity kept as it is: "&b" (write &amp;)`,
			`2:142: bare "&" or undeclared entity kept as it is: "&y" (write &amp;)`},
	},
	{
		name:     "undeclared entity kept literally",
		doc:      urlset + `<url><loc>https://example.com/a&nbsp;b&copy;</loc></url></urlset>`,
		locs:     []string{"https://example.com/a&nbsp;b&copy;"},
		warnings: []string{`2:92: bare "&" or undeclared entity kept as it is: "&nbsp;" (write &amp;)`},
	},
	{
		name: "padding with newlines, tabs and Unicode spaces",
		doc: urlset + "<url><loc>\n\t\u00a0 https://example.com/a \u2003\u200b\n</loc>" +
			"<lastmod>\n 2024-05-08\u00a0</lastmod><changefreq>\n\tDaily\n</changefreq><priority> 0.5\t</priority></url></urlset>",
		locs: []string{"https://example.com/a"},
	},
	{
		name:     "relative loc without base",
		doc:      urlset + `<url><loc>/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`,
		locs:     []string{"https://example.com/b"},
		warnings: []string{"2:66: <loc> skipped: relative URL"},
	},
	{
		name: "relative loc with base",
		doc:  urlset + `<url><loc>/a</loc></url><url><loc>b?x=1</loc></url></urlset>`,
		base: "https://example.com/dir/sitemap.xml",
		locs: []string{"https://example.com/a", "https://example.com/dir/b?x=1"},
	},
	{
		name:     "bad loc values",
		doc:      urlset + `<url><loc>ftp://example.com/</loc></url><url><loc>javascript:alert(1)</loc></url><url><loc>https://` + strings.Repeat("a", 2050) + `.com/</loc></url><url><loc> </loc></url><url><loc>https://example.com/ok</loc></url></urlset>`,
		locs:     []string{"https://example.com/ok"},
		warnings: []string{"<loc> skipped: not an http or https URL", "<loc> skipped: not an http or https URL", "<loc> skipped: URL longer than 2,048", "<loc> skipped: empty URL"},
	},
	{
		name:     "several URLs in one loc",
		doc:      urlset + "<url><loc>https://example.com/a https://example.com/b</loc></url><url><loc>https://example.com/c\nhttps://example.com/d</loc></url></urlset>",
		warnings: []string{"<loc> skipped: several URLs run together", "<loc> skipped: several URLs run together"},
	},
	{
		name:     "missing loc",
		doc:      urlset + `<url><lastmod>2024-01-01</lastmod></url><url/></urlset>`,
		warnings: []string{"<url> without <loc> skipped", "<url> without <loc> skipped"},
	},
	{
		name:     "several locs",
		doc:      urlset + `<url><loc>https://example.com/a</loc><loc>https://example.com/b</loc></url></urlset>`,
		warnings: []string{"<url> with several <loc> skipped"},
	},
	{
		name: "bad fields keep the entry",
		doc: urlset + `<url><loc>https://example.com/a</loc><lastmod>2024-13-45</lastmod><changefreq>sometimes</changefreq><priority>high</priority></url>` +
			`<url><loc>https://example.com/b</loc><lastmod>yesterday</lastmod><priority>1.5</priority></url>` +
			`<url><loc>https://example.com/c</loc><lastmod/><priority>-0.1</priority><changefreq></changefreq></url></urlset>`,
		locs: []string{"https://example.com/a", "https://example.com/b", "https://example.com/c"},
		warnings: []string{"<lastmod> ignored", `<changefreq> ignored: "sometimes"`, `<priority> ignored: "high"`,
			"<lastmod> ignored", `<priority> ignored: "1.5"`,
			"<lastmod> ignored", `<priority> ignored: "-0.1"`, `<changefreq> ignored: ""`},
	},
	{
		name:     "repeated field keeps the first",
		doc:      urlset + `<url><loc>https://example.com/a</loc><priority>0.1</priority><priority>0.9</priority></url></urlset>`,
		locs:     []string{"https://example.com/a"},
		warnings: []string{"second <priority> in one <url> ignored"},
	},
	{
		name: "unknown elements, one warning per name",
		doc: urlset + `<foo>text<url><loc>https://example.com/in-foo</loc></url></foo><foo/><url><loc>https://example.com/a</loc><bar><loc>x</loc></bar><bar/><loc2/></url>` +
			`<url><loc>https://example.com/b<b>bold</b></loc></url></urlset>`,
		locs: []string{"https://example.com/in-foo", "https://example.com/a", "https://example.com/b"},
		warnings: []string{"2:61: unknown element <foo> in <urlset> ignored", "unknown element <bar> in <url> ignored",
			"unknown element <loc2> in <url> ignored", "unknown element <b> in <loc> ignored"},
	},
	{
		name: "extension elements",
		doc: header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + exts + `>` +
			`<url><loc>https://example.com/a</loc><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image>` +
			`<image:image><image:loc>https://example.com/j.jpg</image:loc></image:image><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/></url>` +
			`<url><loc>https://example.com/b</loc><video:video><video:title>t</video:title></video:video><news:news/><mobile:mobile/></url></urlset>`,
		locs: []string{"https://example.com/a", "https://example.com/b"},
		// Written, they would be empty required elements.
		warnings: []string{
			"<video:video> dropped: no thumbnail_loc, no description, no content_loc or player_loc (required)",
			"<news:news> dropped: no publication name, no publication language, no publication_date, no title (required)",
		},
	},
	{
		name: "extension element with an undeclared prefix",
		doc:  urlset + `<url><loc>https://example.com/a</loc><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url></urlset>`,
		locs: []string{"https://example.com/a"},
	},
	{
		name:     "extension element outside an entry",
		doc:      header + `<urlset` + exts + `><image:image/><url><loc>https://example.com/a</loc></url></urlset>`,
		locs:     []string{"https://example.com/a"},
		warnings: []string{"unknown element <image:image> in <urlset> ignored"},
	},
	{
		name: "PageMap is a foreign element, kept",
		doc: urlset + `<url><loc>https://example.com/a</loc><PageMap xmlns="http://www.google.com/schemas/sitemap-pagemap/1.0"><DataObject type="document">` +
			`<Attribute name="url">https://example.com/x</Attribute></DataObject></PageMap></url></urlset>`,
		locs: []string{"https://example.com/a"},
	},
	{
		name: "url nested in url: the outer entry is rejected",
		doc: urlset + "\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc>\n" +
			"<url><loc>https://example.com/c</loc></url>\n<url><loc>https://example.com/d</loc></url>\n</urlset>",
		locs:     []string{"https://example.com/a", "https://example.com/c", "https://example.com/d"},
		warnings: []string{"4:1: <url> not closed before the next <url> at line 5: entry rejected"},
	},
	{
		name:     "url inside an unclosed loc",
		doc:      urlset + "\n<url><loc>https://example.com/a\n<url><loc>https://example.com/b</loc></url>\n</urlset>",
		locs:     []string{"https://example.com/b"},
		warnings: []string{"3:1: <url> not closed before the next <url> at line 4: entry rejected"},
	},
	{
		name:     "second root element",
		doc:      urlset + `<url><loc>https://example.com/a</loc></url></urlset>` + "\n<urlset><url><loc>https://example.com/b</loc></url></urlset>",
		locs:     []string{"https://example.com/a"},
		warnings: []string{"3:1: content after the root element ignored"},
	},
	{
		name:     "text after the root element",
		doc:      urlset + `<url><loc>https://example.com/a</loc></url></urlset>` + "\n<!-- fine -->\n<?pi fine?>\nGenerated in 0.1 s",
		locs:     []string{"https://example.com/a"},
		warnings: []string{"content after the root element ignored"},
	},
	{
		name:     "garbage after the root element",
		doc:      urlset + `<url><loc>https://example.com/a</loc></url></urlset>` + "\n</a><",
		locs:     []string{"https://example.com/a"},
		warnings: []string{"content after the root element ignored"},
	},
	{
		name:     "sitemap inside urlset",
		doc:      urlset + `<sitemap><loc>https://example.com/s.xml</loc></sitemap><url><loc>https://example.com/a</loc></url></urlset>`,
		locs:     []string{"https://example.com/a"},
		warnings: []string{"<sitemap> inside <urlset> skipped"},
	},
	{
		name:     "url inside sitemapindex",
		doc:      index + `<url><loc>https://example.com/a</loc></url><sitemap><loc>https://example.com/s.xml</loc></sitemap></sitemapindex>`,
		locs:     []string{"https://example.com/s.xml"},
		warnings: []string{"<url> inside <sitemapindex> skipped"},
	},
	{
		name: "sitemap index",
		doc: index + `<sitemap><loc>https://example.com/s1.xml.gz</loc><lastmod>2004-10-01T18:23:17+00:00</lastmod></sitemap>` +
			`<sitemap><loc>https://example.com/s2.xml.gz</loc></sitemap></sitemapindex>`,
		locs: []string{"https://example.com/s1.xml.gz", "https://example.com/s2.xml.gz"},
	},
	{
		name:     "changefreq and priority are not part of an index",
		doc:      index + `<sitemap><loc>https://example.com/s1.xml</loc><priority>0.5</priority><changefreq>daily</changefreq></sitemap></sitemapindex>`,
		locs:     []string{"https://example.com/s1.xml"},
		warnings: []string{"unknown element <priority> in <sitemap> ignored", "unknown element <changefreq> in <sitemap> ignored"},
	},
	{
		name: "bare URL without loc",
		doc: index + "\n<sitemap>\nhttps://example.com/s.jss?a=1&amp;b=2\n</sitemap>\n<sitemap><!-- c --> https://example.com/t.xml <lastmod>2024-01-02</lastmod></sitemap>\n" +
			"<sitemap>\n</sitemap>\n<sitemap>not a url</sitemap></sitemapindex>",
		locs: []string{"https://example.com/s.jss?a=1&b=2", "https://example.com/t.xml"},
		warnings: []string{"3:1: <sitemap> has no <loc>: its text is used as the URL", "6:1: <sitemap> has no <loc>", "7:1: <sitemap> without <loc> skipped",
			"9:1: <sitemap> has no <loc>", "9:1: <sitemap> skipped: relative URL"},
	},
	{
		name:     "bare URL in a url",
		doc:      urlset + `<url>https://example.com/a</url></urlset>`,
		locs:     []string{"https://example.com/a"},
		warnings: []string{"<url> has no <loc>: its text is used as the URL"},
	},
	{
		name: "DOCTYPE entities are not expanded",
		doc: header + `<!DOCTYPE urlset [<!ENTITY a "https://evil.example/"><!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY lol "lol&lol;&lol;">]>` +
			`<urlset><url><loc>https://example.com/&a;&xxe;&lol;</loc></url></urlset>`,
		locs:     []string{"https://example.com/&a;&xxe;&lol;"},
		warnings: []string{"DOCTYPE entity declarations ignored", `2:164: bare "&" or undeclared entity kept as it is: "&a;"`},
	},
	{
		name: "comments and processing instructions",
		doc: header + `<?xml-stylesheet type="text/xsl" href="s.xsl"?><!-- x --><urlset><!-- y --><url><!-- z --><loc>https://exa<!-- cut -->mple.com/</loc></url></urlset>` +
			"\n<!-- generated -->\n",
		locs: []string{"https://example.com/"},
	},
	{
		name: "empty urlset",
		doc:  urlset + `</urlset>`,
	},
	{
		name: "self-closing root",
		doc:  `<urlset/>`,
	},
	{
		name: "other root element",
		doc:  header + `<rss version="2.0"><channel/></rss>`,
		err:  "2:1: root element <rss> is not <urlset> or <sitemapindex>",
	},
	{
		name: "no root element",
		doc:  header + "<!-- nothing -->\n",
		err:  "no root element",
	},
	{
		name: "truncated inside loc",
		doc:  urlset + "\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://exa",
		locs: []string{"https://example.com/a"},
		err:  "4:22: XML syntax error: unexpected EOF (document cut short?); reading stopped after 1 entry",
	},
	{
		name: "truncated without end of urlset",
		doc:  urlset + "\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc></url>\n",
		locs: []string{"https://example.com/a", "https://example.com/b"},
		err:  "unexpected EOF (document cut short?); reading stopped after 2 entries",
	},
	{
		name: "mismatched end tag is repaired in lenient mode",
		doc:  urlset + `<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc><lastmod>2024-01-01</url></urlset>`,
		locs: []string{"https://example.com/a", "https://example.com/b"},
	},
	{
		name: "raw < in a value is a syntax error",
		doc:  index + `<sitemap><loc>https://example.com/a.xml</loc></sitemap><sitemap><loc>https://example.com/b.xml</loc><lastmod>2005-01-01<</lastmod></sitemap></sitemapindex>`,
		locs: []string{"https://example.com/a.xml"},
		err:  "XML syntax error",
	},
	{
		name:     "nesting 64 deep is fine",
		doc:      urlset + strings.Repeat("<x>", 63) + strings.Repeat("</x>", 63) + `<url><loc>https://example.com/a</loc></url></urlset>`,
		locs:     []string{"https://example.com/a"},
		warnings: []string{"unknown element <x> in <urlset> ignored"},
	},
	{
		name:     "nesting 65 deep is an error",
		doc:      urlset + `<url><loc>https://example.com/a</loc></url>` + strings.Repeat("<x>", 64) + strings.Repeat("</x>", 64) + `</urlset>`,
		locs:     []string{"https://example.com/a"},
		warnings: []string{"unknown element <x> in <urlset> ignored"},
		err:      "elements nested more than 64 deep",
	},
}

func TestReader(t *testing.T) {
	for _, tc := range readerCases {
		t.Run(tc.name, func(t *testing.T) {
			opts := formats.ReadOptions{Source: "test.xml"}
			if tc.base != "" {
				u, err := url.Parse(tc.base)
				require.NoError(t, err)
				opts.Base = u
			}
			res := readString(t, tc.doc, opts)
			want := tc.locs
			if want == nil {
				want = []string{}
			}
			assert.Equal(t, want, res.locs())
			require.Len(t, res.warnings, len(tc.warnings), "warnings: %q", res.warningText())
			for i, w := range tc.warnings {
				assert.Contains(t, res.warnings[i].Error(), w)
				assert.Equal(t, "test.xml", res.warnings[i].Source)
				assert.Positive(t, res.warnings[i].Line)
				assert.Positive(t, res.warnings[i].Column)
				wantSkipped := strings.Contains(w, "skipped") || strings.Contains(w, "rejected")
				assert.Equal(t, wantSkipped, res.warnings[i].Skipped, "Skipped of %q", res.warnings[i])
			}
			if tc.err == "" {
				require.NoError(t, res.err)
			} else {
				require.Error(t, res.err)
				assert.Contains(t, res.err.Error(), tc.err)
				var pe *formats.ParseError
				require.ErrorAs(t, res.err, &pe)
				assert.Equal(t, "test.xml", pe.Source)
				assert.Positive(t, pe.Line)
			}
		})
	}
}

func TestReaderFields(t *testing.T) {
	doc := urlset + `<url><loc>HTTPS://Example.COM/a b</loc><lastmod>2024-05-08T10:11:12+02:00</lastmod><changefreq>WEEKLY</changefreq><priority>0.0</priority></url>` +
		`<url><loc>https://example.com/b</loc><lastmod>2024</lastmod><priority>1</priority></url>` +
		`<url><loc>https://example.com/c</loc></url></urlset>`
	res := readString(t, doc, formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Empty(t, res.warnings)
	require.Len(t, res.entries, 3)

	a := res.entries[0]
	assert.Equal(t, "https://example.com/a%20b", a.Loc)
	assert.Equal(t, formats.KindURL, a.Kind)
	assert.Equal(t, "2024-05-08T10:11:12+02:00", a.LastMod.String())
	assert.Equal(t, formats.PrecisionSecond, a.LastMod.Precision())
	assert.Equal(t, formats.Weekly, a.ChangeFreq)
	assert.True(t, a.Priority.IsSet(), "priority 0.0 is a value, not absent")
	assert.Equal(t, "0.0", a.Priority.String())
	assert.Nil(t, a.Ext)

	b := res.entries[1]
	assert.Equal(t, formats.PrecisionYear, b.LastMod.Precision())
	assert.Equal(t, "1.0", b.Priority.String())
	assert.Empty(t, b.ChangeFreq)

	c := res.entries[2]
	assert.True(t, c.LastMod.IsZero())
	assert.False(t, c.Priority.IsSet())
	assert.Empty(t, c.ChangeFreq)
}

func TestReaderIndexKind(t *testing.T) {
	res := readString(t, index+`<sitemap><loc>https://example.com/s.xml</loc><lastmod>2024-01-02</lastmod></sitemap></sitemapindex>`, formats.ReadOptions{})
	require.NoError(t, res.err)
	require.Len(t, res.entries, 1)
	assert.Equal(t, formats.KindSitemap, res.entries[0].Kind)
	assert.Equal(t, "2024-01-02", res.entries[0].LastMod.String())
}

func TestReaderStrict(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		locs []string
		err  string
	}{
		{"bad lastmod", urlset + `<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc><lastmod>soon</lastmod></url></urlset>`,
			[]string{"https://example.com/a"}, "<lastmod> ignored"},
		{"bad loc", urlset + `<url><loc>/a</loc></url></urlset>`, nil, "relative URL"},
		{"unknown element", urlset + `<foo/></urlset>`, nil, "unknown element <foo>"},
		{"second root", urlset + `</urlset><urlset/>`, nil, "content after the root element"},
		{"bare ampersand", urlset + `<url><loc>https://example.com/?a=1&b=2</loc></url></urlset>`, nil, "XML syntax error"},
		{"undeclared entity", urlset + `<url><loc>https://example.com/&nbsp;</loc></url></urlset>`, nil, "XML syntax error"},
		{"mismatched end tag", urlset + `<url><loc>https://example.com/a</loc></urlset>`, nil, "XML syntax error"},
		{"bare URL", index + `<sitemap>https://example.com/s.xml</sitemap></sitemapindex>`, nil, "has no <loc>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			warned := false
			opts := formats.ReadOptions{Source: "s.xml", Strict: true, Warn: func(*formats.ParseError) { warned = true }}
			xr := xml.NewReader(strings.NewReader(tc.doc), opts)
			var locs []string
			var err error
			for {
				var e formats.Entry
				e, err = xr.Next()
				if err != nil {
					break
				}
				locs = append(locs, e.Loc)
			}
			assert.Equal(t, tc.locs, locs)
			require.Error(t, err)
			require.NotEqual(t, io.EOF, err)
			assert.Contains(t, err.Error(), tc.err)
			var pe *formats.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, "s.xml", pe.Source)
			assert.Positive(t, pe.Line)
			assert.False(t, warned, "strict mode returns warnings instead of reporting them")

			// Lenient mode reads the same document to the end.
			res := readString(t, tc.doc, formats.ReadOptions{})
			if !strings.Contains(tc.err, "syntax") {
				assert.NoError(t, res.err)
			}
		})
	}
}

// fullSitemap is a small sitemap whose every prefix TestReaderTruncated reads.
const fullSitemap = urlset + `
  <url>
    <loc>https://example.com/</loc>
    <lastmod>2024-05-08</lastmod>
    <changefreq>daily</changefreq>
    <priority>1.0</priority>
  </url>
  <url><loc><![CDATA[https://example.com/a?x=1&y=2]]></loc></url>
  <url><loc>https://example.com/b&amp;c</loc><lastmod>2024-05-08T10:00:00Z</lastmod></url>
  <url>
    <loc>https://example.com/d</loc>
  </url>
</urlset>
`

func TestReaderTruncated(t *testing.T) {
	full := readString(t, fullSitemap, formats.ReadOptions{})
	require.NoError(t, full.err)
	require.Len(t, full.entries, 4)
	end := strings.LastIndex(fullSitemap, ">") + 1
	for i := 0; i < len(fullSitemap); i++ {
		for _, strict := range []bool{false, true} {
			res := readString(t, fullSitemap[:i], formats.ReadOptions{Strict: strict})
			require.LessOrEqual(t, len(res.entries), len(full.entries))
			for j, e := range res.entries {
				require.Equal(t, full.entries[j], e, "entry %d of a document cut at %d", j, i)
			}
			if i >= end {
				require.NoError(t, res.err, "cut at %d", i)
				continue
			}
			require.Error(t, res.err, "cut at %d", i)
			var pe *formats.ParseError
			require.ErrorAs(t, res.err, &pe, "cut at %d", i)
			require.Positive(t, pe.Line, "cut at %d: %v", i, res.err)
			require.Positive(t, pe.Column, "cut at %d: %v", i, res.err)
		}
	}
}

func TestReaderOneByteReads(t *testing.T) {
	want := readString(t, fullSitemap, formats.ReadOptions{})
	got := readAll(t, iotest.OneByteReader(strings.NewReader(fullSitemap)), formats.ReadOptions{})
	require.NoError(t, got.err)
	assert.Equal(t, want.entries, got.entries)

	got = readAll(t, iotest.DataErrReader(strings.NewReader(fullSitemap)), formats.ReadOptions{})
	require.NoError(t, got.err)
	assert.Equal(t, want.entries, got.entries)
}

func TestReaderReadError(t *testing.T) {
	errBroken := errors.New("corrupt gzip data: checksum error")
	cut := strings.Index(fullSitemap, "<url><loc>https://example.com/b")
	r := io.MultiReader(strings.NewReader(fullSitemap[:cut]), iotest.ErrReader(errBroken))
	res := readAll(t, r, formats.ReadOptions{Source: "s.xml.gz"})
	assert.Len(t, res.entries, 2)
	require.ErrorIs(t, res.err, errBroken)
	var pe *formats.ParseError
	require.ErrorAs(t, res.err, &pe)
	assert.Equal(t, "s.xml.gz", pe.Source)
	assert.Equal(t, 10, pe.Line)
	assert.Contains(t, pe.Error(), "reading stopped after 2 entries")

	// An error after a complete document is still an error: a gzip
	// checksum is checked at the end.
	r = io.MultiReader(strings.NewReader(fullSitemap), iotest.ErrReader(errBroken))
	res = readAll(t, r, formats.ReadOptions{})
	assert.Len(t, res.entries, 4)
	require.ErrorIs(t, res.err, errBroken)
}

func TestReaderDeepNesting(t *testing.T) {
	doc := urlset + strings.Repeat("<a>", 100_000)
	res := readString(t, doc, formats.ReadOptions{})
	require.Error(t, res.err)
	assert.Contains(t, res.err.Error(), "elements nested more than 64 deep")
}

func TestReaderHugeText(t *testing.T) {
	// A huge text node stops the reader rather than filling memory.
	r := io.MultiReader(
		strings.NewReader(urlset+`<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/`),
		&repeatReader{b: 'a', n: 64 << 20},
		strings.NewReader(`</loc></url></urlset>`))
	res := readAll(t, r, formats.ReadOptions{})
	assert.Equal(t, []string{"https://example.com/a"}, res.locs())
	require.Error(t, res.err)
	assert.Contains(t, res.err.Error(), "of text without markup")

	// A value just under the bound is read, and skipped as too long.
	doc := urlset + `<url><loc>https://example.com/` + strings.Repeat("a", xml.MaxTextLength-100) + `</loc></url></urlset>`
	res = readString(t, doc, formats.ReadOptions{})
	require.NoError(t, res.err)
	assert.Empty(t, res.entries)
	require.Len(t, res.warnings, 1)
	assert.ErrorIs(t, res.warnings[0], formats.ErrLocTooLong)
}

// repeatReader yields n copies of b.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	for i := range p[:n] {
		p[i] = r.b
	}
	r.n -= n
	return n, nil
}

func TestReaderUnknownElementWarningsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(urlset)
	for i := range 1000 {
		fmt.Fprintf(&b, "<e%d/><e%d/>", i, i)
	}
	b.WriteString(`</urlset>`)
	res := readString(t, b.String(), formats.ReadOptions{})
	require.NoError(t, res.err)
	assert.Len(t, res.warnings, 100)
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want bool
	}{
		{urlset + `</urlset>`, true},
		{index + `</sitemapindex>`, true},
		{`<sit:urlset xmlns:sit="x"/>`, true},
		{`<rss/>`, false},
		{`https://example.com/`, false},
	} {
		assert.Equal(t, tc.want, xml.Format.Detect([]byte(tc.doc)), tc.doc)
	}
	f, err := formats.Lookup("xml")
	require.NoError(t, err)
	assert.Same(t, xml.Format, f)
	assert.Equal(t, f, formats.ForFileName("out.xml.gz"))
}

func TestOpen(t *testing.T) {
	r, f, err := formats.Open(bytes.NewReader([]byte("\xef\xbb\xbf"+fullSitemap)), formats.OpenOptions{})
	require.NoError(t, err)
	assert.Same(t, xml.Format, f)
	var n int
	for _, err := range formats.All(r) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 4, n)
}

func TestReaderStrictExtensions(t *testing.T) {
	// Extensions are read in strict mode too, with no warning; a bad value
	// in one is an error there.
	var notes []string
	opts := formats.ReadOptions{Source: "s.xml", Strict: true, Warn: func(pe *formats.ParseError) { notes = append(notes, pe.Error()) }}
	xr := xml.NewReader(strings.NewReader(header+`<urlset`+exts+`><url><loc>https://example.com/a</loc><image:image><image:loc>https://example.com/i</image:loc></image:image></url></urlset>`), opts)
	e, err := xr.Next()
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/a", e.Loc)
	require.NotNil(t, e.Ext)
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/i"}}, e.Ext.Images)
	_, err = xr.Next()
	assert.Equal(t, io.EOF, err)
	assert.Empty(t, notes)

	xr = xml.NewReader(strings.NewReader(header+`<urlset`+exts+`><url><loc>https://example.com/a</loc>`+"\n"+
		`<video:video><video:duration>long</video:duration></video:video></url></urlset>`), opts)
	_, err = xr.Next()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s.xml:3:14: <video:duration> ignored")
}
