package validate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// where lists the findings of one document as "rule@line:column".
func where(fs []Finding, source string) []string {
	var out []string
	for _, f := range fs {
		if f.Source == source {
			out = append(out, fmt.Sprintf("%s@%d:%d", f.Rule.ID, f.Line, f.Column))
		}
	}
	return out
}

// TestTextAndRobotsLineEndings checks a text sitemap and a robots.txt
// whose lines end with LF, CRLF or CR only, as the readers read them: the
// same URLs and children, findings at the same lines, and an over-long
// line reported (or, for a robots.txt rule, ignored) without hiding the
// lines after it.
func TestTextAndRobotsLineEndings(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		var docs []Document
		v := New(Options{Now: testNow, OnDocument: func(d Document) { docs = append(docs, d) }})
		list := strings.Join([]string{"# urls", "https://example.com/a", "https://example.com/" + long, "", "https://example.com/b"}, eol) + eol
		got := where(run(t, v, list, "urls.txt", "https://example.com/urls.txt"), "urls.txt")
		if want := []string{"text-line@1:1", "loc-too-long@3:1"}; !slices.Equal(got, want) {
			t.Errorf("ending %q: text findings %v, want %v", eol, got, want)
		}
		if len(docs) != 1 || docs[0].Format != "text" || docs[0].URLs != 2 {
			t.Errorf("ending %q: documents %+v, want one text sitemap of 2 URLs", eol, docs)
		}

		var opened []string
		children := map[string]string{
			"https://example.com/a.xml": twoURLs,
			"https://example.com/b.xml": twoURLs,
		}
		v = New(Options{Now: testNow, Independent: true, OpenChild: memChildren(children, &opened)})
		robots := strings.Join([]string{"User-agent: *", "Disallow: /" + long, "Sitemap: https://example.com/a.xml",
			"Sitemap: https://example.com/" + long, "Sitemap:  https://example.com/b.xml#comment"}, eol)
		got = where(run(t, v, robots, "robots.txt", "https://example.com/robots.txt"), "robots.txt")
		if want := []string{"loc-too-long@4:1"}; !slices.Equal(got, want) {
			t.Errorf("ending %q: robots.txt findings %v, want %v", eol, got, want)
		}
		if want := []string{"https://example.com/a.xml", "https://example.com/b.xml"}; !slices.Equal(opened, want) {
			t.Errorf("ending %q: followed %v, want %v (as the robots reader reads them)", eol, opened, want)
		}
	}
}

// TestDeclarationNotAtStartAgreesWithXmllint checks sitemaps with white
// space, a comment or a PHP warning before the XML declaration (which the
// reader passes over) as xmllint does: not well-formed; a byte order mark
// alone is fine.
func TestDeclarationNotAtStartAgreesWithXmllint(t *testing.T) {
	lint := xmllint(t)
	doc := `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc></url></urlset>` + "\n"
	dir := t.TempDir()
	for name, prefix := range map[string]string{
		"bom":         "\ufeff",
		"blank line":  "\n",
		"space":       "  ",
		"comment":     "<!-- generated -->\n",
		"php warning": "Warning: x in y.php on line 3\n",
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".xml")
		if err := os.WriteFile(path, []byte(prefix+doc), 0o644); err != nil {
			t.Fatal(err)
		}
		x := lint(path, "core")
		got := checkFile(t, path, "https://example.com/", Options{NoFollow: true})
		if v := schemaVerdict(got); v != x {
			t.Errorf("%s before the declaration: xmllint says %s, the validator %s; findings:%s", name, x, v, describe(got))
		}
	}
}
