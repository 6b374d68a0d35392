package xml_test

import (
	"bytes"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// FuzzReader checks that no input makes the reader panic or hang, that
// every entry it returns has an absolute http(s) loc, that an error is a
// *formats.ParseError, and that what it read writes and reads back the same.
func FuzzReader(f *testing.F) {
	for _, c := range xmlCorpus(f) {
		if c.Kind == "gz-urlset" {
			continue
		}
		data, err := os.ReadFile(c.Path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.xml"))
	for _, name := range golden {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, tc := range readerCases {
		f.Add([]byte(tc.doc))
	}
	f.Add([]byte(fullSitemap))

	base, _ := url.Parse("https://example.com/dir/sitemap.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		var entries []formats.Entry
		for _, opts := range []formats.ReadOptions{{Base: base}, {Strict: true}} {
			entries = entries[:0]
			r := xml.NewReader(bytes.NewReader(data), opts)
			for n := 0; ; n++ {
				if n > len(data) {
					t.Fatalf("%d entries from %d bytes", n, len(data))
				}
				e, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					if _, ok := err.(*formats.ParseError); !ok {
						t.Fatalf("error %v (%T) is not a *formats.ParseError", err, err)
					}
					break
				}
				if !strings.HasPrefix(e.Loc, "http://") && !strings.HasPrefix(e.Loc, "https://") {
					t.Fatalf("loc %q is not an http(s) URL", e.Loc)
				}
				entries = append(entries, e)
			}
		}

		// What a lenient read gave survives a write and a strict read.
		entries = entries[:0]
		r := xml.NewReader(bytes.NewReader(data), formats.ReadOptions{Base: base})
		for {
			e, err := r.Next()
			if err != nil {
				break
			}
			entries = append(entries, e)
		}
		var buf bytes.Buffer
		o := formats.WriteOptions{}
		for _, e := range entries {
			o.Uses |= e.Ext.Uses()
		}
		if len(entries) > 0 {
			o.Index = entries[0].Kind == formats.KindSitemap
		}
		w := xml.NewWriter(&buf, o)
		for _, e := range entries {
			if err := w.Write(e); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		total := xml.HeaderSize(o) + xml.FooterSize(o)
		for _, e := range entries {
			total += xml.EntrySize(e)
		}
		if total != buf.Len() {
			t.Fatalf("EntrySize: sizes add up to %d, document is %d bytes", total, buf.Len())
		}
		back := xml.NewReader(bytes.NewReader(buf.Bytes()), formats.ReadOptions{Strict: true})
		for i := 0; ; i++ {
			e, err := back.Next()
			if err == io.EOF {
				if i != len(entries) {
					t.Fatalf("wrote %d entries, read %d back", len(entries), i)
				}
				break
			}
			if err != nil {
				t.Fatalf("reading output back: %v\n%s", err, buf.Bytes())
			}
			if i >= len(entries) {
				t.Fatalf("more entries read back than written")
			}
			if w, g := dumpEntry(entries[i]), dumpEntry(e); w != g {
				t.Fatalf("entry %d: wrote\n%s\nread back\n%s", i, w, g)
			}
		}
	})
}

// FuzzFastPathMatchesGeneral checks that the fast path gives exactly what
// the general path gives (entries, warnings, the final error, with their
// positions), in lenient and strict mode, whatever the buffer size and the
// reads, so that a hand-over anywhere loses and repeats nothing.
func FuzzFastPathMatchesGeneral(f *testing.F) {
	addPathSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSameOnBothPaths(t, data)
	})
}

// addPathSeeds adds the documents that put the fast path and the general
// path side by side: the corpus, the goldens, the reader's cases and the
// documents on the edges of the fast path's subset.
func addPathSeeds(f *testing.F) {
	for _, c := range xmlCorpus(f) {
		f.Add(corpusBytes(f, c.Path))
	}
	golden, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.xml"))
	for _, name := range golden {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, tc := range readerCases {
		f.Add([]byte(tc.doc))
	}
	for _, doc := range trickyDocs {
		f.Add([]byte(doc))
	}
}

// FuzzFieldParsers checks that the reader's non-allocating field parsers
// give what the formats package's parsers give.
func FuzzFieldParsers(f *testing.F) {
	for _, v := range fieldValues {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		checkFieldParsers(t, v)
	})
}
