package validate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// run checks doc with a validator and returns the findings.
func run(t *testing.T, v *Validator, doc, name string, served string) []Finding {
	t.Helper()
	src := Source{Name: name}
	if served != "" {
		src.URL, _ = url.Parse(served)
	}
	var got []Finding
	if err := v.Check(strings.NewReader(doc), src, func(f Finding) { got = append(got, f) }); err != nil {
		t.Fatal(err)
	}
	return got
}

const twoURLs = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url></urlset>`

func TestAcrossInputs(t *testing.T) {
	v := New(Options{Now: testNow})
	run(t, v, twoURLs, "one.xml", "")
	got := run(t, v, twoURLs, "two.xml", "")
	if ids := ruleIDs(got); !slices.Equal(ids, []string{"duplicate-url"}) || len(got) != 2 {
		t.Errorf("a run compares URLs across inputs; got:%s", describe(got))
	}
	v = New(Options{Now: testNow, Independent: true})
	run(t, v, twoURLs, "one.xml", "")
	if got := run(t, v, twoURLs, "two.xml", ""); len(got) != 0 {
		t.Errorf("Independent checks compare nothing across inputs; got:%s", describe(got))
	}
}

// memChildren serves children from a map, as a remote opener would.
func memChildren(docs map[string]string, opened *[]string) func(Source, string) (io.ReadCloser, Source, error) {
	return func(_ Source, loc string) (io.ReadCloser, Source, error) {
		*opened = append(*opened, loc)
		doc, ok := docs[loc]
		if !ok {
			return nil, Source{}, errors.New("404 Not Found")
		}
		u, _ := url.Parse(loc)
		return io.NopCloser(strings.NewReader(doc)), Source{Name: loc, URL: u}, nil
	}
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, l := range locs {
		fmt.Fprintf(&b, "<sitemap><loc>%s</loc></sitemap>\n", l)
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

func TestFollowRobotsAndIndexes(t *testing.T) {
	docs := map[string]string{
		"https://example.com/index.xml":  index("https://example.com/a.xml", "https://example.com/nested.xml", "https://example.com/index.xml"),
		"https://example.com/a.xml":      twoURLs,
		"https://example.com/nested.xml": index("https://example.com/deeper.xml"),
		"https://example.com/other.xml":  "https://example.com/c\nhttps://example.com/c\n",
	}
	var opened []string
	var files []Document
	v := New(Options{Now: testNow, OpenChild: memChildren(docs, &opened), OnDocument: func(d Document) { files = append(files, d) }})
	robots := "User-agent: *\nDisallow: /private\nsitemap: https://example.com/index.xml\nSitemap: https://example.com/other.xml\nSitemap: /relative.xml\nSitemap: https://example.com/gone.xml\n"
	got := run(t, v, robots, "robots.txt", "https://example.com/robots.txt")
	want := []string{"child-unreadable", "duplicate-url", "index-nested", "loc-not-absolute"}
	if ids := ruleIDs(got); !slices.Equal(ids, want) {
		t.Errorf("rules %v, want %v; findings:%s", ids, want, describe(got))
	}
	// The index is followed from robots.txt; the nested index is reported
	// and not followed; the index listing itself is not checked twice.
	wantOpened := []string{"https://example.com/index.xml", "https://example.com/a.xml", "https://example.com/nested.xml",
		"https://example.com/index.xml", "https://example.com/other.xml", "https://example.com/gone.xml"}
	if !slices.Equal(opened, wantOpened) {
		t.Errorf("opened %v, want %v", opened, wantOpened)
	}
	if len(files) != 5 {
		t.Errorf("checked %d documents, want robots.txt, the index, a.xml, nested.xml and other.xml: %+v", len(files), files)
	}
	for _, f := range got {
		if f.Rule.ID == "index-nested" && f.Source != "https://example.com/nested.xml" {
			t.Errorf("index-nested is reported on %s", f.Source)
		}
	}
}

func TestNoChildrenWithoutDirectory(t *testing.T) {
	got := run(t, New(Options{}), index("https://example.com/a.xml"), "<stdin>", "")
	if len(got) != 1 || got[0].Rule.ID != "child-unreadable" || !strings.Contains(got[0].Message, ErrNotFollowed.Error()) {
		t.Errorf("got:%s", describe(got))
	}
	if got := run(t, New(Options{NoFollow: true}), index("https://example.com/a.xml"), "<stdin>", ""); len(got) != 0 {
		t.Errorf("NoFollow: got:%s", describe(got))
	}
}

func TestReadErrorIsReturned(t *testing.T) {
	v := New(Options{})
	err := v.Check(io.MultiReader(strings.NewReader(twoURLs[:60]), iotest.ErrReader(io.ErrUnexpectedEOF)), Source{Name: "broken"}, func(Finding) {})
	if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "broken") {
		t.Errorf("Check = %v, want the read error naming the source", err)
	}
}

func TestHostileInputsStayBounded(t *testing.T) {
	deep := "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">" + strings.Repeat("<url>", 10000)
	got := run(t, New(Options{}), deep, "deep.xml", "")
	if !slices.Contains(ruleIDs(got), "xml-syntax") || len(got) > 5 {
		t.Errorf("deep nesting: got:%s", describe(got))
	}
	laughs := `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/&b;</loc></url></urlset>`
	got = run(t, New(Options{}), laughs, "laughs.xml", "")
	if ids := ruleIDs(got); !slices.Equal(ids, []string{"doctype", "xml-syntax"}) {
		t.Errorf("entities are never expanded: got:%s", describe(got))
	}
	var b bytes.Buffer
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/`)
	b.Write(bytes.Repeat([]byte("x"), 8<<20))
	b.WriteString(`</loc></url></urlset>`)
	got = run(t, New(Options{}), b.String(), "long.xml", "")
	if ids := ruleIDs(got); !slices.Equal(ids, []string{"loc-too-long"}) || !strings.Contains(got[0].Message, "8388628 characters") {
		t.Errorf("an 8 MiB loc: got:%s", describe(got))
	}
	garbage := strings.Repeat("\xff\x01", 10000)
	got = run(t, New(Options{}), "https://example.com/"+garbage+"\n", "garbage.txt", "")
	if n := len(got); n > 30 {
		t.Errorf("%d findings for one line of garbage; want invalid bytes capped", n)
	}
}

func TestCorruptGzip(t *testing.T) {
	for _, name := range []string{"scrapy__truncated-crc-error.gz", "scrapy__unexpected-eof.gz"} {
		got := checkFile(t, repoRoot(t)+"/testdata/corpus/"+name, "", Options{})
		if !slices.Contains(ruleIDs(got), "gzip") {
			t.Errorf("%s: no gzip finding; got:%s", name, describe(got))
		}
	}
}

func TestWriter(t *testing.T) {
	v := New(Options{Now: testNow})
	var got []Finding
	w := v.Writer(Source{Name: "teed.xml"}, func(f Finding) { got = append(got, f) })
	doc := strings.Replace(twoURLs, "https://example.com/b", "https://example.com/a", 1)
	for i := 0; i < len(doc); i += 7 {
		if _, err := io.WriteString(w, doc[i:min(i+7, len(doc))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if ids := ruleIDs(got); !slices.Equal(ids, []string{"duplicate-url"}) {
		t.Errorf("got:%s", describe(got))
	}
	// A document the check stops reading early still takes every write.
	got = nil
	w = v.Writer(Source{Name: "html"}, func(f Finding) { got = append(got, f) })
	if _, err := w.Write(bytes.Repeat([]byte("<html><body>x</body></html>\n"), 50000)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil || len(got) != 1 || got[0].Rule.ID != "unknown-format" {
		t.Errorf("Close = %v; got:%s", err, describe(got))
	}
}
