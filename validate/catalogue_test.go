package validate

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
)

// catalogueEntry is a row of testdata/validate/catalogue/MANIFEST.tsv.
type catalogueEntry struct {
	file, schema, verdict string
	rules                 []string
}

func loadCatalogue(t *testing.T) (string, []catalogueEntry) {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "testdata", "validate", "catalogue")
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []catalogueEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("MANIFEST.tsv: %q: want 4 columns", line)
		}
		e := catalogueEntry{file: cols[0], schema: cols[1], verdict: cols[2]}
		if cols[3] != "" {
			e.rules = strings.Split(cols[3], ",")
		}
		out = append(out, e)
	}
	return dir, out
}

// TestCatalogue checks the validator on every document of the catalogue:
// its verdict (no finding of a schema rule = valid) is the one the manifest
// records from xmllint, and it reports the rules the manifest names.
func TestCatalogue(t *testing.T) {
	dir, entries := loadCatalogue(t)
	if len(entries) < 40 {
		t.Fatalf("the catalogue has %d documents, want at least 40", len(entries))
	}
	valid, invalid := 0, 0
	for _, e := range entries {
		got := checkFile(t, filepath.Join(dir, e.file), "https://example.com/", Options{NoFollow: true})
		if v := schemaVerdict(got); v != e.verdict {
			t.Errorf("%s: validator says %s, xmllint %s; findings:%s", e.file, v, e.verdict, describe(got))
		}
		for _, r := range e.rules {
			if LookupRule(r) == nil {
				t.Errorf("%s: the manifest names an unknown rule %q", e.file, r)
			} else if !slices.Contains(ruleIDs(got), r) {
				t.Errorf("%s: no %s finding; findings:%s", e.file, r, describe(got))
			}
		}
		if e.verdict == "valid" {
			valid++
		} else {
			invalid++
		}
	}
	if valid < 10 || invalid < 10 {
		t.Errorf("the catalogue has %d valid and %d invalid documents; want both kinds", valid, invalid)
	}
}

// xmllint returns a function giving xmllint's verdict on a file against a
// schema: "core" (the shipped sitemap.xsd), "index" (siteindex.xsd) or
// "all" (../shared/schemas/sitemap-all.xsd, with its offline catalog). It
// skips the test when xmllint is missing; when ../shared is missing, the
// verdict against "all" is "skipped" (recorded by testenv), and the
// caller leaves that document out. Under CI both fail the test instead.
func xmllint(t *testing.T) func(file, schema string) string {
	t.Helper()
	bin := testenv.Xmllint(t)
	root := repoRoot(t)
	shared, haveShared := testenv.LookupSharedSchemas(t)
	schemas := map[string]string{
		"core":  filepath.Join(root, "testdata", "schemas", "sitemap.xsd"),
		"index": filepath.Join(root, "testdata", "schemas", "siteindex.xsd"),
		"all":   filepath.Join(shared, "sitemap-all.xsd"),
	}
	return func(file, schema string) string {
		xsd, ok := schemas[schema]
		if !ok {
			t.Fatalf("unknown schema %q", schema)
		}
		if schema == "all" && !haveShared {
			testenv.SkipSharedPart(t, filepath.Base(file))
			return "skipped"
		}
		cmd := exec.Command(bin, "--nonet", "--noout", "--schema", xsd, file)
		cmd.Env = append(os.Environ(), "XML_CATALOG_FILES="+filepath.Join(shared, "catalog.xml"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("xmllint: %v", err)
			}
			if bytes.Contains(out, []byte("failed to compile")) {
				t.Fatalf("xmllint could not compile %s:\n%s", xsd, out)
			}
			return "invalid"
		}
		return "valid"
	}
}

// TestCatalogueAgreesWithXmllint runs xmllint on every catalogue document
// and compares its verdict with the validator's (and the manifest's).
func TestCatalogueAgreesWithXmllint(t *testing.T) {
	lint := xmllint(t)
	dir, entries := loadCatalogue(t)
	for _, e := range entries {
		path := filepath.Join(dir, e.file)
		x := lint(path, e.schema)
		if x == "skipped" {
			continue
		}
		if x != e.verdict {
			t.Errorf("%s: xmllint says %s, the manifest %s", e.file, x, e.verdict)
		}
		if v := schemaVerdict(checkFile(t, path, "https://example.com/", Options{NoFollow: true})); v != x {
			t.Errorf("%s: xmllint says %s, the validator %s", e.file, x, v)
		}
	}
}

// TestCorpusAgreesWithXmllint compares the verdicts on every XML sitemap
// and index of the real-world corpus.
func TestCorpusAgreesWithXmllint(t *testing.T) {
	lint := xmllint(t)
	files := corpus.Load(t, "urlset", "sitemapindex", "gz-urlset", "gz-sitemapindex")
	if len(files) < 20 {
		t.Fatalf("only %d corpus sitemaps", len(files))
	}
	for _, f := range files {
		schema := "all"
		if strings.HasSuffix(f.Kind, "sitemapindex") {
			schema = "index"
		}
		x := lint(f.Path, schema)
		if x == "skipped" {
			continue
		}
		got := checkFile(t, f.Path, "", Options{NoFollow: true})
		if v := schemaVerdict(got); v != x {
			t.Errorf("%s: xmllint says %s, the validator %s; findings:%s", f.Name, x, v, describe(got))
		}
	}
}
