package xml_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// posOf returns the line and column (in bytes, from 1) of the n-th (from
// 1) occurrence of sub in doc.
func posOf(t *testing.T, doc, sub string, n int) string {
	t.Helper()
	off := -1
	for range n {
		i := strings.Index(doc[off+1:], sub)
		require.GreaterOrEqual(t, i, 0, "%q %d times in the document", sub, n)
		off += 1 + i
	}
	line := 1 + strings.Count(doc[:off], "\n")
	col := off - strings.LastIndexByte(doc[:off], '\n')
	return fmt.Sprintf("%d:%d", line, col)
}

func ampWarning(pos, ref string) string {
	return fmt.Sprintf("doc.xml:%s: bare \"&\" or undeclared entity kept as it is: %q (write &amp;)", pos, ref)
}

// ampReaders are the ways TestReaderBareAmpersand reads a document: on the
// fast path (which hands over to the general path for what it does not
// know), in small reads, with a small buffer that hands over part-way, and
// on the general path only.
var ampReaders = []struct {
	name string
	new  func(data []byte, o formats.ReadOptions) *xml.Reader
}{
	{"fast", func(b []byte, o formats.ReadOptions) *xml.Reader { return xml.NewReader(bytes.NewReader(b), o) }},
	{"fast in small reads", func(b []byte, o formats.ReadOptions) *xml.Reader { return xml.NewReader(&chunkReader{data: b}, o) }},
	{"fast, 150-byte buffer", func(b []byte, o formats.ReadOptions) *xml.Reader {
		return xml.NewReaderSize(bytes.NewReader(b), o, 150)
	}},
	{"general", func(b []byte, o formats.ReadOptions) *xml.Reader { return xml.NewGeneralReader(bytes.NewReader(b), o) }},
}

// TestReaderBareAmpersand checks that a bare '&' or an undeclared entity
// is kept as it is in lenient mode, with one warning per value at the
// position of its first '&', and is a syntax error in strict mode, on
// both paths.
func TestReaderBareAmpersand(t *testing.T) {
	type want struct {
		locs     []string
		warnings func(t *testing.T, doc string) []string
	}
	u := func(entries ...string) string { return urlset + strings.Join(entries, "") + "</urlset>\n" }
	cases := []struct {
		name string
		doc  string
		want want
	}{
		{
			name: "query string",
			doc:  u(`<url><loc>https://example.com/?a=1&b=2&c=3</loc></url>`),
			want: want{[]string{"https://example.com/?a=1&b=2&c=3"}, func(t *testing.T, doc string) []string {
				return []string{ampWarning(posOf(t, doc, "&b", 1), "&b")}
			}},
		},
		{
			name: "one warning per value, one per entry",
			doc: u(`<url><loc>https://example.com/a&nbsp;b&copy;</loc></url>`,
				"\n<url>\n  <loc>\n    https://example.com/?x&y\n  </loc>\n</url>",
				`<url><loc>https://example.com/&amp;&#38;&lt;</loc></url>`),
			want: want{[]string{"https://example.com/a&nbsp;b&copy;", "https://example.com/?x&y", "https://example.com/&&%3C"},
				func(t *testing.T, doc string) []string {
					return []string{ampWarning(posOf(t, doc, "&nbsp;", 1), "&nbsp;"), ampWarning(posOf(t, doc, "&y", 1), "&y")}
				}},
		},
		{
			name: "value split by a comment and a CDATA section",
			doc:  u("<url><loc>https://example.com/?a&amp;b=1<!-- c -->&c=2<![CDATA[&d=3]]>&e</loc></url>"),
			want: want{[]string{"https://example.com/?a&b=1&c=2&d=3&e"}, func(t *testing.T, doc string) []string {
				return []string{ampWarning(posOf(t, doc, "&c=2", 1), "&c")}
			}},
		},
		{
			name: "CDATA and references: no warning",
			doc:  u(`<url><loc><![CDATA[https://example.com/?a=1&b=2]]></loc></url><url><loc>https://example.com/?a=1&amp;b=2&#x26;c</loc></url>`),
			want: want{[]string{"https://example.com/?a=1&b=2", "https://example.com/?a=1&b=2&c"}, func(*testing.T, string) []string { return nil }},
		},
		{
			name: "several fields",
			doc:  u("<url><loc>https://example.com/a&b</loc><lastmod>2024-01-01&x</lastmod>\r\n<changefreq>daily&amp;</changefreq><priority>&#X35;</priority></url>"),
			want: want{[]string{"https://example.com/a&b"}, func(t *testing.T, doc string) []string {
				return []string{
					ampWarning(posOf(t, doc, "&b", 1), "&b"),
					ampWarning(posOf(t, doc, "&x", 1), "&x"),
					"doc.xml:" + posOf(t, doc, "<lastmod>", 1) + ": <lastmod> ignored",
					"doc.xml:" + posOf(t, doc, "<changefreq>", 1) + `: <changefreq> ignored: "daily&"`,
					ampWarning(posOf(t, doc, "&#X", 1), "&#X35;"),
					"doc.xml:" + posOf(t, doc, "<priority>", 1) + `: <priority> ignored: "&#X35;"`,
				}
			}},
		},
		{
			name: "bare text used as the loc",
			doc:  index + "<sitemap>\n  https://example.com/s.xml?a&b\n</sitemap><sitemap>https://example.com/t.xml<loc>https://example.com/u.xml</loc> &junk; </sitemap></sitemapindex>",
			want: want{[]string{"https://example.com/s.xml?a&b", "https://example.com/u.xml"}, func(t *testing.T, doc string) []string {
				return []string{
					"doc.xml:" + posOf(t, doc, "<sitemap>", 1) + ": <sitemap> has no <loc>: its text is used as the URL",
					ampWarning(posOf(t, doc, "&b", 1), "&b"),
				}
			}},
		},
		{
			name: "extension and unknown elements",
			doc: header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + exts + `><url><loc>https://example.com/</loc>` +
				`<image:image><image:loc>https://example.com/i.jpg?a&b</image:loc><image:title>T&amp;&copy;</image:title></image:image>` +
				`<other>x&y</other></url></urlset>`,
			want: want{[]string{"https://example.com/"}, func(t *testing.T, doc string) []string {
				return []string{
					ampWarning(posOf(t, doc, "&b", 1), "&b"),
					ampWarning(posOf(t, doc, "&copy;", 1), "&copy;"),
					"doc.xml:" + posOf(t, doc, "<other>", 1) + ": unknown element <other> in <url> ignored",
				}
			}},
		},
		{
			name: "long name, bare '&' before markup, non-ASCII name",
			doc: u("<url><loc>https://example.com/&"+strings.Repeat("n", 40)+";</loc></url>",
				"<url><loc>https://example.com/&</loc></url>",
				"<url><loc>https://example.com/&\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9;</loc></url>"),
			want: want{[]string{"https://example.com/&" + strings.Repeat("n", 40) + ";", "https://example.com/&",
				"https://example.com/&%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9;"},
				func(t *testing.T, doc string) []string {
					return []string{
						ampWarning(posOf(t, doc, "&n", 1), "&"+strings.Repeat("n", 23)),
						ampWarning(posOf(t, doc, "&<", 1), "&"),
						ampWarning(posOf(t, doc, "&\u00e9", 1), "&"+strings.Repeat("\u00e9", 11)),
					}
				}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantWarnings := tc.want.warnings(t, tc.doc)
			for _, rd := range ampReaders {
				var warnings []string
				opts := formats.ReadOptions{Source: "doc.xml", Warn: func(pe *formats.ParseError) {
					assert.False(t, pe.Skipped && strings.Contains(pe.Error(), "bare"), "a bare '&' skips nothing")
					warnings = append(warnings, pe.Error())
				}}
				r := rd.new([]byte(tc.doc), opts)
				var locs []string
				for {
					e, err := r.Next()
					if err == io.EOF {
						break
					}
					require.NoError(t, err, rd.name)
					locs = append(locs, e.Loc)
					if e.Ext != nil {
						for _, im := range e.Ext.Images {
							locs = append(locs, im.Loc)
						}
					}
				}
				if strings.Contains(tc.doc, "image:loc") {
					assert.Equal(t, append(tc.want.locs, "https://example.com/i.jpg?a&b"), locs, rd.name)
				} else {
					assert.Equal(t, tc.want.locs, locs, rd.name)
				}
				require.Len(t, warnings, len(wantWarnings), "%s: %q", rd.name, warnings)
				for i, w := range wantWarnings {
					assert.True(t, strings.HasPrefix(warnings[i], w), "%s: warning %d is %q, want %q...", rd.name, i, warnings[i], w)
				}

				// Strict: a syntax error at the first bare '&'.
				if len(wantWarnings) == 0 {
					continue
				}
				r = rd.new([]byte(tc.doc), formats.ReadOptions{Source: "doc.xml", Strict: true})
				var err error
				for err == nil {
					_, err = r.Next()
				}
				require.NotEqual(t, io.EOF, err, rd.name)
				assert.Contains(t, err.Error(), "XML syntax error", rd.name)
				assert.Contains(t, err.Error(), "invalid character entity", rd.name)
			}
			checkSameOnBothPaths(t, []byte(tc.doc))
		})
	}
}
