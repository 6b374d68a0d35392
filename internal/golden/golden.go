// Package golden compares what tests produce with golden files that pin the
// exact bytes, and rewrites the files instead when the tests run with the
// -update flag (go test ./formats/xml -update). A test binary gets the flag
// by importing this package.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files with what the tests produce")

// Check compares got with the golden file at path, failing the test on a
// difference; with -update it writes got to path instead.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden: %v (run the test with -update to create it)", err)
	}
	if string(want) != string(got) {
		t.Errorf("golden: output differs from %s (run with -update after a deliberate change and review the diff)\n--- want\n%s\n--- got\n%s", path, clip(want), clip(got))
	}
}

func clip(b []byte) string {
	if len(b) > 4000 {
		return string(b[:4000]) + "\n[…]"
	}
	return string(b)
}
