package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"64KiB": 64 << 10, "32MiB": 32 << 20, "2GiB": 2 << 30, "1TiB": 1 << 40, "512M": 512 << 20, "1g": 1 << 30,
		"1000": 1000, "5B": 5, "2GB": 2e9, "3 MB": 3e6, "10kb": 10e3, " 7K ": 7 << 10,
	} {
		got, err := parseSize(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "MiB", "0", "0MiB", "-1MiB", "1.5GiB", "12 parsecs", "99999999999TiB"} {
		_, err := parseSize(in)
		assert.Error(t, err, in)
	}
}

// --max-memory small enough to spill gives the files it gives without,
// byte for byte, sorted or not; a size that is not one is a usage error.
func TestMaxMemorySpillsToSameFiles(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	var in strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&in, "https://a.example/%d\n", (i*7919)%20000)
	}
	var sm strings.Builder
	sm.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 20000 {
		fmt.Fprintf(&sm, "<url><loc>https://a.example/%d</loc><lastmod>2024-03-%02d</lastmod></url>\n", (i*31)%25000, 1+i%28)
	}
	sm.WriteString("</urlset>\n")
	dir := t.TempDir()
	sitemap := filepath.Join(dir, "in.xml")
	require.NoError(t, os.WriteFile(sitemap, []byte(sm.String()), 0o644))
	files := func(args ...string) map[string]string {
		out := filepath.Join(t.TempDir(), "sitemap.xml")
		_, errOut, status := runCLI(t, strings.NewReader(in.String()), append([]string{"-", sitemap, "-o", out, "--base-url", "https://a.example/", "--max-urls", "9000"}, args...)...)
		require.Equal(t, exitOK, status, errOut)
		got := map[string]string{}
		names, err := filepath.Glob(filepath.Join(filepath.Dir(out), "*"))
		require.NoError(t, err)
		for _, name := range names {
			b, err := os.ReadFile(name)
			require.NoError(t, err)
			got[filepath.Base(name)] = string(b)
		}
		return got
	}
	for _, order := range []string{"none", "loc", "lastmod"} {
		want := files("--sort", order)
		require.Greater(t, len(want), 3, "an index and its parts")
		assert.Equal(t, want, files("--sort", order, "--max-memory", "64KiB"), "--sort %s", order)
	}

	_, errOut, status := runCLI(t, nil, example, "--max-memory", "lots")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `--max-memory: "lots" is not a size like 512MiB, 2GiB or 64KiB`)
}

// diff --max-memory small enough to spill reports the same changes, in
// another order.
func TestDiffMaxMemorySameChanges(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, from, n int, day int) string {
		var b strings.Builder
		b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for i := from; i < from+n; i++ {
			fmt.Fprintf(&b, "<url><loc>https://a.example/%d</loc><lastmod>2024-03-%02d</lastmod></url>\n", i, 1+(i*day)%28)
		}
		b.WriteString("</urlset>\n")
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
		return path
	}
	o, n := write("old.xml", 0, 6000, 1), write("new.xml", 3000, 6000, 2)
	lines := func(args ...string) []string {
		out, errOut, status := runCLI(t, nil, append([]string{"diff", o, n, "--temp-dir", dir}, args...)...)
		require.Equal(t, exitFail, status, errOut)
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		sort.Strings(got)
		return got
	}
	want := lines()
	require.Greater(t, len(want), 6000)
	assert.Equal(t, want, lines("--max-memory", "64KiB"))
}
