// Package conformance is the check every writer's tests run: documents
// validate against the official schemas with xmllint, and what a writer
// writes reads back as the same entries.
//
// Outside CI a missing xmllint, or a missing ../shared/schemas for a
// document with extensions, skips the test (package testenv, which also
// reports the skip in one line); when the environment variable CI is "true"
// it fails the test instead, so CI never passes without having validated.
package conformance

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
)

// extensionNamespaces are the namespaces of the schemas that are not
// shipped with the project.
var extensionNamespaces = []string{
	"http://www.google.com/schemas/sitemap-image/1.1",
	"http://www.google.com/schemas/sitemap-video/1.1",
	"http://www.google.com/schemas/sitemap-news/0.9",
	"http://www.google.com/schemas/sitemap-mobile/1.0",
	"http://www.w3.org/1999/xhtml",
}

// schemaFor returns the schema file that doc must validate against: the
// index schema for a sitemapindex, the core schema for a plain urlset (both
// shipped in testdata/schemas), and the all-extensions schema from
// ../shared/schemas for a urlset that declares extensions. It skips the test
// when the shared schemas are needed but absent outside CI.
func schemaFor(t testing.TB, doc []byte) (schema, catalog string) {
	t.Helper()
	root := testenv.RepoRoot(t)
	s := sniff.Of(doc[:min(len(doc), sniff.Len)])
	if s.Root == "sitemapindex" {
		return filepath.Join(root, "testdata", "schemas", "siteindex.xsd"), ""
	}
	head := string(doc[:min(len(doc), 4096)])
	for _, ns := range extensionNamespaces {
		if strings.Contains(head, `"`+ns+`"`) {
			shared := testenv.SharedSchemas(t)
			return filepath.Join(shared, "sitemap-all.xsd"), filepath.Join(shared, "catalog.xml")
		}
	}
	return filepath.Join(root, "testdata", "schemas", "sitemap.xsd"), ""
}

// ValidateXML checks that doc, a sitemap or sitemap index, is valid against
// the official schema for its root element, with xmllint and no network.
func ValidateXML(t testing.TB, doc []byte) {
	t.Helper()
	if problem := XMLProblem(t, doc); problem != "" {
		excerpt := doc
		if len(excerpt) > 2000 {
			excerpt = excerpt[:2000]
		}
		t.Fatalf("conformance: %s\ndocument:\n%s", problem, excerpt)
	}
}

// XMLProblem returns what xmllint says is wrong with doc against the
// official schema for its root element (the schema ValidateXML uses), or
// "" when doc is valid: for a test that asks whether an input was valid
// before holding its output to it.
func XMLProblem(t testing.TB, doc []byte) string {
	t.Helper()
	xmllint := testenv.Xmllint(t)
	schema, catalog := schemaFor(t, doc)
	cmd := exec.Command(xmllint, "--nonet", "--noout", "--schema", schema, "-")
	cmd.Stdin = bytes.NewReader(doc)
	cmd.Env = append(os.Environ(), "XML_CATALOG_FILES="+catalog)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Sprintf("not valid against %s: %v\n%s", filepath.Base(schema), err, out)
	}
	return ""
}

// RoundTrip writes entries with the format's writer, reads the result back
// through formats.Open (with detection), and returns the document and the
// entries read. Callers compare the entries with what they wrote, as far as
// the format can hold them.
func RoundTrip(t testing.TB, f *formats.Format, entries []formats.Entry, opts formats.WriteOptions) ([]byte, []formats.Entry) {
	t.Helper()
	var buf bytes.Buffer
	w := f.NewWriter(&buf, opts)
	for _, e := range entries {
		if err := w.Write(e); err != nil {
			t.Fatalf("conformance: %s writer: %v", f.Name, err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatalf("conformance: %s writer Close: %v", f.Name, err)
	}
	doc := buf.Bytes()
	r, got, err := formats.Open(bytes.NewReader(doc), formats.OpenOptions{
		ReadOptions: formats.ReadOptions{Source: f.Name + " output", Strict: true},
	})
	if err != nil {
		if len(entries) == 0 && len(doc) == 0 {
			return doc, nil // an empty document of a format without a frame is an empty file
		}
		t.Fatalf("conformance: reading %s output back: %v", f.Name, err)
	}
	if got.Name != f.Name {
		t.Fatalf("conformance: %s output was recognized as %s", f.Name, got.Name)
	}
	var back []formats.Entry
	for e, err := range formats.All(r) {
		if err != nil {
			t.Fatalf("conformance: reading %s output back: %v", f.Name, err)
		}
		back = append(back, e)
	}
	return doc, back
}
