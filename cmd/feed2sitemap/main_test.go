package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

const example = "../../testdata/example/blog.rss"

func TestExample(t *testing.T) {
	out, errOut, status := runCLI(t, nil, example)
	require.Equal(t, exitOK, status, errOut)
	conformance.ValidateXML(t, []byte(out))
	golden.Check(t, "../../testdata/example/sitemap.xml", []byte(out))
	assert.Equal(t, "feed2sitemap: warning: "+example+`:41: item 6 ("An item with no link at all") has no link`+"\n"+
		"feed2sitemap: read 6 entries from 1 input (1 invalid, 1 warning), merged 1 duplicate, wrote 5 to standard output\n", errOut)

	out, _, status = runCLI(t, nil, "convert", example, "--to", "text", "-q")
	require.Equal(t, exitOK, status)
	golden.Check(t, "../../testdata/example/sitemap.txt", []byte(out))
}

func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	_, errOut, status := runCLI(t, nil, example, "-o", out)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, "wrote 5 to "+out)
	want, err := os.ReadFile("../../testdata/example/sitemap.xml")
	require.NoError(t, err)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	fi, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())

	// A failing run leaves the existing file as it was and no temporary
	// file behind.
	html := filepath.Join(dir, "page.html")
	require.NoError(t, os.WriteFile(html, []byte("<!DOCTYPE html><html></html>"), 0o644))
	_, errOut, status = runCLI(t, nil, example, html, "-o", out)
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "feed2sitemap: error: "+html+": formats: not a sitemap or feed (looks like HTML)")
	got, err = os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "the old sitemap is untouched")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file left: %v", entries)

	// No file is created for a failing run either.
	_, _, status = runCLI(t, nil, html, "-o", filepath.Join(dir, "new.xml"))
	assert.Equal(t, exitFail, status)
	assert.NoFileExists(t, filepath.Join(dir, "new.xml"))
}

func TestOutputFormatFromName(t *testing.T) {
	dir := t.TempDir()
	for name, check := range map[string]func(t *testing.T, b []byte){
		"urls.txt": func(t *testing.T, b []byte) {
			assert.True(t, strings.HasPrefix(string(b), "https://blog.example.com/"))
		},
		"sitemap.xml.gz": func(t *testing.T, b []byte) {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			require.NoError(t, err, "content and name agree")
			doc, err := io.ReadAll(zr)
			require.NoError(t, err)
			assert.Contains(t, string(doc), "<urlset")
		},
		"urls.txt.gz": func(t *testing.T, b []byte) {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			require.NoError(t, err)
			doc, err := io.ReadAll(zr)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(doc), "https://"))
		},
		"sitemap": func(t *testing.T, b []byte) {
			assert.Contains(t, string(b), "<urlset", "no extension: xml")
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name)
			_, errOut, status := runCLI(t, nil, example, "-q", "-o", path)
			require.Equal(t, exitOK, status, errOut)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			check(t, b)
		})
	}
}

func TestStdin(t *testing.T) {
	out, errOut, status := runCLI(t, strings.NewReader("https://a.example/1\nhttps://a.example/2\n"), "-", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "https://a.example/1\nhttps://a.example/2\n", out)
	assert.Empty(t, errOut, "quiet when all is well and standard error is not a terminal")
	_, errOut, status = runCLIAtTerminal(t, strings.NewReader("https://a.example/1\nhttps://a.example/2\n"), "-", "--to", "text")
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "feed2sitemap: read 2 entries from 1 input, wrote 2 to standard output\n", errOut)
}

func TestUsageErrors(t *testing.T) {
	for name, args := range map[string][]string{
		"unknown flag":       {example, "--bogus"},
		"unknown --to":       {example, "--to", "pdf"},
		"unknown --from":     {example, "--from", "pdf"},
		"stdin twice":        {"-", "-"},
		"quiet and verbose":  {example, "-q", "-v"},
		"write-only reading": {example, "--to", "robots"},
	} {
		t.Run(name, func(t *testing.T) {
			out, errOut, status := runCLI(t, nil, args...)
			assert.Equal(t, exitUsage, status, errOut)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "feed2sitemap: error: ")
		})
	}
}

func TestFailures(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	require.NoError(t, os.WriteFile(bad, []byte("https://a.example/\nnot a url\n"), 0o644))
	_, errOut, status := runCLI(t, nil, bad, "--strict", "-q")
	assert.Equal(t, exitFail, status)
	assert.Equal(t, "feed2sitemap: error: "+bad+`:2:1: relative URL with no http(s) base to resolve it against: "not a url"`+"\n", errOut)

	_, errOut, status = runCLI(t, nil, filepath.Join(dir, "missing.xml"))
	assert.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "no such file or directory")
}

func TestWarningsAreCapped(t *testing.T) {
	var in strings.Builder
	for range 25 {
		in.WriteString("https://a.example/\nbad\n")
	}
	_, errOut, status := runCLI(t, strings.NewReader(in.String()), "-", "--to", "text")
	require.Equal(t, exitOK, status)
	assert.Equal(t, 10, strings.Count(errOut, "warning:"))
	assert.Contains(t, errOut, "feed2sitemap: 15 more warnings not shown (-v shows all)\n")
	assert.Contains(t, errOut, "read 25 entries from 1 input (25 invalid, 25 warnings), merged 24 duplicates, wrote 1 to standard output")

	_, errOut, _ = runCLI(t, strings.NewReader(in.String()), "-", "--to", "text", "-v")
	assert.Equal(t, 25, strings.Count(errOut, "warning:"))
	assert.Contains(t, errOut, "feed2sitemap:   <stdin> (text): 25 read, 25 invalid, 24 duplicates, 1 written, 25 warnings\n")
	assert.Contains(t, errOut, "feed2sitemap: dropped https://a.example/ (<stdin>: duplicate, merged into the entry from <stdin>)\n")

	_, errOut, _ = runCLI(t, strings.NewReader(in.String()), "-", "--to", "text", "-q")
	assert.Empty(t, errOut)
}

func TestFormatsHelpVersion(t *testing.T) {
	out, _, status := runCLI(t, nil, "formats")
	require.Equal(t, exitOK, status)
	for _, name := range []string{"feed", "robots", "text", "xml"} {
		assert.Regexp(t, "(?m)^"+name+" ", out)
	}
	out, _, status = runCLI(t, nil, "--help")
	require.Equal(t, exitOK, status)
	assert.Contains(t, out, "feed2sitemap blog.rss -o sitemap.xml")
	out, _, status = runCLI(t, nil, "help", "convert")
	require.Equal(t, exitOK, status)
	assert.Contains(t, out, "--keep-duplicates")
	out, _, status = runCLI(t, nil, "--version")
	require.Equal(t, exitOK, status)
	assert.True(t, strings.HasPrefix(out, "feed2sitemap "))
}

// panicFormat is a registered reader that panics, standing for a bug.
var panicFormat = formats.Register(&formats.Format{
	Name:        "test-panic",
	Description: "a reader that panics (tests only)",
	Detect:      func([]byte) bool { return false },
	NewReader: func(io.Reader, formats.ReadOptions) formats.Reader {
		panic("reader bug")
	},
})

func TestPanicIsAnErrorNotATrace(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	_, errOut, status := runCLI(t, strings.NewReader("x\n"), "-", "--from", panicFormat.Name, "-o", out)
	assert.Equal(t, exitFail, status)
	assert.Equal(t, "feed2sitemap: internal error: reader bug\nfeed2sitemap: this is a bug; please report it with the input that caused it\n", errOut)
	assert.NoFileExists(t, out)
}

func urlList(n int) string {
	var in strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "https://a.example/%d\n", i)
	}
	return in.String()
}

func TestOverLimitOnStandardOutput(t *testing.T) {
	in := urlList(50001)
	_, errOut, status := runCLI(t, strings.NewReader(in), "-")
	require.Equal(t, exitOK, status)
	assert.Contains(t, errOut, "feed2sitemap: warning: standard output holds 50001 entries and ")
	assert.Contains(t, errOut, "over the protocol's limit of 50000 per file or 52428800 bytes uncompressed")

	_, errOut, status = runCLI(t, strings.NewReader(in[:len(in)-len("https://a.example/50000\n")]), "-")
	require.Equal(t, exitOK, status)
	assert.NotContains(t, errOut, "warning", "50,000 entries are within the limit")
}

func TestSplit(t *testing.T) {
	in := urlList(120000)
	dir := t.TempDir()
	out := filepath.Join(dir, "sitemap.xml")
	_, errOut, status := runCLI(t, strings.NewReader(in), "-", "-o", out)
	require.Equal(t, exitFail, status)
	assert.Contains(t, errOut, "give the base URL (--base-url")
	assert.NoFileExists(t, out)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing is left behind")

	// The protocol's scope rule: a sitemap under /maps/ covers only /maps/.
	_, errOut, status = runCLI(t, strings.NewReader(in), "-", "-o", out, "--base-url", "https://a.example/maps")
	require.Equal(t, exitFail, status, errOut)
	assert.Contains(t, errOut, "all 120000 entries were filtered out (scope 120000)")
	assert.Contains(t, errOut, "--allow-cross-host")

	_, errOut, status = runCLIAtTerminal(t, strings.NewReader(in), "-", "-o", out, "--base-url", "https://a.example/maps", "--allow-cross-host")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, "wrote 120000 to "+out+", an index of 3 parts\n")
	index, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, 3, strings.Count(string(index), "<sitemap><loc>https://a.example/maps/sitemap-"))
	parts, err := filepath.Glob(filepath.Join(dir, "sitemap-*.xml"))
	require.NoError(t, err)
	assert.Len(t, parts, 3)

	_, errOut, status = runCLIAtTerminal(t, strings.NewReader(in), "-", "-o", out, "--base-url", "https://a.example/", "--gzip", "--max-urls", "40000")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, "wrote 120000 to "+out+".gz, an index of 3 parts\n")
	parts, err = filepath.Glob(filepath.Join(dir, "sitemap-*.xml.gz"))
	require.NoError(t, err)
	assert.Len(t, parts, 3)
}

func TestOutputFlagErrors(t *testing.T) {
	x := filepath.Join(t.TempDir(), "x.xml")
	for _, args := range [][]string{
		{"--base-url", "https://a.example/"},
		{"--max-urls", "10"},
		{"-o", x, "--max-urls", "0"},
		{"-o", x, "--max-urls", "50001"},
		{"-o", x, "--max-bytes", "52428801"},
		{"-o", x, "--base-url", "/relative/"},
		{"-o", x, "--base-url", "https://a.example/?q=1"},
	} {
		_, errOut, status := runCLI(t, strings.NewReader("https://a.example/\n"), append([]string{"-"}, args...)...)
		assert.Equal(t, exitUsage, status, "%v: %s", args, errOut)
	}
	assert.NoFileExists(t, x)
}
