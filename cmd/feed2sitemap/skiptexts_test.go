package main

import (
	"testing"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// TestConvertSkipsTextsOnlyForSitemaps checks that the readers are told
// to leave out titles and summaries when, and only when, the output
// format cannot hold them.
func TestConvertSkipsTextsOnlyForSitemaps(t *testing.T) {
	for name, skip := range map[string]bool{"xml": true, "text": true, "rss": false, "atom": false, "jsonl": false, "html": false, "csv": false} {
		out, err := formats.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		c := &convertCmd{}
		opts, err := c.options(out, func() time.Time { return time.Time{} })
		if err != nil {
			t.Fatal(err)
		}
		if opts.Read.SkipTexts != skip {
			t.Errorf("--to %s: SkipTexts is %v, want %v", name, opts.Read.SkipTexts, skip)
		}
	}
}
