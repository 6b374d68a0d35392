package feed

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/crafted"
)

// scanDocs returns the XML documents the scans are compared on: every
// corpus feed and test feed, generated feeds of each crafted class, and
// documents at the edges of the fast scan's subset, by name.
func scanDocs(t testing.TB) map[string][]byte {
	docs := map[string][]byte{}
	for _, f := range corpus.Load(t, "rss", "rdf", "atom", "atom03") {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		docs[f.Name] = data
	}
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "feeds", "*"))
	for _, p := range fixtures {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = data
	}
	for _, s := range []crafted.Shape{crafted.RSS, crafted.Atom} {
		for _, c := range append([]crafted.Class{crafted.Ordinary}, crafted.Classes...) {
			docs[s.String()+"/"+c.Name] = c.Make(s, 16<<10)
		}
	}
	item := `<item><title>A &amp; B &#233;&#x1F600;</title><link>https://a.example/?a=1&amp;b=2</link><description><![CDATA[<p>x]]></description></item>`
	for i, doc := range []string{
		`<?xml version="1.0" encoding="UTF-8"?>` + "\n<rss>\n<channel>\n" + item + "\n" + item + "\n</channel>\n</rss>\n",
		`<?xml version='1.0'?><!-- c --><?xml-stylesheet href="s.xsl"?><rss><channel>` + item + `</channel></rss><!-- after --> <?pi?>` + "\n",
		`<?xml version="1.1"?><rss><channel>` + item + `</channel></rss>`,
		`<!DOCTYPE rss><rss><channel>` + item + `</channel></rss>`,
		`<rss><channel>` + item + `</channel></rss>trailing`,
		`<rss><channel>` + item + `</channel></rss><rss/>`,
		`<rss><channel>` + item + `</channel>`,
		`<rss><channel>` + item + `</channel></rss >` + "\u00a0\n",
		`<rss><channel><item/><item></item><item><br></item></channel></rss>`,
		`<rss><channel><item>a ]]> b</item></channel></rss>`,
		`<rss><channel><item>a &bogus b</item></channel></rss>`,
		`<rss><channel><item>&#0;</item></channel></rss>`,
		`<rss><channel><item>&#xFFFE;</item></channel></rss>`,
		`<rss><channel><item>&unknown;</item></channel></rss>`,
		`<rss><channel><item a="1" b='2' c = "x>y"/></channel></rss>`,
		`<rss><channel><item a=1/></channel></rss>`,
		`<rss><channel><item a/></channel></rss>`,
		`<rss><channel><item a="<"/></channel></rss>`,
		`<rss><channel><item a="&#0;"/></channel></rss>`,
		`<rss><channel><a:b:c/></channel></rss>`,
		`<rss><channel><:a/></channel></rss>`,
		`<rss><channel><a:/></channel></rss>`,
		`<rss><channel><é/></channel></rss>`,
		`<rss><channel><item xml:lang=" en-GB ">x</item><item xml:lang="">y</item></channel></rss>`,
		`<rss><channel><item xml:lang="a&amp;b">x</item></channel></rss>`,
		"<rss><channel><item xml:lang=\"e\rn\">x</item></channel></rss>",
		`<feed xmlns="http://www.w3.org/2005/Atom"><entry><title type="html">a</title><summary type='xhtml'>b</summary><content type="text/html">c</content><media:title type="html"/></entry></feed>`,
		`<feed xmlns="http://www.w3.org/2005/Atom"><entry><atom:title type="HTML">a</atom:title></entry><entry></entry></feed>`,
		`<rss><channel><item></channel></item></rss>`,
		`<rss><channel><item></ITEM></channel></rss>`,
		`<rss><channel><a:item></b:item></channel></rss>`,
		`<rss><channel><!-- a -- b --><item/></channel></rss>`,
		`<rss><channel><!---><item/>--></channel></rss>`,
		`<rss><channel><!----><item/></channel></rss>`,
		`<rss><channel><![CDATA[x]]><![CDAT[y]]></channel></rss>`,
		"<rss><channel><item>\xff</item></channel></rss>",
		"<rss><channel><item>\xed\xa0\x80</item></channel></rss>",
		`<item><item><link>https://a.example/</link></item></item>`,
		`<rss><channel><item><item></item></item></channel></rss>`,
		`<rss/>`,
		``,
		`   `,
		`</rss>`,
		`<rss><channel><item>` + strings.Repeat("<x>", 50) + `</item></channel></rss>`,
	} {
		docs[fmt.Sprintf("edge %d", i)] = []byte(doc)
	}
	return docs
}

// scans returns the scans of data, prepared as parseXML prepares it:
// the fast one (nil when the document is not in its subset) and the slow
// one.
func scans(t testing.TB, data []byte) (fast, slow *scan) {
	in, err := readInput(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	prepare(in)
	fast, _ = fastScan(in)
	return fast, slowScan(in)
}

// TestFastScanMatchesSlow checks that the fast scan, whenever it reads a
// document, finds what the slow scan finds, with the input in one block
// and in blocks of a few bytes; and that it reads the ordinary feeds.
func TestFastScanMatchesSlow(t *testing.T) {
	docs := scanDocs(t)
	fast := 0
	for _, blocks := range [][2]int{{blockMin, blockMax}, {2, 5}} {
		oldMin, oldMax := blockMin, blockMax
		blockMin, blockMax = blocks[0], blocks[1]
		for name, data := range docs {
			f, s := scans(t, data)
			if f == nil {
				continue
			}
			fast++
			if !reflect.DeepEqual(f, s) {
				t.Errorf("%s in blocks of %d to %d bytes: the fast scan found\n%+v\nthe slow one\n%+v", name, blocks[0], blocks[1], *f, *s)
			}
		}
		blockMin, blockMax = oldMin, oldMax
	}
	t.Logf("%d of %d scans fast", fast, 2*len(docs))
	if fast < len(docs) {
		t.Errorf("only %d of %d scans were fast", fast, 2*len(docs))
	}
	for _, name := range []string{"rss/ordinary", "atom/ordinary", "edge 0", "edge 1"} {
		if f, _ := scans(t, docs[name]); f == nil {
			t.Errorf("%s: not read by the fast scan", name)
		}
	}
}

// FuzzFastScanMatchesSlow checks that the fast scan, whenever it reads a
// document, finds what the slow scan finds, with the input in one block
// and in blocks of a few bytes. It is seeded with the documents of
// TestFastScanMatchesSlow.
func FuzzFastScanMatchesSlow(f *testing.F) {
	for _, data := range scanDocs(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, blocks := range [][2]int{{blockMin, blockMax}, {3, 7}} {
			oldMin, oldMax := blockMin, blockMax
			blockMin, blockMax = blocks[0], blocks[1]
			fast, slow := scans(t, data)
			blockMin, blockMax = oldMin, oldMax
			if fast != nil && !reflect.DeepEqual(fast, slow) {
				t.Errorf("in blocks of %d to %d bytes, the fast scan found\n%+v\nthe slow one\n%+v", blocks[0], blocks[1], *fast, *slow)
			}
		}
	})
}
