package xml_test

import (
	encxml "encoding/xml"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// spaceTracer is a tracer that has nothing to check in the white space
// between the children of an entry (xml.SpaceObserver): it writes down
// neither that nor, as every tracer, the white space at the root.
type spaceTracer struct {
	tracer
	spaces int // the white space between the children of an entry given
}

func (*spaceTracer) SkipsSpace() {}

func (t *spaceTracer) CharData(text []byte, line, col int) {
	if t.depth == 2 && strings.Trim(string(text), " \t\r\n") == "" {
		t.spaces++
		return
	}
	t.tracer.CharData(text, line, col)
}

// spaceFieldTracer is a spaceTracer that takes fields whole.
type spaceFieldTracer struct{ spaceTracer }

func (t *spaceFieldTracer) Field(name encxml.Name, text []byte, line, col, textLine, textCol, endLine, endCol int) bool {
	t.StartElement(name, nil, line, col)
	t.CharData(text, textLine, textCol)
	return t.EndElement(name, endLine, endCol)
}

// A SpaceObserver is given on the fast path what the general path gives
// it, but for the white space between the children of an entry, which
// its trace leaves out: whatever else the entries hold (text, comments,
// CDATA, elements in other namespaces), and white space inside fields.
func TestSpaceObserverGivenAllButSpaceBetweenChildren(t *testing.T) {
	docs := append(append([]string{}, spaceDocs...), observedDocs...)
	// The fast path leaves it out indeed, where the general path gives it.
	for size, want := range map[int]int{0: 5, xml.FastBufSize: 0} {
		tr := &spaceTracer{}
		traceObservedBy(tr, []byte(docs[0]), strings.NewReader(docs[0]), formats.ReadOptions{}, size)
		if tr.spaces != want {
			t.Errorf("buffer %d: %d pieces of white space between the children of an entry given, want %d", size, tr.spaces, want)
		}
	}
	for _, doc := range docs {
		checkSpaceObservedSame(t, []byte(doc))
	}
}

// spaceDocs are documents with white space between the children of their
// entries, and other text beside it.
var spaceDocs = []string{
	urlset + "\n  <url>\n    <loc>https://example.com/a</loc>\n    <lastmod>2024-01-01</lastmod>\n  </url>\n  <url>\t<loc> https://example.com/b </loc>\r\n</url>\n</urlset>\n",
	urlset + "<url>\n <!-- c -->\n <loc>https://example.com/a</loc> text <priority>0.5</priority>\n</url></urlset>",
	urlset + "<url>\n <loc>https://example.com/a</loc>\n <![CDATA[ ]]>\n <image:image xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n  <image:loc>https://example.com/i.png</image:loc>\n </image:image>\n</url></urlset>",
	`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n <sitemap>\n  <loc>https://example.com/s.xml</loc>\n </sitemap>\n</sitemapindex>",
}

// checkSpaceObservedSame fails when a SpaceObserver of a reader on the
// fast path is given anything but what it is given on the general path,
// the white space between the children of an entry aside.
func checkSpaceObservedSame(t testing.TB, data []byte) {
	t.Helper()
	for _, opts := range []formats.ReadOptions{{Base: diffBase}, {Strict: true}} {
		want := traceObservedBy(&spaceTracer{}, data, strings.NewReader(string(data)), opts, 0)
		for _, v := range fastVariants {
			size := v.size
			if size == 0 {
				size = xml.FastBufSize
			}
			for _, tr := range []observedTracer{&spaceTracer{}, &spaceFieldTracer{}} {
				got := traceObservedBy(tr, data, v.src(data), opts, size)
				if i := firstDifference(want, got); i >= 0 {
					t.Fatalf("%s, strict=%v, %T: the paths differ on %q\nat token %d: general %q, fast %q", v.name, opts.Strict, tr, data,
						i, at(want, i), at(got, i))
				}
			}
		}
	}
}

// FuzzSpaceObservedPathsMatch is FuzzObservedPathsMatch for a
// SpaceObserver.
func FuzzSpaceObservedPathsMatch(f *testing.F) {
	addPathSeeds(f)
	for _, doc := range append(spaceDocs, observedDocs...) {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSpaceObservedSame(t, data)
	})
}
