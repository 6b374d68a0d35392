package validate

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/crafted"
)

// TestCraftedDocumentsCheckInLinearTime holds validate to linear time and
// bounded memory on crafted sitemaps, indexes and a feed: a prefix lookup
// that scanned every declaration in scope, and a pairwise duplicate
// attribute check, made thousands of namespaces or attributes quadratic.
func TestCraftedDocumentsCheckInLinearTime(t *testing.T) {
	b := crafted.Bounds{Time: 10, Peak: 8, Floor: 48 << 20, Slack: 20 * time.Millisecond}
	check := func(_ crafted.Shape, data []byte) error {
		return New(Options{Now: testNow, NoFollow: true}).Check(bytes.NewReader(data), Source{Name: "crafted.xml"}, func(Finding) {})
	}
	crafted.Check(t, []crafted.Shape{crafted.URLSet, crafted.Index}, 1<<20, b, check)
	crafted.Check(t, []crafted.Shape{crafted.RSS}, 256<<10, b, check)
}

// TestLongTagStopsTheCheck checks that a start tag of millions of
// attributes stops the check at maxTag bytes, in bounded memory, while
// long text and comments are still read.
func TestLongTagStopsTheCheck(t *testing.T) {
	var doc strings.Builder
	doc.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url>` + "\n<url")
	for i := 0; doc.Len() < 16<<20; i++ {
		fmt.Fprintf(&doc, ` a%d=""`, i)
	}
	doc.WriteString("/></urlset>\n")
	var got []Finding
	cost := crafted.Measure(1, func() {
		got = run(t, New(Options{Now: testNow}), doc.String(), "attrs.xml", "")
	})
	if len(got) != 1 || got[0].Rule.ID != "xml-syntax" || got[0].Line != 2 || !strings.Contains(got[0].Message, "a tag longer than 1 MiB") {
		t.Errorf("got:%s", describe(got))
	}
	if cost.Peak > 64<<20 {
		t.Errorf("a 16 MiB start tag: peak heap %.0f MiB; want at most 64", float64(cost.Peak)/(1<<20))
	}
	// A tag-like text in a comment, CDATA section or PI is not a tag.
	long := strings.Repeat(`<a b=">`, 200_000)
	for _, s := range []string{"<!--" + long + "-->", "<![CDATA[" + long + "]]>", "<?pi " + long + "?>"} {
		in := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url>` + s + "</urlset>\n"
		if s[1] == '!' && s[2] == '[' {
			in = strings.Replace(in, "</url>"+s, "</url>", 1)
			in = strings.Replace(in, "https://example.com/", "https://example.com/"+s, 1)
		}
		if got := run(t, New(Options{Now: testNow}), in, "long.xml", ""); len(got) > 0 && strings.Contains(got[0].Message, "tag longer") {
			t.Errorf("%.20s…: got:%s", s, describe(got))
		}
	}
}

// BenchmarkCrafted checks an ordinary sitemap and each crafted one of
// 1 MiB.
func BenchmarkCrafted(b *testing.B) {
	crafted.Bench(b, []crafted.Shape{crafted.URLSet, crafted.Index}, 1<<20, func(data []byte) {
		New(Options{Now: testNow, NoFollow: true}).Check(bytes.NewReader(data), Source{Name: "crafted.xml"}, func(Finding) {})
	})
}

// TestNamespacesInScopeStopTheCheck checks that more than the reader's
// MaxNamespaces declarations in scope stop the check, and that many are
// checked.
func TestNamespacesInScopeStopTheCheck(t *testing.T) {
	doc := func(n int) string {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n<url")
		for i := range n {
			fmt.Fprintf(&b, ` xmlns:p%d="urn:x:%d"`, i, i)
		}
		b.WriteString("><loc>https://example.com/</loc></url>\n</urlset>\n")
		return b.String()
	}
	if got := run(t, New(Options{Now: testNow}), doc(sitemapxml.MaxNamespaces-1), "ns.xml", ""); len(got) != 0 {
		t.Errorf("at the limit: got:%s", describe(got))
	}
	got := run(t, New(Options{Now: testNow}), doc(sitemapxml.MaxNamespaces), "ns.xml", "")
	if len(got) != 1 || got[0].Rule.ID != "xml-syntax" || got[0].Line != 2 || !strings.Contains(got[0].Message, "namespace declarations in scope") {
		t.Errorf("past the limit: got:%s", describe(got))
	}
}
