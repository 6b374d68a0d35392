package validate

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
)

// xmlDifferentialSeeds returns the XML documents of the repository's test
// data and of the shared corpus beside the checkout, when it is there.
func xmlDifferentialSeeds(tb testing.TB) [][]byte {
	root := repoRoot(tb)
	var files []string
	for _, pattern := range []string{"testdata/validate/rules/*.xml", "testdata/validate/catalogue/*.xml", "testdata/corpus/*.xml", "../shared/corpus/*.xml", "../shared/corpus/*/*.xml"} {
		found, _ := filepath.Glob(filepath.Join(root, pattern))
		files = append(files, found...)
	}
	var seeds [][]byte
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil || len(data) > 256<<10 {
			continue
		}
		seeds = append(seeds, data)
	}
	return seeds
}

// strictAccepts reports whether the strict reader reads data to its end,
// and the error it stops with otherwise.
func strictAccepts(data []byte) (bool, error) {
	r, _, err := formats.Open(bytes.NewReader(data), formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: "doc.xml", Strict: true}})
	if err != nil {
		return false, err
	}
	for {
		_, err := r.Next()
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// validateErrors returns the findings of validate's rules of severity
// error on data.
func validateErrors(data []byte) []Finding {
	var errs []Finding
	New(Options{Now: testNow, NoFollow: true}).Check(bytes.NewReader(data), Source{Name: "doc.xml"}, func(f Finding) {
		if f.Severity() == Error {
			errs = append(errs, f)
		}
	})
	return errs
}

// checkXMLAgrees fails when the strict reader and validate disagree on an
// XML sitemap: the reader accepts exactly the documents validate finds no
// error in.
func checkXMLAgrees(t *testing.T, data []byte) {
	t.Helper()
	s := sniff.Of(data)
	if s.Content != sniff.XML || s.Root != "urlset" && s.Root != "sitemapindex" {
		return
	}
	ok, err := strictAccepts(data)
	errs := validateErrors(data)
	switch {
	case ok && len(errs) > 0:
		t.Errorf("the strict reader accepts what validate finds %d errors in, the first: %v\n%.300q", len(errs), errs[0], data)
	case !ok && len(errs) == 0:
		t.Errorf("the strict reader stops (%v) where validate finds no error\n%.300q", err, data)
	}
}

// TestXMLStrictAgreesWithValidate holds the strict XML reader to
// validate's XML rules on every XML sitemap and index of the test data
// and the shared corpus: it reads a document to its end exactly when
// validate finds no error in it.
func TestXMLStrictAgreesWithValidate(t *testing.T) {
	seeds := xmlDifferentialSeeds(t)
	if len(seeds) < 100 {
		t.Fatalf("only %d documents to compare on", len(seeds))
	}
	for _, data := range seeds {
		checkXMLAgrees(t, data)
	}
}

// FuzzXMLStrictAgrees is TestXMLStrictAgreesWithValidate on any input.
func FuzzXMLStrictAgrees(f *testing.F) {
	for _, data := range xmlDifferentialSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(checkXMLAgrees)
}
