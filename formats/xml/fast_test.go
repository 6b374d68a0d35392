package xml_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// traceRead reads data with a reader newReader makes, and returns
// everything observable, in order: each entry (every field, the lastmod's
// zone included), each warning (message, line, column, skipped) and the
// end (io.EOF or the error, with its position and whether it is damage).
func traceRead(t testing.TB, data []byte, opts formats.ReadOptions, src io.Reader,
	newReader func(io.Reader, formats.ReadOptions) *xml.Reader) []string {
	var events []string
	opts.Source = "doc.xml"
	opts.Warn = func(pe *formats.ParseError) {
		events = append(events, fmt.Sprintf("warning %d:%d skipped=%v: %s", pe.Line, pe.Column, pe.Skipped, pe))
	}
	r := newReader(src, opts)
	for n := 0; ; n++ {
		if n > len(data)+1 {
			t.Fatalf("%d entries from %d bytes", n, len(data))
		}
		e, err := r.Next()
		if err == io.EOF {
			events = append(events, "EOF", fmt.Sprintf("head %q", r.Head()))
			if _, again := r.Next(); again != io.EOF {
				events = append(events, fmt.Sprintf("after EOF: %v", again))
			}
			break
		}
		if err != nil {
			var pe *formats.ParseError
			line, col := -1, -1
			if errors.As(err, &pe) {
				line, col = pe.Line, pe.Column
			}
			events = append(events, fmt.Sprintf("error %d:%d damaged=%v: %v (%T)", line, col, errors.Is(err, formats.ErrDamaged), err, err))
			if _, again := r.Next(); again != err {
				events = append(events, fmt.Sprintf("error not sticky: %v", again))
			}
			break
		}
		lm := e.LastMod.Time()
		name, off := lm.Zone()
		events = append(events, fmt.Sprintf("entry %q kind=%v lastmod=%s prec=%d t=%s zone=%q/%d loc=%q cf=%q prio=%q ext=%v",
			e.Loc, e.Kind, e.LastMod, e.LastMod.Precision(), lm.Format("2006-01-02T15:04:05.999999999"), name, off,
			lm.Location().String(), e.ChangeFreq, e.Priority, e.Ext != nil))
	}
	return events
}

// chunkReader returns its data in reads of 1 to 13 bytes.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	c.n++
	size := min(len(p), len(c.data), 1+c.n*7%13)
	copy(p, c.data[:size])
	c.data = c.data[size:]
	return size, nil
}

// fastVariants are the ways the differential tests read a document on
// the fast path: with its usual buffer, in small reads, and with buffers
// so small that it hands over in all sorts of places.
var fastVariants = []struct {
	name string
	size int
	src  func([]byte) io.Reader
}{
	{"fast", 0, func(b []byte) io.Reader { return bytes.NewReader(b) }},
	{"fast in small reads", xml.FastBufSize, func(b []byte) io.Reader { return &chunkReader{data: b} }},
	{"fast, 64-byte buffer", 64, func(b []byte) io.Reader { return bytes.NewReader(b) }},
	{"fast, 150-byte buffer", 150, func(b []byte) io.Reader { return &chunkReader{data: b} }},
	{"fast, 400-byte buffer", 400, func(b []byte) io.Reader { return bytes.NewReader(b) }},
}

var diffBase, _ = url.Parse("https://example.com/dir/sitemap.xml")

// checkSameOnBothPaths fails when reading data on the fast path gives
// anything different from reading it on the general path, in lenient or
// strict mode.
func checkSameOnBothPaths(t testing.TB, data []byte) {
	t.Helper()
	checkSameOnBothPathsFrom(t, data, nil)
}

// checkSameOnBothPathsFrom is checkSameOnBothPaths with reads that end
// with the error readErr instead of io.EOF, when it is not nil.
func checkSameOnBothPathsFrom(t testing.TB, data []byte, readErr error) {
	t.Helper()
	src := func(r io.Reader) io.Reader {
		if readErr == nil {
			return r
		}
		return io.MultiReader(r, iotest.ErrReader(readErr))
	}
	for _, opts := range []formats.ReadOptions{{Base: diffBase}, {Strict: true}} {
		want := traceRead(t, data, opts, src(bytes.NewReader(data)), xml.NewGeneralReader)
		for _, v := range fastVariants {
			newReader := func(r io.Reader, o formats.ReadOptions) *xml.Reader {
				if v.size == 0 {
					return xml.NewReader(r, o)
				}
				return xml.NewReaderSize(r, o, v.size)
			}
			got := traceRead(t, data, opts, src(v.src(data)), newReader)
			if !equalStrings(want, got) {
				t.Fatalf("%s, strict=%v: the paths differ on %q\ngeneral:\n\t%s\nfast:\n\t%s", v.name, opts.Strict, data,
					strings.Join(want, "\n\t"), strings.Join(got, "\n\t"))
			}
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// trickyDocs are hand-written documents on the edges of the fast path's
// subset.
var trickyDocs = func() []string {
	u := func(entries ...string) string { return urlset + strings.Join(entries, "") + "</urlset>\n" }
	docs := []string{
		u(`<url><loc>https://example.com/?a=1&amp;b=&lt;&gt;&quot;&apos;&#50;&#x32;&#x4A;&#X32;</loc></url>`),
		u(`<url><loc>https://example.com/&#;&#x;&#0;&#xD800;&#1114111;&#1114112;&#99999999999;</loc></url>`),
		u(`<url><loc>https://example.com/&#233;&#x1F600;&#0000065;</loc></url>`),
		u(`<url><loc>https://example.com/?a=1&b=2&c&d;&amp</loc></url>`),
		u(`<url><loc>https://example.com/a&nbsp;b&copy;&AMP;&#x41</loc></url>`),
		u(`<url><loc>https://example.com/&`, `</loc></url>`),
		u("<url><loc>https://example.com/?a=1\r\n&b=2&nbsp;</loc><lastmod>\n&x</lastmod></url>", "\n<url>https://example.com/?c&d</url>",
			"<url><loc>https://example.com/</loc>&e<loc>b&f</loc></url>", "<url><loc>https://example.com/?&#X41;&g</loc></url>"),
		u(`<url><loc><![CDATA[https://example.com/?a=1&b=<2>]]></loc></url>`, `<url><loc>x<![CDATA[]]]]><![CDATA[>]]></loc></url>`),
		u("<url><loc><![CDATA[\r\nhttps://example.com/\r\r\n]]></loc></url>"),
		u(`<url><loc>https://example.com/]]></loc></url>`, `<url><loc>https://example.com/]]&gt;</loc></url>`),
		u(`<!-- c --><url><!-- c --><loc><!-- c -->https://exa<!-- c -->mple.com/<!-- c --></loc><!-- c --></url><!-- c -->`),
		u(`<url><loc>https://example.com/a</loc></url><!-- a -- b --><url><loc>https://example.com/b</loc></url>`),
		u(`<url><loc>https://example.com/a</loc></url><!---><url><loc>https://example.com/b</loc></url>--></url>`),
		u(`<!----><url><loc>https://example.com/a</loc><!---->`, `</url>`),
		strings.ReplaceAll(fullSitemap, "\n", "\r\n"),
		strings.ReplaceAll(fullSitemap, "\n", "\r"),
		"\xef\xbb\xbf" + fullSitemap,
		"\xef\xbb\xbf\xef\xbb\xbf" + fullSitemap,
		" \n\t" + fullSitemap,
		"junk" + fullSitemap,
		header + `<sit:urlset xmlns:sit="http://www.sitemaps.org/schemas/sitemap/0.9"><sit:url><sit:loc>https://example.com/</sit:loc></sit:url></sit:urlset>`,
		u(`<url><loc>https://example.com/a</loc></url>`, `<sit:url><loc>https://example.com/b</loc></sit:url>`, `<url><loc>https://example.com/c</loc></url>`),
		u(`<url><loc>https://example.com/a</loc></url>`, `<url xmlns="x"><loc>https://example.com/b</loc></url>`, `<url><loc>https://example.com/c</loc></url>`),
		u(`<url><loc>https://example.com/a</loc></url>`, `<url><loc a="b">https://example.com/b</loc></url>`),
		header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + exts + `>` +
			`<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url>` +
			`<url><loc>https://example.com/c</loc><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/></url></urlset>`,
		u("\n<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc>\n<url><loc>https://example.com/c</loc></url>\n"),
		u("<url><loc>https://example.com/a</loc></url>") + "\n<urlset><url><loc>https://example.com/b</loc></url></urlset>",
		u("<url><loc>https://example.com/a</loc></url>") + "\n<!-- fine -->\n<?pi fine?>\nGenerated in 0.1 s",
		u("<url><loc>https://example.com/a</loc></url>") + "\n</a><",
		u("<url><loc>https://example.com/a</loc></url>") + "\u00a0\n",
		u("<url><loc>https://example.com/a</loc></url>") + "<?xml version=\"2.0\"?>",
		u("<url><loc>https://example.com/a</loc></url>") + "<!-- a -- b -->",
		urlset + `<url><loc>https://example.com/a</loc></url></urlset  >`,
		urlset + `<url><loc>https://example.com/a</loc></url></urlset`,
		header + `<!DOCTYPE urlset [<!ENTITY a "x">]><urlset><url><loc>https://example.com/&a;</loc></url></urlset>`,
		u(`<url><loc>https://example.com/a</loc></url>`, "<url><loc>https://example.com/\xff</loc></url>"),
		u(`<url><loc>https://example.com/a</loc></url>`, "<url><loc>https://example.com/\x01</loc></url>"),
		u(`<url><loc>https://example.com/a</loc></url>`, "<url><loc>https://example.com/\uFFFE</loc></url>"),
		u(`<url><loc>https://example.com/a</loc></url>`, "<url><loc>https://example.com/\u00e9\U0001F600</loc></url>"),
		u("<url ><loc\n>https://example.com/a</loc \n>\n</url\t>", "<url/>", "<url><loc/></url>", "<url><loc>https://example.com/b</loc><lastmod/><priority/><changefreq/></url>"),
		u(`<url><loc>https://example.com/a</loc><loc>https://example.com/b</loc></url>`, `<url><loc>https://example.com/c</loc><priority>0.1</priority><priority>0.2</priority></url>`),
		u(`<url><loc>https://example.com/a</loc><lastmod>2024-13-45</lastmod><changefreq>sometimes</changefreq><priority>high</priority></url>`),
		u(`<url><loc>https://example.com/a</loc><lastmod> 2024-05-08T10:11:12.5+05:30 </lastmod><changefreq> Daily </changefreq><priority> 1.0 </priority></url>`),
		u(`<url><loc>https://example.com/a</loc><lastmod>0001-01-01</lastmod></url>`, `<url><loc>https://example.com/b</loc><lastmod>Mon, 02 Jan 2006 15:04:05 GMT</lastmod></url>`),
		u(`<url>https://example.com/bare</url>`, `<url> <!-- x --> https://example.com/t <lastmod>2024-01-02</lastmod></url>`, "<url>\n</url>", `<url>not a url</url>`),
		u(`<url><loc>https://example.com/a</loc><lastmod>2024-01-01</url>`),
		u(`<url><loc>https://example.com/a</loc></urlset>`),
		u(`<url><loc>https://example.com/a</loc></url>`, `<sitemap><loc>https://example.com/s.xml</loc></sitemap>`, `<url><loc>https://example.com/b</loc></url>`),
		index + `<sitemap><loc>https://example.com/a.xml</loc><lastmod>2024-01-01</lastmod></sitemap><sitemap><loc>https://example.com/b.xml</loc><changefreq>daily</changefreq></sitemap><url><loc>https://example.com/c</loc></url></sitemapindex>`,
		u(`<url><loc>https://example.com/a</loc></url>`, `text at the root`, `<url><loc>https://example.com/b</loc></url>`),
		u(`<url><loc>https://example.com/a</loc></url>`, strings.Repeat("<x>", 70)+strings.Repeat("</x>", 70)),
		u(`<url><loc>https://example.com/a</loc></url>`, strings.Repeat(" ", 70_000), `<url><loc>https://example.com/b</loc></url>`),
		u(`<url><loc>https://example.com/a</loc></url>`, `<url><loc>https://example.com/`+strings.Repeat("b", 70_000)+`</loc></url>`, `<url><loc>https://example.com/c</loc></url>`),
		u(`<url><loc>https://example.com/a</loc></url>`, `<?pi in root?><url><?pi in entry?><loc>https://example.com/b</loc></url>`),
		`<urlset/>`,
		`<urlset></urlset>`,
		`<urlset >` + "\n</urlset>",
		"<?xml version='1.0' encoding='ISO-8859-1' standalone='yes' ?>\n<urlset><url><loc>https://example.com/</loc></url></urlset>",
		`<?xml version="1.1"?><urlset><url><loc>https://example.com/</loc></url></urlset>`,
		`<?xml version = "1.0"?><urlset><url><loc>https://example.com/</loc></url></urlset>`,
		`<?xml?><?xml-stylesheet type="text/xsl" href="s.xsl"?><urlset><url><loc>https://example.com/</loc></url></urlset>`,
		"<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n  xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n  xsi:schemaLocation=\"http://www.sitemaps.org/schemas/sitemap/0.9\n    http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd\">\n<url><loc>https://example.com/</loc></url>\n<url><loc>/rel</loc></url></urlset>",
		`<urlset xmlns="http://www.w3.org/1999/xhtml"><url><loc>https://example.com/</loc></url></urlset>`,
		`<urlset xmlns="a" xmlns="http://www.google.com/schemas/sitemap-image/1.1"><url><loc>https://example.com/</loc></url></urlset>`,
		"<urlset xmlns=\"a\tb\"><url><loc>https://example.com/</loc></url></urlset>",
		`<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" a='"' b="'"><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc><image:image/></url></urlset>`,
		`<urlset a=b><url><loc>https://example.com/</loc></url></urlset>`,
		`<urlset a><url><loc>https://example.com/</loc></url></urlset>`,
		`<urlset a="&amp;" b="<"><url><loc>https://example.com/</loc></url></urlset>`,
		"<urlset a=\"\u00e9\" b='\t\r\n'><url><loc>https://example.com/</loc></url></urlset>",
		"<urlset a=\"\x01\"><url><loc>https://example.com/</loc></url></urlset>",
		"<urlset a=\"\xff\"><url><loc>https://example.com/</loc></url></urlset>",
		"<urlset a=\"\uFFFE\"><url><loc>https://example.com/</loc></url></urlset>",
		"<urlset xmlns=\"\u00e9\"><url><loc>https://example.com/</loc></url></urlset>",
		u("<url><loc><![CDATA[https://example.com/\xff]]></loc></url>"),
		u("<url><loc><![CDATA[https://example.com/\x01]]></loc></url>"),
		u("<url><loc><![CDATA[https://example.com/\u00e9\t]]></loc></url>"),
		u("<url><loc><![CDATA[https://example.com/\xc3]]></loc></url>"),
		`<rss version="2.0"><channel/></rss>`,
		"",
		"   ",
		header,
		index + `</sitemapindex>`,
	}
	// Truncations of a small sitemap at every byte.
	for i := range len(fullSitemap) {
		docs = append(docs, fullSitemap[:i])
	}
	return docs
}()

func TestFastPathMatchesGeneral(t *testing.T) {
	var docs []string
	docs = append(docs, trickyDocs...)
	for _, tc := range readerCases {
		docs = append(docs, tc.doc)
	}
	for _, doc := range docs {
		checkSameOnBothPaths(t, []byte(doc))
	}
}

func TestFastPathReadErrors(t *testing.T) {
	// A read error anywhere (a corrupt gzip stream) gives the same entries
	// and the same error, at the same position, on both paths.
	errBroken := source.Damaged(errors.New("corrupt gzip data: checksum error"))
	doc := []byte(fullSitemap + "<!-- end -->\n")
	for i := range len(doc) + 1 {
		checkSameOnBothPathsFrom(t, doc[:i], errBroken)
	}
	// A reader that stops making progress.
	checkSameOnBothPathsFrom(t, doc[:200], io.ErrNoProgress)
	for _, opts := range []formats.ReadOptions{{}, {Strict: true}} {
		want := traceRead(t, doc, opts, io.MultiReader(bytes.NewReader(doc[:150]), emptyReader{}), xml.NewGeneralReader)
		got := traceRead(t, doc, opts, io.MultiReader(bytes.NewReader(doc[:150]), emptyReader{}), xml.NewReader)
		assert.Equal(t, want, got)
		assert.Contains(t, want[len(want)-1], "multiple Read calls return no data or error")
	}
}

func TestFastPathSmallReads(t *testing.T) {
	// An entry that arrives a byte at a time is scanned again a few times,
	// not once a byte (which made reading quadratic).
	big := urlset + `<url><loc>https://example.com/` + strings.Repeat("a", 60_000) + `</loc></url><url><loc>https://example.com/b</loc></url>`
	r := xml.NewReader(iotest.OneByteReader(strings.NewReader(big)), formats.ReadOptions{})
	_, err := r.Next() // skipped: the loc is too long
	require.NoError(t, err)
	assert.Equal(t, "fast", r.Path())
	assert.Less(t, r.Refills(), 20)
}

// emptyReader reads nothing, forever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

func TestFastPathMatchesGeneralCorpus(t *testing.T) {
	for _, c := range xmlCorpus(t) {
		t.Run(c.Name, func(t *testing.T) {
			checkSameOnBothPaths(t, corpusBytes(t, c.Path))
		})
	}
}

// corpusBytes returns the content of a corpus file, gunzipped.
func corpusBytes(t testing.TB, path string) []byte {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		require.NoError(t, err)
		data, err = io.ReadAll(zr)
		require.NoError(t, err)
	}
	return data
}

// readPath reads doc on the fast path and returns which path read it.
func readPath(t *testing.T, doc string, opts formats.ReadOptions) string {
	r := xml.NewReader(strings.NewReader(doc), opts)
	for {
		if _, err := r.Next(); err != nil {
			break
		}
	}
	return r.Path()
}

func TestFastPathIsUsed(t *testing.T) {
	entry := `<url><loc>https://example.com/a</loc><lastmod>2024-05-08</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>`
	image := header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + exts + ">\n" + entry +
		`<url><loc>https://example.com/b</loc><image:image><image:loc>https://example.com/i.jpg</image:loc></image:image></url></urlset>`
	deep := urlset + entry + strings.Repeat("<x>", 100)
	for _, tc := range []struct {
		name   string
		doc    string
		strict bool
		want   string
	}{
		{"plain sitemap", fullSitemap, false, "fast"},
		{"plain sitemap, strict", fullSitemap, true, "fast"},
		{"CRLF", strings.ReplaceAll(fullSitemap, "\n", "\r\n"), false, "fast"},
		{"BOM", "\xef\xbb\xbf" + fullSitemap, false, "fast"},
		{"sitemap index", index + `<sitemap><loc>https://example.com/s.xml</loc><lastmod>2024-01-02</lastmod></sitemap></sitemapindex>`, false, "fast"},
		{"bad values stay on the fast path", urlset + `<url><loc>/rel</loc><lastmod>soon</lastmod></url>` + entry + `</urlset>`, false, "fast"},
		{"bare ampersand, lenient", urlset + `<url><loc>https://example.com/?a=1&b=2</loc></url></urlset>`, false, "fast"},
		{"bare ampersand, strict", urlset + `<url><loc>https://example.com/?a=1&b=2</loc></url></urlset>`, true, fmt.Sprintf("fast, then general from byte %d", len(urlset))},
		{"entities, CDATA and comments", urlset + `<!-- c --><url><loc><![CDATA[https://example.com/?a]]>&amp;b=&#50;</loc><!-- c --></url></urlset>`, true, "fast"},
		{"DOCTYPE", header + `<!DOCTYPE urlset><urlset>` + entry + `</urlset>`, false, "general"},
		{"prefixed root", `<s:urlset xmlns:s="x">` + entry + `</s:urlset>`, false, "general"},
		{"other root", `<rss/>`, false, "general"},
		{"empty", ``, false, "general"},
		{"extension in the second entry", image, false, fmt.Sprintf("fast, then general from byte %d", strings.Index(image, entry)+len(entry))},
		{"truncated", fullSitemap[:300], false, fmt.Sprintf("fast, then general from byte %d", strings.Index(fullSitemap, "\n  <url><loc><![CDATA["))},
		{"missing end of urlset", urlset + entry, false, fmt.Sprintf("fast, then general from byte %d", len(urlset)+len(entry))},
		{"text after the root", urlset + entry + `</urlset>junk`, false, fmt.Sprintf("fast, then general from byte %d", len(urlset)+len(entry))},
		{"deep nesting", deep, false, fmt.Sprintf("fast, then general from byte %d", len(urlset)+len(entry))},
		{"entry longer than the buffer", urlset + entry + `<url><loc>https://example.com/` + strings.Repeat("a", xml.FastBufSize) + `</loc></url></urlset>`, false,
			fmt.Sprintf("fast, then general from byte %d", len(urlset)+len(entry))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, readPath(t, tc.doc, formats.ReadOptions{Strict: tc.strict}))
		})
	}

	// The benchmark's document and the writer's output are read on the
	// fast path from end to end.
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{})
	for _, e := range benchEntries(t)[:1000] {
		require.NoError(t, w.Write(e))
	}
	require.NoError(t, w.Close())
	assert.Equal(t, "fast", readPath(t, buf.String(), formats.ReadOptions{Strict: true}))
}

func TestFastPathCorpusCoverage(t *testing.T) {
	// Most valid corpus files are read on the fast path from end to end;
	// the others hand over for a reason (extensions, a DOCTYPE, a prefix).
	fast, total := 0, 0
	for _, c := range xmlCorpus(t) {
		if c.Valid != "yes" {
			continue
		}
		total++
		if readPath(t, string(corpusBytes(t, c.Path)), formats.ReadOptions{}) == "fast" {
			fast++
		}
	}
	t.Logf("%d of %d valid corpus files read on the fast path alone", fast, total)
	assert.Greater(t, fast, 0)
}

// fieldValues are lastmod, changefreq and priority values, good and bad.
var fieldValues = []string{"", " ", "2024", "2024-05", "2024-13", "2024-05-08", " 2024-05-08\n", "2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29",
	"2024-04-31", "2024-00-10", "2024-05-00", "+024-05-08", "-024-05-08", "2024-5-08",
	"2024-05-08T10:11:12Z", "2024-05-08t10:11:12z", "2024-05-08T10:11:12z", "2024-05-08T24:00:00Z", "2024-05-08T23:60:00Z", "2024-05-08T23:59:60Z",
	"2024-05-08T10:11:12+02:00", "2024-05-08T10:11:12-00:00", "2024-05-08T10:11:12+00:00", "2024-05-08T10:11:12+24:00", "2024-05-08T10:11:12+23:59",
	"2024-05-08T10:11:12+05:30", "2024-05-08T10:11:12+0200", "2024-05-08T10:11:12 +02:00", "2024-05-08T10:11:12.123+05:30", "2024-05-08T10:11:12.Z",
	"2024-05-08T10:11Z", "2024-05-08T10:11", "2024-05-08T10:11:12", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59-23:59",
	"0001-01-01", "0001", "0000", "0001-01-01T00:00:00Z", "0001-01-01T01:00:00+01:00", "Mon, 02 Jan 2006 15:04:05 GMT", "2024-05-08 08:53:11 +0000", "\u00a02024-05-08\u00a0",
	"\v2024-05-08\f", "daily", "DAILY", " Weekly ", "sometimes", "\u00a0daily", "dai\u0000ly", "0.5", "1", "1.0", "1.5", "-0.1", " 0.8\t", "NaN", "inf", "0x1p-1", "1e-1",
	"0.0005", "0.9995", "0.0015", "0.1234567", "0.123456", "1_0", ".5", "5.", "000.5", "0001", "\u20000.5"}

// checkFieldParsers fails when the reader's field parsers give anything
// else than the formats package's for v.
func checkFieldParsers(t testing.TB, v string) {
	b := []byte(v)
	lm, err := xml.ParseLastModFast(b)
	wantLM, wantErr := formats.ParseLastMod(v)
	if !assert.ObjectsAreEqual(wantLM, lm) || fmt.Sprint(wantErr) != fmt.Sprint(err) {
		t.Fatalf("lastmod %q: got %#v, %v; want %#v, %v", v, lm, err, wantLM, wantErr)
	}
	cf, ok := xml.ParseChangeFreqFast(b)
	wantCF, wantOK := formats.ParseChangeFreq(v)
	if cf != wantCF || ok != wantOK {
		t.Fatalf("changefreq %q: got %q, %v; want %q, %v", v, cf, ok, wantCF, wantOK)
	}
	p, ok := xml.ParsePriorityFast(b)
	f, perr := strconv.ParseFloat(uri.TrimSpace(v), 64)
	wantP, wantOK := formats.NewPriority(f)
	wantOK = wantOK && perr == nil
	if ok != wantOK || ok && p != wantP {
		t.Fatalf("priority %q: got %v, %v; want %v, %v", v, p, ok, wantP, wantOK)
	}
}

func TestFastValueParsers(t *testing.T) {
	for _, v := range fieldValues {
		checkFieldParsers(t, v)
	}
	lm, cf, prio := []byte("2024-05-08T10:11:12+02:00"), []byte("weekly"), []byte("0.8")
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		_, _ = xml.ParseLastModFast(lm)
		_, _ = xml.ParseChangeFreqFast(cf)
		_, _ = xml.ParsePriorityFast(prio)
	}))
}

// fragments are pieces TestFastPathRandomDocs puts together into
// documents, most of them in the fast path's subset, some not.
var fragments = struct {
	prolog, root, between, entry, field, text, end []string
}{
	prolog: []string{"", header, "\xef\xbb\xbf", "\n", "<!-- c -->", `<?xml-stylesheet href="s.xsl"?>`, "\r\n", `<?xml version="1.0"?>`, "<!DOCTYPE urlset>", "x"},
	root: []string{`<urlset>`, `<urlset xmlns="` + xml.Namespace + `">`, "<urlset\n xmlns='" + xml.Namespace + "' a=\"b\"\n>", `<sitemapindex>`,
		`<urlset` + exts + `>`, `<urlset xmlns:s="x">`, `<s:urlset>`, `<urlset/>`},
	between: []string{"", "\n", "  ", "\r\n", "<!-- c -->", "<?pi x?>", "text", "<foo/>", "<sitemap><loc>https://example.com/s.xml</loc></sitemap>", "<!-- a -- b -->", "<x><y/></x>"},
	entry:   []string{"url", "url", "url", "sitemap"},
	field:   []string{"loc", "loc", "lastmod", "changefreq", "priority", "image:image", "foo", "url", "loc a=\"b\"", "s:loc"},
	text: []string{"https://example.com/a", "https://example.com/b?x=1&amp;y=2", "/rel", "2024-05-08", "2024-05-08T10:11:12+02:00", "daily", "0.5", "",
		" ", "\n", "\r\n", "&lt;", "&#50;", "&#xE9;", "&", "&nbsp;", "<![CDATA[https://example.com/c]]>", "<![CDATA[\r\n]]>", "<!-- c -->", "]]>", "\u00e9", "\xff",
		"\u00a0", "x", "https://example.com/a https://example.com/b", "&#0;", "\t"},
	end: []string{"", "\n", "<!-- e -->", "<?pi?>", "junk", "<urlset/>", "\r\n\r\n"},
}

func TestFastPathRandomDocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	n := 3000
	if testing.Short() {
		n = 300
	}
	for range n {
		var b strings.Builder
		b.WriteString(pick(fragments.prolog))
		b.WriteString(pick(fragments.prolog))
		root := pick(fragments.root)
		b.WriteString(root)
		for range rng.IntN(6) {
			b.WriteString(pick(fragments.between))
			entry := pick(fragments.entry)
			b.WriteString("<" + entry + pick([]string{">", " >", ">\n", "/>"}))
			for range rng.IntN(5) {
				b.WriteString(pick(fragments.between[:5]))
				field := pick(fragments.field)
				b.WriteString("<" + field + ">")
				for range rng.IntN(3) {
					b.WriteString(pick(fragments.text))
				}
				if rng.IntN(20) > 0 {
					b.WriteString("</" + strings.Fields(field)[0] + ">")
				}
			}
			if rng.IntN(20) > 0 {
				b.WriteString("</" + entry + ">")
			}
		}
		b.WriteString(pick(fragments.between[:5]))
		if rng.IntN(10) > 0 {
			b.WriteString("</" + strings.Trim(strings.Fields(root)[0], "<>/") + ">")
		}
		b.WriteString(pick(fragments.end))
		doc := b.String()
		if rng.IntN(4) == 0 {
			doc = doc[:rng.IntN(len(doc)+1)]
		}
		checkSameOnBothPaths(t, []byte(doc))
	}
}
