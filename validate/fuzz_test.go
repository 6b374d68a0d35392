package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzCheck checks that no input makes the validator panic, hang or report
// a malformed finding, seeded with the rule documents, the catalogue and
// the corpus.
func FuzzCheck(f *testing.F) {
	root := repoRoot(f)
	var seeds []string
	for _, pattern := range []string{"testdata/validate/rules/*", "testdata/validate/catalogue/*.xml", "testdata/corpus/*"} {
		files, _ := filepath.Glob(filepath.Join(root, pattern))
		seeds = append(seeds, files...)
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil || len(data) > 64<<10 || bytes.HasPrefix(data, []byte{0x1f, 0x8b}) && len(data) > 4<<10 {
			continue // big or expanding inputs slow every iteration down
		}
		f.Add(data)
	}
	known := map[*Rule]bool{}
	for _, r := range Rules() {
		known[r] = true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs := 0
		v := New(Options{Now: testNow, OnDocument: func(Document) { docs++ }})
		err := v.Check(bytes.NewReader(data), Source{Name: "fuzz"}, func(x Finding) {
			if !known[x.Rule] || x.Line < 0 || x.Column < 0 || x.Message == "" || x.Source != "fuzz" {
				t.Fatalf("malformed finding %+v", x)
			}
			if x.Column > 0 && x.Line == 0 {
				t.Fatalf("a column without a line: %+v", x)
			}
		})
		if err != nil {
			t.Fatalf("Check of an in-memory input failed: %v", err)
		}
		if docs != 1 {
			t.Fatalf("%d documents reported, want 1", docs)
		}
	})
}
