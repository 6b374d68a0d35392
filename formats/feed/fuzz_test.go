package feed_test

import (
	"bytes"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
)

// FuzzReader checks that the reader never panics or hangs, and that every
// entry it returns has an absolute http(s) loc, whatever the input. It is
// seeded with the corpus feeds.
func FuzzReader(f *testing.F) {
	for _, c := range corpusFeeds(f) {
		data, err := os.ReadFile(c.Path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "feeds", "*"))
	for _, path := range fixtures {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version": "https://jsonfeed.org/version/1", "home_page_url": "/x", "items": [{"url": "a"}, {"id": "http://h/"}]}`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://h/d/"><link href="../"/><entry><link href="e"/><updated>2024</updated></entry></feed>`))
	base, _ := url.Parse("https://example.com/feeds/feed.xml")
	now := time.Date(2024, 6, 4, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			opts := formats.ReadOptions{Source: "fuzz", Base: base, Strict: strict, Warn: func(*formats.ParseError) {},
				NewsName: "N", Now: now}
			check(t, feed.NewReader(bytes.NewReader(data), opts), len(data))
		}
		r, _, err := formats.Open(bytes.NewReader(data), formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: "fuzz"}, From: "feed"})
		if err == nil {
			check(t, r, len(data))
		}
	})
}

// check reads r to the end. A feed of n bytes cannot hold more than n items.
func check(t *testing.T, r formats.Reader, n int) {
	for i := 0; ; i++ {
		e, err := r.Next()
		if err != nil {
			if _, err2 := r.Next(); err2 != err && err2.Error() != err.Error() {
				t.Fatalf("error not sticky: %v then %v", err, err2)
			}
			if err != io.EOF && err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if i > n {
			t.Fatalf("more entries (%d) than bytes (%d)", i, n)
		}
		if !strings.HasPrefix(e.Loc, "http://") && !strings.HasPrefix(e.Loc, "https://") {
			t.Fatalf("entry %d has loc %q", i, e.Loc)
		}
		if e.Kind != formats.KindURL {
			t.Fatalf("entry %d has kind %v", i, e.Kind)
		}
		checkExtensions(t, i, e)
	}
}

// checkExtensions checks what the protocol requires of an entry's
// extensions.
func checkExtensions(t *testing.T, i int, e formats.Entry) {
	if utf8.RuneCountInString(e.Title) > feed.MaxTitle || utf8.RuneCountInString(e.Summary) > feed.MaxSummary {
		t.Fatalf("entry %d: title or summary too long", i)
	}
	x := e.Ext
	if x == nil {
		return
	}
	if x.Uses() == 0 {
		t.Fatalf("entry %d: empty extensions", i)
	}
	if len(x.Images) > formats.MaxImages {
		t.Fatalf("entry %d: %d images", i, len(x.Images))
	}
	seen := map[string]bool{}
	for _, im := range x.Images {
		if seen[im.Loc] || !strings.HasPrefix(im.Loc, "http") {
			t.Fatalf("entry %d: image %q twice or not a URL", i, im.Loc)
		}
		seen[im.Loc] = true
	}
	for _, v := range x.Videos {
		if v.ThumbnailLoc == "" || v.Title == "" || v.Description == "" || v.ContentLoc == "" && v.PlayerLoc == "" ||
			v.ContentLoc == e.Loc || utf8.RuneCountInString(v.Title) > 100 || utf8.RuneCountInString(v.Description) > 2048 {
			t.Fatalf("entry %d: invalid video %+v", i, v)
		}
	}
	if n := x.News; n != nil && (n.Title == "" || n.PublicationLanguage == "" || n.PublicationDate.IsZero()) {
		t.Fatalf("entry %d: invalid news %+v", i, n)
	}
}

// FuzzRoundTrip checks that an entry written by the rss and atom writers
// reads back with the feed reader with the same loc, the same lastmod to
// the second and the same title and summary, as the reader makes text
// plain (white space collapsed).
func FuzzRoundTrip(f *testing.F) {
	f.Add("https://example.com/a?b=1&c=2", "Title & <b>bold</b>", "a < b", int64(1717488000), 120, true)
	f.Add("http://例え.jp/パス", "", "&amp;", int64(0), 0, false)
	f.Add("https://h/x", "  spaced\ttitle ", "<![CDATA[x]]>", int64(-86400), -330, true)
	f.Fuzz(func(t *testing.T, rawLoc, title, summary string, unix int64, zoneMinutes int, withImage bool) {
		loc, err := formats.ParseLoc(rawLoc, nil)
		if err != nil {
			return
		}
		e := formats.Entry{Loc: loc, Title: title, Summary: summary}
		if unix != 0 && unix > -62135596800 && unix < 253402300799 && zoneMinutes > -24*60 && zoneMinutes < 24*60 {
			tm := time.Unix(unix, 0).In(time.FixedZone("", zoneMinutes*60))
			e.LastMod = formats.NewLastMod(tm, formats.PrecisionSecond)
		}
		if withImage {
			e.Ext = &formats.Extensions{Images: []formats.Image{{Loc: loc + "/i.png"}}}
		}
		for _, name := range []string{"rss", "atom"} {
			var buf bytes.Buffer
			w := feed.NewRSSWriter(&buf, formats.WriteOptions{})
			if name == "atom" {
				w = feed.NewAtomWriter(&buf, formats.WriteOptions{})
			}
			if err := w.Write(e); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			r := feed.NewReader(bytes.NewReader(buf.Bytes()), formats.ReadOptions{Source: name, Strict: true,
				Warn: func(pe *formats.ParseError) { t.Fatalf("%s: warning: %v\n%s", name, pe, buf.Bytes()) }})
			got, err := r.Next()
			if err != nil {
				t.Fatalf("%s: %v\n%s", name, err, buf.Bytes())
			}
			if _, err := r.Next(); err != io.EOF {
				t.Fatalf("%s: more than one entry, or %v", name, err)
			}
			if got.Loc != e.Loc {
				t.Fatalf("%s: loc %q read back as %q", name, e.Loc, got.Loc)
			}
			if !e.LastMod.IsZero() && got.LastMod.Time().Unix() != e.LastMod.Time().Unix() {
				t.Fatalf("%s: lastmod %v read back as %v", name, e.LastMod, got.LastMod)
			}
			if name == "rss" && e.LastMod.IsZero() != got.LastMod.IsZero() {
				t.Fatalf("%s: lastmod %v read back as %v", name, e.LastMod, got.LastMod)
			}
			if want, ok := plain(title, feed.MaxTitle); ok && want != "" && got.Title != want {
				t.Fatalf("%s: title %q read back as %q\n%s", name, want, got.Title, buf.Bytes())
			}
			if want, ok := plain(summary, feed.MaxSummary); ok && got.Summary != want {
				t.Fatalf("%s: summary %q read back as %q\n%s", name, want, got.Summary, buf.Bytes())
			}
			if withImage && (got.Ext == nil || len(got.Ext.Images) != 1 || got.Ext.Images[0].Loc != loc+"/i.png") {
				t.Fatalf("%s: image lost: %+v", name, got.Ext)
			}
		}
	})
}

// plain is the text the reader should read back for s: characters XML
// cannot hold (and invalid UTF-8) dropped, runs of space and control
// characters one space, trimmed. It reports false when that is longer than
// max characters, which the reader cuts.
func plain(s string, max int) (string, bool) {
	kept := strings.Map(func(c rune) rune {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == utf8.RuneError || c == 0xFFFE || c == 0xFFFF {
			return -1 // the writers leave out what XML cannot hold
		}
		return c
	}, s)
	words := strings.FieldsFunc(kept, func(c rune) bool {
		return unicode.IsSpace(c) || unicode.IsControl(c) || c == 0xFEFF
	})
	out := strings.Join(words, " ")
	return out, utf8.RuneCountInString(out) <= max
}
