package validate

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// testNow is the time every test checks at, so that the lastmod-future
// and news-age documents stay what they are.
var testNow = time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)

// checkFile validates the file at path as served at base + its name (at
// an unknown URL when base is ""), and returns its findings and those of
// the children it lists.
func checkFile(t testing.TB, path, base string, opts Options) []Finding {
	t.Helper()
	return checkFileDocs(t, path, base, opts, nil)
}

// checkFileDocs is checkFile that also appends the documents checked to
// docs, when not nil.
func checkFileDocs(t testing.TB, path, base string, opts Options, docs *[]Document) []Finding {
	t.Helper()
	if docs != nil {
		opts.OnDocument = func(d Document) { *docs = append(*docs, d) }
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if opts.Now.IsZero() {
		opts.Now = testNow
	}
	var u *url.URL
	if base != "" {
		var err error
		if u, err = url.Parse(base + filepath.Base(path)); err != nil {
			t.Fatal(err)
		}
	}
	var got []Finding
	err = New(opts).Check(f, Source{Name: path, URL: u, Dir: filepath.Dir(path)}, func(f Finding) {
		got = append(got, f)
	})
	if err != nil {
		t.Fatalf("Check(%s): %v", path, err)
	}
	return got
}

// ruleIDs returns the sorted, distinct rule ids of findings.
func ruleIDs(fs []Finding) []string {
	var ids []string
	for _, f := range fs {
		if !slices.Contains(ids, f.Rule.ID) {
			ids = append(ids, f.Rule.ID)
		}
	}
	slices.Sort(ids)
	return ids
}

// schemaVerdict is the validator's answer to "would xmllint find this
// valid": no finding of a schema rule.
func schemaVerdict(fs []Finding) string {
	for _, f := range fs {
		if f.Rule.Schema {
			return "invalid"
		}
	}
	return "valid"
}

func describe(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("\n\t" + f.String())
	}
	return b.String()
}

// repoRoot returns the directory holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
