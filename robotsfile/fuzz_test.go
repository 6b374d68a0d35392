package robotsfile_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/robotsfile"
)

// FuzzUpdate checks, for any file, that Update does not fail or panic, that
// a second update changes nothing, and that the new lines are in the file.
func FuzzUpdate(f *testing.F) {
	for _, tc := range updateCases {
		if b, err := os.ReadFile(tc.in); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("\xef\xbb\xbf"))
	f.Add([]byte("Sitemap: https://example.com/sitemap-1-00000000.xml\r\r\nsitemap:/sitemap.txt"))
	sets := [][]string{
		{"https://example.com/sitemap.xml"},
		{"https://example.com/maps/sitemap.xml.gz", "https://example.com/maps/sitemap-1-0a1b2c3d.xml.gz"},
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, set := range sets {
			out, changed, err := robotsfile.Update(src, set)
			if err != nil {
				t.Fatal(err)
			}
			if changed == bytes.Equal(src, out) {
				t.Fatalf("changed = %v for\n%q\n%q", changed, src, out)
			}
			again, changed, err := robotsfile.Update(out, set)
			if err != nil || changed || !bytes.Equal(again, out) {
				t.Fatalf("not idempotent: %v\n%q\n%q", err, out, again)
			}
			for _, s := range set {
				if !bytes.Contains(out, []byte("Sitemap: "+s)) && !changedNothing(src, out) {
					t.Fatalf("%s not declared in\n%q", s, out)
				}
			}
		}
	})
}

func changedNothing(src, out []byte) bool { return bytes.Equal(src, out) }
