package csv_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/csv"
)

// FuzzReader reads any input: the reader never panics, ends, and gives
// only entries whose loc ParseLoc keeps as it is, each warning with a line.
func FuzzReader(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*sv"))
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("url;lastmod\n\"https://a.example/\";2024\n")
	f.Add("loc\tpriority\nhttps://a.example/\t2\n")
	f.Fuzz(func(t *testing.T, in string) {
		r := csv.NewReader(strings.NewReader(in), formats.ReadOptions{Source: "f.csv", Warn: func(pe *formats.ParseError) {
			if pe.Line < 1 {
				t.Errorf("a warning without a line: %v", pe)
			}
		}})
		for i := 0; ; i++ {
			e, err := r.Next()
			if err != nil {
				break
			}
			if loc, err := formats.ParseLoc(e.Loc, nil); err != nil || loc != e.Loc {
				t.Fatalf("entry %d: loc %q is not as ParseLoc gives it: %q, %v", i, e.Loc, loc, err)
			}
			if i > len(in) {
				t.Fatal("more entries than bytes")
			}
		}
	})
}
