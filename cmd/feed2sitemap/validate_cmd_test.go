package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/validate"
)

// ruleDoc returns the path of a rule document of testdata/validate/rules.
func ruleDoc(name string) string {
	return filepath.Join("..", "..", "testdata", "validate", "rules", name)
}

func TestValidateValid(t *testing.T) {
	out, errOut, status := runCLI(t, nil, "validate", ruleDoc("element-order.pass.xml"))
	assert.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, "element-order.pass.xml (xml, 1 URL): ok\n")
	assert.Contains(t, out, "\n0 errors, 0 warnings in 1 file\n")
	assert.Contains(t, out, "note: the host and directory rules were skipped for 1 file")
}

func TestValidateErrors(t *testing.T) {
	out, errOut, status := runCLI(t, nil, "validate", ruleDoc("element-order.fail.xml"))
	assert.Equal(t, exitFail, status)
	assert.Contains(t, out, "element-order.fail.xml (xml, 1 URL): 1 error, 0 warnings\n")
	assert.Contains(t, out, "  3:67: error: <lastmod> must come before <priority> in <url> [element-order]\n      fix: ")
	assert.Contains(t, out, "\n1 error, 0 warnings in 1 file\n")
	assert.Contains(t, errOut, "validation failed")
}

func TestValidateJSON(t *testing.T) {
	out, _, status := runCLI(t, nil, "validate", "--format", "json", ruleDoc("lastmod-format.fail.xml"), ruleDoc("duplicate-url.fail.xml"))
	assert.Equal(t, exitFail, status)
	var rep validate.JSONReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, 1, rep.Version)
	assert.False(t, rep.Valid)
	assert.Equal(t, 1, rep.Errors)
	assert.Equal(t, 3, rep.Warnings, "two duplicates, one of them with a fragment")
	assert.Equal(t, 2, rep.Unscoped)
	require.Len(t, rep.Files, 2)
	f := rep.Files[0]
	assert.Equal(t, ruleDoc("lastmod-format.fail.xml"), f.Source)
	assert.Equal(t, "xml", f.Format)
	assert.Equal(t, 1, f.URLs)
	require.Len(t, f.Findings, 1)
	assert.Equal(t, validate.JSONFinding{Rule: "lastmod-format", Severity: validate.Error, Line: 3, Column: 43,
		Message: `lastmod "2025-01" is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDThh:mm:ss±hh:mm)`,
		Fix:     validate.LookupRule("lastmod-format").Fix}, f.Findings[0])
	// Duplicates are found across the files of a run too.
	require.Len(t, rep.Files[1].Findings, 3)
	assert.Equal(t, "loc-untidy", rep.Files[1].Findings[1].Rule, "a#top")
	assert.Equal(t, "duplicate-url", rep.Files[1].Findings[0].Rule)
	assert.Contains(t, rep.Files[1].Findings[0].Message, "is listed before in "+ruleDoc("lastmod-format.fail.xml")+" (line 3)")
	// The raw JSON uses the documented names.
	for _, key := range []string{`"version"`, `"valid"`, `"errors"`, `"warnings"`, `"omitted"`, `"unscoped"`, `"files"`,
		`"source"`, `"format"`, `"urls"`, `"bytes"`, `"findings"`, `"rule"`, `"severity": "error"`, `"line"`, `"column"`, `"message"`, `"fix"`} {
		assert.Contains(t, out, key)
	}
}

func TestValidateStrict(t *testing.T) {
	_, _, status := runCLI(t, nil, "validate", ruleDoc("duplicate-url.fail.xml"))
	assert.Equal(t, exitOK, status, "warnings alone pass")
	_, _, status = runCLI(t, nil, "validate", "--strict", ruleDoc("duplicate-url.fail.xml"))
	assert.Equal(t, exitFail, status, "--strict fails on warnings")
	_, _, status = runCLI(t, nil, "validate", "--strict", ruleDoc("duplicate-url.pass.xml"))
	assert.Equal(t, exitOK, status)
}

func TestValidateMaxFindings(t *testing.T) {
	doc := filepath.Join(t.TempDir(), "urls.txt")
	require.NoError(t, os.WriteFile(doc, []byte(strings.Repeat("https://example.com/a\n", 4)), 0o644))
	out, _, status := runCLI(t, nil, "validate", "--max-findings", "1", doc)
	assert.Equal(t, exitOK, status)
	assert.Equal(t, 1, strings.Count(out, "[duplicate-url]"))
	assert.Contains(t, out, "  (2 more findings not shown)\n")
	assert.Contains(t, out, "0 errors, 3 warnings in 1 file\n2 findings not shown (--max-findings 1)\n")

	out, _, _ = runCLI(t, nil, "validate", "--format", "json", "--max-findings", "2", doc)
	var rep validate.JSONReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, 3, rep.Warnings)
	assert.Equal(t, 1, rep.Omitted)
	assert.Len(t, rep.Files[0].Findings, 2)

	out, _, _ = runCLI(t, nil, "validate", "--max-findings", "0", doc)
	assert.Equal(t, 3, strings.Count(out, "[duplicate-url]"), "0 shows every finding")
}

func TestValidateUsageAndUnreadable(t *testing.T) {
	for _, args := range [][]string{
		{"validate", "--format", "yaml", ruleDoc("element-order.pass.xml")},
		{"validate", "--max-findings", "-1", ruleDoc("element-order.pass.xml")},
		{"validate", "--base-url", "ftp://example.com/", ruleDoc("element-order.pass.xml")},
		{"validate", "-", "-"},
	} {
		_, _, status := runCLI(t, nil, args...)
		assert.Equal(t, exitUsage, status, "%q", args)
	}
	missing := filepath.Join(t.TempDir(), "missing.xml")
	out, errOut, status := runCLI(t, nil, "validate", missing, ruleDoc("element-order.fail.xml"))
	assert.Equal(t, exitUsage, status, "an unreadable input wins over findings")
	assert.Contains(t, errOut, missing)
	assert.Contains(t, out, "[element-order]", "the other inputs are still checked")
}

func TestValidateStdin(t *testing.T) {
	out, _, status := runCLI(t, strings.NewReader("https://example.com/a\nftp://example.com/b\n"), "validate", "-")
	assert.Equal(t, exitFail, status)
	assert.Contains(t, out, "<stdin> (text, 2 URLs): 1 error, 0 warnings\n")
	assert.Contains(t, out, "2:1: error: URL ftp://example.com/b is not an absolute http or https URL [loc-not-absolute]")
}

func TestValidateBaseURLAndIndex(t *testing.T) {
	_, _, status := runCLI(t, nil, "validate", ruleDoc("loc-other-host.fail.xml"))
	assert.Equal(t, exitOK, status, "without a location the scope rules are skipped")
	out, _, status := runCLI(t, nil, "validate", "--base-url", "https://example.com/blog/", ruleDoc("loc-other-host.fail.xml"))
	assert.Equal(t, exitFail, status)
	assert.Contains(t, out, "[loc-other-host]")
	assert.NotContains(t, out, "note:")

	out, _, status = runCLI(t, nil, "validate", ruleDoc("index-nested.fail.xml"))
	assert.Equal(t, exitFail, status)
	assert.Contains(t, out, "index-nested.child-index.xml (index, 1 sitemap, listed by ")
	assert.Contains(t, out, "[index-nested]")
	assert.Contains(t, out, "in 2 files")
	out, _, status = runCLI(t, nil, "validate", "--no-follow", ruleDoc("index-nested.fail.xml"))
	assert.Equal(t, exitOK, status)
	assert.Contains(t, out, "in 1 file\n")
}

// TestValidateRemote validates an index served on loopback: its child is
// fetched, and the host rule applies with the index's URL.
func TestValidateRemote(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap_index.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/posts.xml</loc></sitemap></sitemapindex>`, srv.URL)
		case "/posts.xml":
			fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/a</loc></url><url><loc>https://elsewhere.example/b</loc></url></urlset>`, srv.URL)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	out, errOut, status := runCLI(t, nil, "validate", srv.URL+"/sitemap_index.xml")
	assert.Equal(t, exitFail, status, errOut)
	assert.Contains(t, out, srv.URL+"/posts.xml (xml, 2 URLs, listed by "+srv.URL+"/sitemap_index.xml): 1 error, 0 warnings")
	assert.Contains(t, out, "loc https://elsewhere.example/b is not on "+srv.URL+", where the sitemap is served [loc-other-host]")
	assert.NotContains(t, out, "note:")
}
