package feed_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/internal/crafted"
)

// drain reads every entry of a feed, and returns how many it read and the
// error that ended the stream (nil at io.EOF).
func drain(data []byte) (int, error) {
	r := feed.NewReader(bytes.NewReader(data), formats.ReadOptions{Source: "crafted"})
	for n := 0; ; n++ {
		if _, err := r.Next(); err != nil {
			if err == io.EOF {
				err = nil
			}
			return n, err
		}
	}
}

// craftedBounds are the bounds of the feed reader on crafted feeds: with
// gofeed's quadratic namespace handling unguarded, thousands of xmlns:
// declarations cost a hundred times an ordinary feed's time.
var craftedBounds = crafted.Bounds{Time: 10, Peak: 8, Floor: 32 << 20, Slack: 20 * time.Millisecond}

func TestCraftedFeedsReadInLinearTime(t *testing.T) {
	crafted.Check(t, []crafted.Shape{crafted.RSS, crafted.Atom}, 256<<10, craftedBounds, func(_ crafted.Shape, data []byte) error {
		drain(data) // a refusal is a result
		return nil
	})
}

// atTheLimits returns an RSS feed of about size bytes that goes as far as
// the limits allow: MaxNamespaces declarations on the root, every item
// MaxItemElements elements deep in tiny children with MaxAttributes
// attributes on its first.
func atTheLimits(size int) []byte {
	var b strings.Builder
	b.WriteString(`<rss version="2.0"`)
	for i := range feed.MaxNamespaces {
		fmt.Fprintf(&b, ` xmlns:p%d="urn:x:%d"`, i, i)
	}
	b.WriteString("><channel><title>T</title><link>https://example.com/</link>\n")
	var attrs strings.Builder
	for i := range feed.MaxAttributes {
		fmt.Fprintf(&attrs, ` a%d=""`, i)
	}
	// Each element costs MaxNamespaces of the namespace work, so they are
	// spaced out to stay within it.
	pad := strings.Repeat(" ", feed.MaxNamespaces/feed.NamespaceWork)
	kids := "<x" + attrs.String() + "/>" + strings.Repeat("<p1:x/>"+pad, feed.MaxItemElements-4)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "<item><title>%d</title><link>https://example.com/%d</link>%s</item>\n", i, i, kids)
	}
	b.WriteString("</channel></rss>\n")
	return []byte(b.String())
}

func TestFeedAtTheLimitsReadsInLinearTime(t *testing.T) {
	data := atTheLimits(512 << 10)
	if n, err := drain(data); err != nil || n == 0 {
		t.Fatalf("a feed at the limits: %d entries, %v", n, err)
	}
	ordinary := crafted.Ordinary.Make(crafted.RSS, len(data))
	// At the limits every element carries 64 namespace declarations in
	// scope, which the feed parser copies: a constant factor of several
	// times an ordinary feed, linear still. A quadratic reader is hundreds
	// of times over at this size, so a wider bound keeps the test's point
	// without failing on a loaded machine.
	atLimits := craftedBounds
	atLimits.Time = 25
	crafted.Compare(t, ordinary, []crafted.Input{{Name: "at the limits", Data: data}}, atLimits, func(data []byte) error {
		drain(data)
		return nil
	})
}

// TestFeedLimits checks that a feed just past each limit is refused with
// an error naming the line and the limit, and one at the limit is read.
func TestFeedLimits(t *testing.T) {
	rss := func(rootAttrs, item string) string {
		return `<?xml version="1.0"?>` + "\n<rss version=\"2.0\"" + rootAttrs + "><channel><title>T</title>\n" +
			"<item><link>https://example.com/a</link></item>\n<item><link>https://example.com/b</link>" + item + "</item>\n</channel></rss>\n"
	}
	decls := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, ` xmlns:p%d="urn:x:%d"`, i, i)
		}
		return b.String()
	}
	attrs := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, ` a%d=""`, i)
		}
		return b.String()
	}
	nest := func(n int) string { return strings.Repeat("<x>", n) + strings.Repeat("</x>", n) }
	work := func(n int) string { // n elements in the channel, outside the items
		return strings.Replace(rss(decls(feed.MaxNamespaces), ""), "<title>T</title>", "<title>T</title>"+strings.Repeat("<x/>", n), 1)
	}
	for _, c := range []struct {
		name     string
		at, over string
		line     int
		msg      string
	}{
		{"namespaces on the root", rss(decls(feed.MaxNamespaces), ""), rss(decls(feed.MaxNamespaces+1), ""), 2,
			fmt.Sprintf("more than %d namespace declarations in scope at <rss>", feed.MaxNamespaces)},
		{"namespaces in scope", rss(decls(feed.MaxNamespaces-1), "<x xmlns:q=\"urn:q\"/>"), rss(decls(feed.MaxNamespaces-1), "<x xmlns:q=\"urn:q\"><y xmlns:r=\"urn:r\"/></x>"), 4,
			fmt.Sprintf("more than %d namespace declarations in scope at <y>", feed.MaxNamespaces)},
		{"attributes", rss("", "<x"+attrs(feed.MaxAttributes)+"/>"), rss("", "<x"+attrs(feed.MaxAttributes+1)+"/>"), 4,
			fmt.Sprintf("<x> has more than %d attributes", feed.MaxAttributes)},
		{"elements in an item", rss("", strings.Repeat("<x/>", feed.MaxItemElements-2)), rss("", strings.Repeat("<x/>", feed.MaxItemElements-1)), 4,
			fmt.Sprintf("an item holds more than %d elements", feed.MaxItemElements)},
		{"depth", rss("", nest(feed.MaxDepth-3)), rss("", nest(feed.MaxDepth-2)), 4,
			fmt.Sprintf("elements nested more than %d deep", feed.MaxDepth)},
		// A small feed may have MaxNamespaces in scope for 2^20 / 64
		// elements, here outside the items.
		{"namespace work", work(15000), work(17000), 2,
			"too many namespace declarations for the size of the feed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n, err := drain([]byte(c.at)); err != nil || n != 2 {
				t.Errorf("at the limit: %d entries, %v; want 2", n, err)
			}
			n, err := drain([]byte(c.over))
			want := fmt.Sprintf("crafted:%d:", c.line)
			if n != 0 || err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("past the limit: %d entries, %v; want an error at %s naming %q", n, err, want, c.msg)
			}
		})
	}
}

// BenchmarkCrafted reads an ordinary feed and each crafted one of 1 MiB.
func BenchmarkCrafted(b *testing.B) {
	crafted.Bench(b, []crafted.Shape{crafted.RSS, crafted.Atom}, 1<<20, func(data []byte) { drain(data) })
}

// readLog reads a feed whole with the feed reader and returns its entries,
// warnings and final error, one a line.
func readLog(t *testing.T, name string, data []byte) string {
	var b strings.Builder
	opts := formats.ReadOptions{Source: name, Warn: func(e *formats.ParseError) { fmt.Fprintf(&b, "warning: %v\n", e) }}
	r := feed.NewReader(bytes.NewReader(data), opts)
	for {
		e, err := r.Next()
		if err != nil {
			fmt.Fprintf(&b, "end: %v\n", err)
			return b.String()
		}
		x := e.Ext
		e.Ext = nil
		fmt.Fprintf(&b, "%+v\n", e)
		if x != nil {
			fmt.Fprintf(&b, "  ext: %+v\n", *x)
		}
	}
}

// TestPiecesReadAsWhole checks that a feed read in pieces (as large feeds
// are, to bound memory) gives the entries, warnings and errors it gives
// read whole: every corpus and test feed, and generated ones, cut into
// pieces of a few items.
func TestPiecesReadAsWhole(t *testing.T) {
	files := testFeeds(t)
	pieces := 0
	for name, data := range files {
		whole := readLog(t, name, data)
		for _, size := range []int{1 << 10, 4 << 10} {
			restore := feed.SetChunkSize(size)
			got := readLog(t, name, data)
			if feed.ReadsInPieces(data) {
				pieces++
			}
			restore()
			if got != whole {
				t.Errorf("%s in pieces of %d bytes:\n%s\nwhole:\n%s", name, size, got, whole)
			}
		}
	}
	t.Logf("%d readings in pieces", pieces)
	if pieces < 20 {
		t.Errorf("only %d readings were in pieces", pieces)
	}
}

// TestBlocksReadAsWhole checks that a feed read into blocks of a few bytes
// gives what it gives read into blocks larger than itself: every corpus
// and test feed, the generated ones of TestPiecesReadAsWhole (in pieces
// too), and inputs whose byte order mark, XML declaration, first
// character or white space a block boundary may cut.
func TestBlocksReadAsWhole(t *testing.T) {
	files := testFeeds(t)
	for i, doc := range []string{
		"\xef\xbb\xbf" + `<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><link>https://a.example/1</link></item></channel></rss>`,
		" \n\t" + `<?xml version='1.0' encoding='windows-1252' standalone='yes' ?>` + "\n<rss><channel><item><link>https://a.example/é</link></item></channel></rss>",
		`<?xml encoding="x"?><feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://a.example/2"/></entry></feed>`,
		"\xef\xbb\xbf  " + `{"version":"https://jsonfeed.org/version/1.1","items":[{"url":"https://a.example/3"}]}`,
		`<rss><channel><item><link>https://a.example/4</link></item><item><link>https://a.example/5`,
		"<rss><channel><item><link>https://a.example/6</link></item></channel></rss>\u00a0\u2003",
		"<rss><channel><item><link>https://a.example/7</link></item>\u2003\u00a0<item><link>https://a.example/8</link></item></channel></rss>",
		"<rss><channel><item><link>https://a.example/9</link></item></channel></rss>\n<!-- after -->\u00a0<x/>",
		"<rss><channel><item><link>https://a.example/10</link></item></channel></rss><",
		"<rss><channel><item><link>https://a.example/11</link></item>\n<item><link>https://a.example/12</link></item></channel></rss >",
		"<rss><channel><item><link>https://a.example/13</link></item>\n<item><link>https://a.example/14</link></item></channel><item>",
	} {
		files[fmt.Sprintf("edge %d", i)] = []byte(doc)
	}
	defer feed.SetChunkSize(1 << 10)()
	for name, data := range files {
		whole := readLog(t, name, data)
		for _, size := range [][2]int{{1, 1}, {2, 5}, {3, 64}} {
			restore := feed.SetBlockSizes(size[0], size[1])
			got := readLog(t, name, data)
			restore()
			if got != whole {
				t.Errorf("%s in blocks of %d to %d bytes:\n%s\nin one block:\n%s", name, size[0], size[1], got, whole)
			}
		}
	}
}

// testFeeds returns every corpus feed, the files of testdata/feeds and
// generated feeds of each crafted class, by name.
func testFeeds(t *testing.T) map[string][]byte {
	files := map[string][]byte{}
	for _, f := range corpusFeeds(t) {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		files[f.Name] = data
	}
	testdata, _ := filepath.Glob("testdata/*")
	feeds, _ := filepath.Glob("testdata/feeds/*")
	for _, p := range append(testdata, feeds...) {
		if data, err := os.ReadFile(p); err == nil {
			files[p] = data
		}
	}
	for _, s := range []crafted.Shape{crafted.RSS, crafted.Atom} {
		for _, c := range append([]crafted.Class{crafted.Ordinary}, crafted.Classes...) {
			files[s.String()+"/"+c.Name] = c.Make(s, 32<<10)
		}
	}
	return files
}

// TestLargeFeedReadInBoundedMemory checks that a large feed is read in
// pieces, in memory a few times its size, where gofeed given it whole
// takes about nine times (and its items as many again): an ordinary feed
// of MaxSize bytes stays within a few hundred MiB.
func TestLargeFeedReadInBoundedMemory(t *testing.T) {
	defer feed.SetChunkSize(512 << 10)()
	// The collector runs often, so that the peak is what the reader
	// holds, not the garbage a busy machine lets pile up before it runs
	// (7.0 times the size was seen at the default, under CI's load).
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	for _, s := range []crafted.Shape{crafted.RSS, crafted.Atom} {
		data := crafted.Ordinary.Make(s, 4<<20)
		var n int
		cost := crafted.Measure(1, func() { n, _ = drain(data) })
		t.Logf("%s, %d bytes: %v", s, len(data), cost)
		if n == 0 || cost.Peak > uint64(7*len(data)) {
			t.Errorf("%s, %d bytes: %d entries, peak heap %.0f MiB; want at most 7 times its size", s, len(data), n, float64(cost.Peak)/(1<<20))
		}
	}
}
