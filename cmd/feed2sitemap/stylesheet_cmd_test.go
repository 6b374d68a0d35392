package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/stylesheet"
)

func TestStylesheetCmd(t *testing.T) {
	out, errOut, status := runCLI(t, nil, "stylesheet")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, string(stylesheet.Default()), out)
	assert.Empty(t, errOut)

	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xsl")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
	out, errOut, status = runCLI(t, nil, "stylesheet", "-o", path)
	require.Equal(t, exitOK, status, errOut)
	assert.Empty(t, out)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, stylesheet.Default(), got)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "an existing file keeps its mode")

	_, errOut, status = runCLI(t, nil, "stylesheet", "-o", filepath.Join(dir, "missing", "sitemap.xsl"))
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "missing does not exist")
}

// TestStylesheetDataURL prints the stylesheet as a data: URL and names it
// with --stylesheet: every document carries it and stays valid; a data:
// URL of another type is refused.
func TestStylesheetDataURL(t *testing.T) {
	out, errOut, status := runCLI(t, nil, "stylesheet", "--data-url")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, stylesheet.DataURL()+"\n", out)

	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(in, []byte(urlList(30)), 0o644))
	_, errOut, status = runCLI(t, nil, in, "-o", filepath.Join(dir, "sitemap.xml"), "--stylesheet", strings.TrimSpace(out),
		"--max-urls", "20", "--base-url", "https://a.example/")
	require.Equal(t, exitOK, status, errOut)
	assert.NotContains(t, errOut, "warning")
	files, err := filepath.Glob(filepath.Join(dir, "sitemap*.xml"))
	require.NoError(t, err)
	require.Len(t, files, 3, "an index and two parts")
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Contains(t, string(b), "\n"+`<?xml-stylesheet type="text/xsl" href="`+stylesheet.DataURL()+`"?>`+"\n", f)
		conformance.ValidateXML(t, b)
	}
	// A sitemap that carries its stylesheet reads back.
	list, errOut, status := runCLI(t, nil, filepath.Join(dir, "sitemap.xml"), "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, urlList(30), list)

	_, errOut, status = runCLI(t, nil, in, "--stylesheet", "data:text/css,urlset{}")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `a data: URL of type "text/css" cannot be an XSL stylesheet`)
}

// TestStylesheetWarnings warns when the stylesheet --stylesheet names,
// served from the sitemap's folder, is not there or is not an XSL
// stylesheet, or cannot be one by its name: browsers would show a blank
// page. The default stylesheet in place, or -q, gives no warning.
func TestStylesheetWarnings(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "urls.txt")
	require.NoError(t, os.WriteFile(in, []byte(urlList(3)), 0o644))
	pub := filepath.Join(dir, "public")
	require.NoError(t, os.Mkdir(pub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(pub, "page.xsl"), []byte("<html><body/></html>"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(pub, "cut.xsl"), stylesheet.Default()[:300], 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(pub, "bad.xsl"), []byte("<<"), 0o644))
	sitemap := filepath.Join(pub, "sitemap.xml")
	convert := func(href string, more ...string) string {
		t.Helper()
		_, errOut, status := runCLI(t, nil, append([]string{in, "-o", sitemap, "--base-url", "https://a.example/", "--stylesheet", href}, more...)...)
		require.Equal(t, exitOK, status, errOut)
		return errOut
	}
	for href, want := range map[string]string{
		"/sitemap.xsl":                  filepath.Join(pub, "sitemap.xsl") + " does not exist yet; browsers show a blank page instead of sitemap.xml until https://a.example/sitemap.xsl is an XSL stylesheet (feed2sitemap stylesheet -o " + filepath.Join(pub, "sitemap.xsl") + " writes the default one)",
		"page.xsl":                      filepath.Join(pub, "page.xsl") + " is not an XSL stylesheet (its root element is <html>, not xsl:stylesheet)",
		"https://a.example/cut.xsl?v=2": filepath.Join(pub, "cut.xsl") + " holds no complete XML element",
		"bad.xsl":                       filepath.Join(pub, "bad.xsl") + " is not well-formed XML (line 1: ",
		"/sitemap.xml":                  "names the sitemap itself",
		"/assets/sitemap.css":           "a .css file cannot be an XSL stylesheet",
	} {
		assert.Contains(t, convert(href), "feed2sitemap: warning: --stylesheet "+href, href)
		assert.Contains(t, convert(href), want, href)
		assert.NotContains(t, convert(href, "-q"), "warning", href)
	}
	_, errOut, status := runCLI(t, nil, "stylesheet", "-o", filepath.Join(pub, "sitemap.xsl"))
	require.Equal(t, exitOK, status, errOut)
	assert.NotContains(t, convert("/sitemap.xsl"), "warning")
	_, errOut, status = runCLI(t, nil, in, "--stylesheet", "/missing.xsl")
	require.Equal(t, exitOK, status, errOut)
	assert.NotContains(t, errOut, "warning", "no sitemap file: nothing to check")
}
