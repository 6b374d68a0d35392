package validate

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/text/encoding/unicode"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// The differential tests hold the readers and validate to one verdict: the
// strict reader (formats.Open with ReadOptions.Strict, read to the end)
// accepts an input exactly when validate reports no error for it, for
// text lists, robots.txt files, gzip layers, sizes and charsets, which
// both open through internal/source and take line by line through
// internal/textlines.
//
// XML sitemaps and indexes are held to it too, and so are feeds: the
// feed reader's warnings (an item without a link, a date without a time
// zone) stay warnings in strict mode, as validate's feed-item, and strict
// reading refuses more than 50,000 URLs in a text list or a feed, as
// validate's too-many-urls. There is no known exception.

// strictVerdict opens in with the strict reader and reads it to the end.
// It returns the format read (nil when Open failed) and the first error.
func strictVerdict(in []byte) (*formats.Format, error) {
	r, f, err := formats.Open(bytes.NewReader(in), formats.OpenOptions{
		ReadOptions: formats.ReadOptions{Source: "in", Strict: true, Now: testNow},
	})
	if err != nil {
		return nil, err
	}
	for {
		if _, err := r.Next(); err == io.EOF {
			return f, nil
		} else if err != nil {
			return f, err
		}
	}
}

// checkErrors checks in alone (its children not followed) and returns
// its error findings, and every finding.
func checkErrors(t testing.TB, in []byte) (errs, all []Finding) {
	err := New(Options{Now: testNow, NoFollow: true}).Check(bytes.NewReader(in), Source{Name: "in"}, func(f Finding) {
		all = append(all, f)
		if f.Severity() == Error {
			errs = append(errs, f)
		}
	})
	if err != nil {
		t.Fatalf("Check of an in-memory input failed: %v", err)
	}
	return errs, all
}

// agree fails t when the strict reader and validate disagree on in.
func agree(t *testing.T, in []byte) {
	_, readErr := strictVerdict(in)
	errs, _ := checkErrors(t, in)
	if (readErr == nil) == (len(errs) == 0) {
		return
	}
	if readErr == nil {
		t.Fatalf("the strict reader accepts %.200q, validate reports %d errors, the first: %v", in, len(errs), errs[0])
	}
	t.Fatalf("the strict reader refuses %.200q (%v), validate reports no error", in, readErr)
}

// FuzzStrictReaderAgrees holds the strict reader and validate to one
// verdict on any input, seeded with crafted text lists, robots.txt files,
// gzip and charset cases, the rule documents, the catalogue and the
// corpus.
func FuzzStrictReaderAgrees(f *testing.F) {
	for _, in := range differentialCases() {
		f.Add(in)
	}
	root := repoRoot(f)
	for _, pattern := range []string{"testdata/validate/rules/*", "testdata/validate/catalogue/*.xml", "testdata/corpus/*"} {
		files, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil || len(data) > 64<<10 || bytes.HasPrefix(data, []byte{0x1f, 0x8b}) && len(data) > 4<<10 {
				continue // big or expanding inputs slow every iteration down
			}
			f.Add(data)
		}
	}
	f.Fuzz(agree)
}

// TestStrictReaderAgreesOnSharedCorpus holds them to it on every file of
// ../shared/corpus beside the checkout, large ones included.
func TestStrictReaderAgreesOnSharedCorpus(t *testing.T) {
	dir := filepath.Join(repoRoot(t), "..", "shared", "corpus")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Skipf("no corpus at %s beside the checkout: the shared corpus is left out (testdata/corpus seeds FuzzStrictReaderAgrees)", dir)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // a directory
		}
		t.Run(filepath.Base(path), func(t *testing.T) { agree(t, data) })
	}
}

// TestStrictReaderAgreesOverTheLimit holds them to one verdict at the
// protocol's 50,000 URLs in a text list and a feed, and one past it:
// validate's too-many-urls is an error, and strict reading stops there.
func TestStrictReaderAgreesOverTheLimit(t *testing.T) {
	var list, items strings.Builder
	for i := range formats.MaxURLs {
		fmt.Fprintf(&list, "https://x.example/%d\n", i)
		fmt.Fprintf(&items, "<item><link>https://x.example/%d</link></item>", i)
	}
	rss := func(items string) []byte {
		return []byte(`<rss version="2.0"><channel>` + items + `</channel></rss>`)
	}
	for name, in := range map[string][]byte{
		"list at the limit": []byte(list.String()),
		"list past it":      []byte(list.String() + "https://x.example/last\n"),
		"list past it, bad": []byte(list.String() + "nope\n"),
		"feed at the limit": rss(items.String()),
		"feed past it":      rss(items.String() + "<item><link>https://x.example/last</link></item>"),
		"feed, one skipped": rss(items.String() + "<item><guid>no link</guid></item>"),
	} {
		t.Run(name, func(t *testing.T) {
			_, readErr := strictVerdict(in)
			assert.Equal(t, strings.Contains(name, "past"), readErr != nil, "%v", readErr)
			agree(t, in)
		})
	}
}

// differentialCases are inputs on which the readers and validate once
// disagreed, or that sit on a boundary of the grammar they share.
func differentialCases() [][]byte {
	long := strings.Repeat("a", 70000)
	utf16 := func(s string, bom unicode.BOMPolicy) []byte {
		b, _ := unicode.UTF16(unicode.LittleEndian, bom).NewEncoder().Bytes([]byte(s))
		return b
	}
	text := []byte(strings.Repeat("https://x.example/page\n", 3000))
	gz := gzipped(text)
	sitemap := func(decl, loc string) []byte {
		return []byte(decl + "\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>" + loc + "</loc></url></urlset>\n")
	}
	cases := []string{
		// Robots.txt: a comment after the URL, over-long lines, relative,
		// empty and unescaped values.
		"Sitemap: https://x.example/b.xml# c\n",
		"User-agent: *\nDisallow: /" + long + "\nSitemap: https://x.example/s.xml\n",
		"Sitemap: https://x.example/" + long + "\n",
		"Sitemap: /s.xml\n",
		"User-agent: *\nSitemap:\n",
		"Sitemap: https://x.example/a b\n",
		"sitemap:https://x.example/s.xml\r\nUser-agent: *\r\n",
		// Text lists: long lines, comments, blanks, URL grammar.
		"https://x.example/a\n#" + long + "\n",
		"https://x.example/a\n" + strings.Repeat(" ", 70000) + "\n",
		"https://x.example/a\nhttps://x.example/" + long + "\n",
		"https://x.example/" + strings.Repeat("a", 2100) + "\n",
		"https://x.example/a b\n",
		"https://x.example/é\n",
		"https://bücher.example/a\n",
		"https://x.example/a%zz\n",
		"https://x.example/a#b#c\n",
		"https://x.example/[a]\n",
		"https://x.example/a<b\n",
		"https://x.example/a\\b\n",
		"https://x.example:0/\n",
		"https://x.example:/a\n",
		"https://x.example/a\tb\n",
		"https://x.example/a https://x.example/b\n",
		"  https://x.example/a  \n\n# comment\n",
		"https://x.example/a\u00a0\n",
		"HTTPS://X.EXAMPLE/a#top\n",
		"https://x.example/a\rhttps://x.example/b\r",
		"https://x.example/a\nfoo\n",
		"https://x.example/a\nftp://x.example/\n",
		"http://[::1]/\n",
		"https://user@x.example/\n",
		"https://a!.example/\n", // a host the readers refuse, that the URI grammar allows
		"Sitemap: http://0!#0\n",
		// Characters: controls, invalid UTF-8, undeclared windows-1252,
		// noncharacters, a byte order mark.
		"https://x.example/a\n\x01\n",
		"https://x.example/a\x0bb\n",
		"https://x.example/caf\xe9\n",
		"# caf\xe9\nhttps://x.example/a\n",
		"\xef\xbb\xbfhttps://x.example/caf\xe9\n",
		"\xef\xbb\xbfhttps://x.example/a\n",
		"https://x.example/\uFFFE\n",
		// Feeds: an item without a usable link, a date without a time
		// zone, a mistyped field, an alternate without the page's own
		// language: warnings both ways.
		`<rss version="2.0"><channel><item><guid>abc</guid></item><item><link>https://x.example/a</link></item></channel></rss>`,
		`<rss version="2.0"><channel><item><link>tag:x.example,2024:1</link></item></channel></rss>`,
		`<rss version="2.0"><channel><item><link>https://x.example/a</link><pubDate>05 Jan 17 13:34:55</pubDate></item></channel></rss>`,
		`<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://x.example/a"/><link rel="alternate" hreflang="fr" href="https://x.example/fr/a"/></entry></feed>`,
		`{"version": "https://jsonfeed.org/version/1.1", "items": [{"url": "https://x.example/a", "tags": "x"}, {"id": "1"}]}`,
		`<rss version="2.0"><channel><item><link>https://x.example/a</link></item>`,
		// Nothing to read.
		"",
		"\n \n",
		"\x00\x01\x02PNG",
		"<html><body>Not found</body></html>",
	}
	out := make([][]byte, 0, len(cases)+16)
	for _, c := range cases {
		out = append(out, []byte(c))
	}
	return append(out,
		utf16("https://x.example/a\n", unicode.UseBOM),
		utf16("https://x.example/a\n", unicode.IgnoreBOM),
		gz,
		gz[:len(gz)/2],
		append(append([]byte{}, gz...), "garbage"...),
		gzipped(gzipped(gzipped(gzipped([]byte("https://x.example/a\n"))))),
		gzipped(gzipped(gzipped([]byte("https://x.example/a\n")))),
		gzipped(nil),
		sitemap(`<?xml version="1.0" encoding="ISO-8859-1"?>`, "https://x.example/a"),
		sitemap(`<?xml version="1.0" encoding="bogus"?>`, "https://x.example/a"),
		sitemap(`<?xml version="1.0" encoding="UTF-8"?>`, "https://x.example/a"),
		sitemap(`<?xml version="1.0"?>`, "https://x.example/caf\xe9"),
		sitemap(`<?xml version="1.0" encoding="UTF-8"?>`, "https://x.example/a\x01"),
		sitemap(`<?xml version="1.0" encoding="UTF-8"?>`, "https://user@x.example/a"),
		sitemap(`<?xml version="1.0" encoding="UTF-8"?>`, "https://user:pw@x.example/a"),
		sitemap(`<?xml version="1.0" encoding="UTF-8"?>`, "https://x.example/a?b=c@d"),
		[]byte(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://u@x.example/s.xml</loc></sitemap></sitemapindex>`),
	)
}

// gzipped returns b gzipped.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
