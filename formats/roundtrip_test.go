package formats_test

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mmcdole/gofeed"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// carried returns what format name keeps of an entry written with it and
// read back, for the round-trip test. A writer missing here fails the test:
// every writer must say what survives it.
var carried = map[string]func(e formats.Entry) formats.Entry{
	"xml": func(e formats.Entry) formats.Entry {
		e.Title, e.Summary = "", ""
		e.LastMod = written(e.LastMod)
		return e
	},
	"text": func(e formats.Entry) formats.Entry {
		return formats.Entry{Loc: e.Loc}
	},
	"rss":  inFeed,
	"atom": inFeed,
}

// inFeed is what RSS and Atom keep: the loc, the lastmod to the second (in
// UTC here: feeds keep the instant, and the zone when they can), the title
// (the URL's path when there was none), and the summary.
func inFeed(e formats.Entry) formats.Entry {
	out := formats.Entry{Loc: e.Loc, Title: e.Title, Summary: e.Summary}
	if !e.LastMod.IsZero() {
		out.LastMod = formats.NewLastMod(e.LastMod.Time().UTC().Truncate(time.Second), formats.PrecisionSecond)
	}
	if out.Title == "" {
		// The path, readable, and the query.
		u, _ := url.Parse(e.Loc)
		out.Title = u.EscapedPath()
		if p, err := url.PathUnescape(out.Title); err == nil && utf8.ValidString(p) &&
			strings.IndexFunc(p, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) < 0 {
			out.Title = p // readable, and read back as written
		}
		if out.Title == "" {
			out.Title = "/"
		}
		if u.RawQuery != "" {
			out.Title += "?" + u.RawQuery
		}
	}
	return out
}

// TestHoldsTexts checks that Format.HoldsTexts says what each writer
// keeps of an entry's title and summary.
func TestHoldsTexts(t *testing.T) {
	e := formats.Entry{Loc: "https://example.com/a", Title: "A title", Summary: "A summary"}
	for name, keep := range carried {
		f, err := formats.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		kept := keep(e)
		if holds := kept.Title != "" || kept.Summary != ""; holds != f.HoldsTexts() {
			t.Errorf("%s: HoldsTexts() is %v, but its documents keep title %q, summary %q", name, f.HoldsTexts(), kept.Title, kept.Summary)
		}
	}
}

// FuzzRoundTrip writes entries made of the fuzzer's values with every
// registered writer, reads the output back with formats.Open, which
// recognizes its format by content, and checks that it gives the same
// entries, as far as the format can hold them.
func FuzzRoundTrip(f *testing.F) {
	f.Add("https://a.example/", "2024-05-06", "daily", 0.5, "A title", uint8(3))
	f.Add("http://b.example/päth?q=1&r=<2>", "2024-05-06T07:08:09.123+05:30", "", -1.0, "", uint8(1))
	f.Add("https://xn--bcher-kva.example/a%20b", "2024", "NEVER", 1.0, "Ünïcode & <markup>", uint8(2))
	f.Fuzz(func(t *testing.T, loc, lastmod, changefreq string, priority float64, title string, n uint8) {
		base, err := formats.ParseLoc(loc, nil)
		if err != nil {
			return
		}
		var entries []formats.Entry
		for i := range int(n%5) + 1 {
			e := formats.Entry{Loc: base, Title: plainText(title)}
			if i > 0 {
				e.Loc = fmt.Sprintf("%s%s%d", base, map[bool]string{true: "&n=", false: "?n="}[strings.Contains(base, "?")], i)
				if len(e.Loc) > formats.MaxLocLength {
					return
				}
			}
			e.LastMod, _ = formats.ParseLastMod(lastmod)
			e.ChangeFreq, _ = formats.ParseChangeFreq(changefreq)
			e.Priority, _ = formats.NewPriority(priority)
			entries = append(entries, e)
		}
		for _, f := range formats.Formats() {
			if !f.CanWrite() {
				continue
			}
			name := f.Name
			keep, ok := carried[name]
			if !ok {
				t.Fatalf("writer %q: the round-trip test does not know what it keeps", name)
			}
			f, _ := formats.Lookup(name)
			var buf bytes.Buffer
			w := f.NewWriter(&buf, formats.WriteOptions{})
			for _, e := range entries {
				if err := w.Write(e); err != nil {
					t.Fatalf("%s: Write(%+v): %v", name, e, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatalf("%s: Close: %v", name, err)
			}
			written := bytes.Clone(buf.Bytes())
			r, _, err := formats.Open(&buf, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: name, Strict: true}})
			if err != nil {
				t.Fatalf("%s: reading back %q: %v", name, buf.String(), err)
			}
			var got []formats.Entry
			for {
				e, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: reading back: %v", name, err)
				}
				got = append(got, e)
			}
			if len(got) != len(entries) {
				t.Fatalf("%s: wrote %d entries, read %d back", name, len(entries), len(got))
			}
			for i := range entries {
				want, have := keep(entries[i]), keep(got[i])
				if name == "atom" && want.LastMod.IsZero() {
					// Atom requires a date on every entry: one with no
					// lastmod gets the feed's updated.
					have.LastMod = formats.LastMod{}
				}
				if !sameEntry(want, have) {
					t.Fatalf("%s: entry %d:\nwrote %+v\nread  %+v", name, i, want, have)
				}
			}
			if name == "rss" || name == "atom" {
				checkWithGofeed(t, name, written, entries, keep)
			}
		}
	})
}

// checkWithGofeed reads a feed the rss or atom writer wrote with gofeed, as
// a feed reader shows it, and checks that each item's title is the title
// written (plain text, escaped once: no "&amp;" shown for "&") and its
// link, by gofeed's rule (the first rel="alternate" in Atom), the page.
func checkWithGofeed(t *testing.T, name string, doc []byte, entries []formats.Entry, keep func(formats.Entry) formats.Entry) {
	t.Helper()
	f, err := gofeed.NewParser().Parse(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("%s: gofeed: %v\n%s", name, err, doc)
	}
	if len(f.Items) != len(entries) {
		t.Fatalf("%s: gofeed read %d items of %d", name, len(f.Items), len(entries))
	}
	for i, it := range f.Items {
		want := keep(entries[i])
		if it.Title != want.Title || it.Link != want.Loc {
			t.Fatalf("%s: item %d: gofeed shows title %q, link %q; wrote %q, %q", name, i, it.Title, it.Link, want.Title, want.Loc)
		}
	}
}

// written returns the lastmod as a sitemap holds it: in the form
// LastMod.String gives (a year or a month alone becomes a day, minutes get
// seconds).
func written(l formats.LastMod) formats.LastMod {
	w, _ := formats.ParseLastMod(l.String())
	return w
}

// plainText returns s as readers give titles: valid UTF-8 without control
// characters, white space collapsed, at most feed.MaxTitle characters.
func plainText(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > feed.MaxTitle {
		s = string(r[:feed.MaxTitle])
	}
	return uri.TrimSpace(s)
}

// sameEntry compares entries field by field, lastmods by instant and
// precision.
func sameEntry(a, b formats.Entry) bool {
	return a.Loc == b.Loc && a.LastMod.String() == b.LastMod.String() && a.LastMod.Equal(b.LastMod) &&
		a.ChangeFreq == b.ChangeFreq && a.Priority == b.Priority && a.Kind == b.Kind &&
		a.Title == b.Title && a.Summary == b.Summary && slices.Equal(extText(a), extText(b))
}

// extText returns extension data as text, for comparison.
func extText(e formats.Entry) []string {
	if e.Ext == nil {
		return nil
	}
	return []string{fmt.Sprintf("%+v", *e.Ext)}
}
