// Package corpus gives tests the real-world corpus in testdata/corpus: its
// files and what its MANIFEST.tsv says each must produce.
package corpus

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// File is a row of MANIFEST.tsv.
type File struct {
	Name  string // file name in testdata/corpus
	Kind  string // what the bytes are: urlset, rss, gz-text, html…
	Valid string // yes, lenient or no
	Count int    // URLs a reader must produce; -1 when the manifest gives none
	Note  string // the edge case the file covers
	Path  string // the file's path
}

// Dir returns the path of testdata/corpus, found above the test's working
// directory.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		corpus := filepath.Join(dir, "testdata", "corpus")
		if _, err := os.Stat(filepath.Join(corpus, "MANIFEST.tsv")); err == nil {
			return corpus
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("corpus: no testdata/corpus/MANIFEST.tsv above the test's directory")
		}
		dir = parent
	}
}

// Load returns the manifest's rows, in its order: all of them, or those of
// the given kinds.
func Load(t testing.TB, kinds ...string) []File {
	t.Helper()
	dir := Dir(t)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma = '\t'
	r.LazyQuotes = true
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("corpus: MANIFEST.tsv: %v", err)
	}
	want := []string{"file", "source_repo", "source_path", "source_commit", "license_of_repo", "kind", "expected_valid", "expected_url_count", "note"}
	if len(rows) == 0 || !slices.Equal(rows[0], want) {
		t.Fatalf("corpus: MANIFEST.tsv columns changed: %v", rows[0])
	}
	var files []File
	for _, row := range rows[1:] {
		if len(kinds) > 0 && !slices.Contains(kinds, row[5]) {
			continue
		}
		c := File{Name: row[0], Kind: row[5], Valid: row[6], Count: -1, Note: row[8], Path: filepath.Join(dir, row[0])}
		if row[7] != "" {
			if c.Count, err = strconv.Atoi(row[7]); err != nil {
				t.Fatalf("corpus: %s: count %q", row[0], row[7])
			}
		}
		files = append(files, c)
	}
	return files
}
