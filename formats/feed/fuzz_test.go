package feed_test

import (
	"bytes"
	"io"
	"net/url"
	"os"
	"strings"
	"testing"

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
	f.Add([]byte(`{"version": "https://jsonfeed.org/version/1", "home_page_url": "/x", "items": [{"url": "a"}, {"id": "http://h/"}]}`))
	f.Add([]byte(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://h/d/"><link href="../"/><entry><link href="e"/><updated>2024</updated></entry></feed>`))
	base, _ := url.Parse("https://example.com/feeds/feed.xml")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, strict := range []bool{false, true} {
			opts := formats.ReadOptions{Source: "fuzz", Base: base, Strict: strict, Warn: func(*formats.ParseError) {}}
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
	}
}
