package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/internal/golden"
)

var mergeInputs = []string{"../../testdata/merge/news.rss", "../../testdata/merge/export.txt", "../../testdata/merge/old-sitemap.xml"}

// A feed, a URL export and an old sitemap, with overlapping URLs on two
// hosts, merge into one sitemap by the dedupe policy.
func TestMergeThreeSources(t *testing.T) {
	out, errOut, status := runCLI(t, nil, append(mergeInputs, "--strip-utm")...)
	require.Equal(t, exitOK, status, errOut)
	conformance.ValidateXML(t, []byte(out))
	golden.Check(t, "../../testdata/golden/merge/two-hosts.xml", []byte(out))
	// Duplicates count against the entry that lost: news.rss's pricing to
	// the newer one of old-sitemap.xml, old-sitemap.xml's contact (no
	// lastmod, like the export's) to the earlier input.
	assert.Equal(t, `feed2sitemap:   ../../testdata/merge/news.rss (feed): 3 read, 0 invalid, 1 duplicate, 2 written, 0 warnings
feed2sitemap:   ../../testdata/merge/export.txt (text): 7 read, 0 invalid, 6 duplicates, 1 written, 0 warnings
feed2sitemap:   ../../testdata/merge/old-sitemap.xml (xml): 5 read, 0 invalid, 1 duplicate, 4 written, 0 warnings
feed2sitemap: read 15 entries from 3 inputs, merged 8 duplicates, wrote 7 to standard output
`, errOut)

	// One host: the other is filtered, and the account says so.
	reportPath := filepath.Join(t.TempDir(), "report.json")
	out, errOut, status = runCLI(t, nil, append(mergeInputs, "--strip-utm", "--host", "example.com", "--report", reportPath, "-v")...)
	require.Equal(t, exitOK, status, errOut)
	golden.Check(t, "../../testdata/golden/merge/one-host.xml", []byte(out))
	assert.NotContains(t, out, "example.org")
	assert.Contains(t, errOut, "feed2sitemap: dropped https://blog.example.org/moved (../../testdata/merge/news.rss: not on a --host)\n")
	assert.Contains(t, errOut, "feed2sitemap: dropped https://example.com/pricing (../../testdata/merge/export.txt: duplicate, merged into the entry from ../../testdata/merge/news.rss)\n")
	assert.Contains(t, errOut, "feed2sitemap:   ../../testdata/merge/export.txt (text): 7 read, 0 invalid, 2 filtered (host 2), 4 duplicates, 1 written, 0 warnings\n")
	assert.Contains(t, errOut, "feed2sitemap: read 15 entries from 3 inputs, filtered 4, merged 6 duplicates, wrote 5 to standard output\n")

	var r report
	b, err := os.ReadFile(reportPath)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &r))
	require.Len(t, r.Inputs, 3)
	assert.Equal(t, reportInput{Name: mergeInputs[1], Format: "text", Read: 7, Filtered: map[string]int{"host": 2}, Duplicates: 4, Written: 1}, r.Inputs[1])
	assert.Equal(t, reportTotals{Read: 15, Filtered: 4, Duplicates: 6, Written: 5}, r.Totals)
	assert.Empty(t, r.Files, "written to standard output")
}

// The rewrite flags change what is written; without them the loc is kept
// as the source gave it (after the model's own clean-up), but for what
// never changes the page: the default port, the fragment, dot segments
// and an empty query.
func TestRewriteFlags(t *testing.T) {
	in := "https://Example.com:443/a/./b?utm_source=x&b=2&a=1#frag\nhttp://www.example.com/c/\n"
	out, _, status := runCLI(t, strings.NewReader(in), "-", "--to", "text")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "https://example.com/a/b?utm_source=x&b=2&a=1\nhttp://www.example.com/c/\n", out)

	out, _, status = runCLI(t, strings.NewReader(in), "-", "--to", "text", "--normalize")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "https://example.com/a/b?utm_source=x&b=2&a=1\nhttp://www.example.com/c/\n", out)

	out, _, status = runCLI(t, strings.NewReader(in), "-", "--to", "text", "--strip-utm", "--sort-query", "--https", "--no-www", "--trailing-slash", "remove")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "https://example.com/a/b?a=1&b=2\nhttps://example.com/c\n", out)
}

func TestFilterFlags(t *testing.T) {
	in := "https://e.example/blog/a\nhttps://e.example/blog/2024/b\nhttps://e.example/tag/c\nhttps://e.example/about\n"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--include", "/blog/*"}, "https://e.example/blog/a\n"},
		{[]string{"--include", "/blog/**"}, "https://e.example/blog/a\nhttps://e.example/blog/2024/b\n"},
		{[]string{"--exclude", "/tag/**", "--exclude", "/about"}, "https://e.example/blog/a\nhttps://e.example/blog/2024/b\n"},
		{[]string{"--sort", "loc"}, "https://e.example/about\nhttps://e.example/blog/2024/b\nhttps://e.example/blog/a\nhttps://e.example/tag/c\n"},
	} {
		out, errOut, status := runCLI(t, strings.NewReader(in), append([]string{"-", "--to", "text"}, tt.args...)...)
		require.Equal(t, exitOK, status, errOut)
		assert.Equal(t, tt.want, out, "%v", tt.args)
	}
	dated := "<urlset><url><loc>https://e.example/old</loc><lastmod>2020-01-01</lastmod></url>" +
		"<url><loc>https://e.example/new</loc><lastmod>2099-01-01</lastmod></url><url><loc>https://e.example/undated</loc></url></urlset>"
	out, _, status := runCLI(t, strings.NewReader(dated), "-", "--to", "text", "--since", "2024-01-01")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "https://e.example/new\n", out)
	out, _, status = runCLI(t, strings.NewReader(dated), "-", "--to", "text", "--max-age", "365d")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "https://e.example/new\nhttps://e.example/undated\n", out)
	out, _, status = runCLI(t, strings.NewReader(dated), "-", "--to", "text", "--sort", "lastmod")
	require.Equal(t, exitOK, status)
	assert.Equal(t, "https://e.example/new\nhttps://e.example/old\nhttps://e.example/undated\n", out)

	for _, bad := range [][]string{{"--since", "yesterday"}, {"--max-age", "a week"}, {"--host", "e.example/x"}, {"--sort", "size"}, {"--trailing-slash", "maybe"}} {
		_, errOut, status := runCLI(t, strings.NewReader(in), append([]string{"-"}, bad...)...)
		assert.Equal(t, exitUsage, status, "%v: %s", bad, errOut)
	}
}

// feed returns an RSS feed of the items, each "path date".
func feed(items ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>https://blog.example/</link><description>d</description>` + "\n")
	for _, it := range items {
		path, date, _ := strings.Cut(it, " ")
		d, err := time.Parse(time.DateOnly, date)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "<item><title>%s</title><link>https://blog.example/%s</link><pubDate>%s</pubDate></item>\n", path, path, d.Format(time.RFC1123Z))
	}
	b.WriteString("</channel></rss>\n")
	return b.String()
}

// dirContent returns each file of dir with its content.
func dirContent(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, d := range des {
		b, err := os.ReadFile(filepath.Join(dir, d.Name()))
		require.NoError(t, err)
		m[d.Name()] = string(b)
	}
	return m
}

// A feed holds only its latest items; with --accumulate the sitemap keeps
// every URL it ever listed, updates lastmods, and a repeated run changes
// nothing.
func TestAccumulate(t *testing.T) {
	versions := []string{
		feed("a 2024-01-01", "b 2024-01-02", "c 2024-01-03"),
		feed("b 2024-02-01", "c 2024-01-03", "d 2024-02-02"),
		feed("d 2024-02-02", "e 2024-03-01", "f 2024-03-02"),
	}
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprintf("split=%v", split), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "urls.txt")
			args := []string{"-", "-o", out, "--accumulate"}
			if split {
				out = filepath.Join(dir, "sitemap.xml")
				args = []string{"-", "-o", out, "--accumulate", "--max-urls", "2", "--base-url", "https://blog.example/"}
			}
			for _, v := range versions {
				_, errOut, status := runCLI(t, strings.NewReader(v), args...)
				require.Equal(t, exitOK, status, errOut)
			}
			got := readAll(t, dir, out)
			assert.Equal(t, []string{
				"https://blog.example/a", "https://blog.example/b", "https://blog.example/c",
				"https://blog.example/d", "https://blog.example/e", "https://blog.example/f",
			}, locsOf(got), "nothing is lost, in first-seen order")
			if !split {
				return
			}
			assert.Contains(t, strings.Join(got, "\n"), "<url><loc>https://blog.example/b</loc><lastmod>2024-02-01T00:00:00Z</lastmod></url>", "b's lastmod was updated")

			before := dirContent(t, dir)
			old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
			for name := range before {
				require.NoError(t, os.Chtimes(filepath.Join(dir, name), old, old))
			}
			_, errOut, status := runCLI(t, strings.NewReader(versions[2]), args...)
			require.Equal(t, exitOK, status, errOut)
			assert.Equal(t, before, dirContent(t, dir), "the same run again changes no byte")
			for name := range before {
				fi, err := os.Stat(filepath.Join(dir, name))
				require.NoError(t, err)
				assert.True(t, fi.ModTime().Equal(old), "%s was not rewritten", name)
			}

			// --max-age drops what is old, even from the accumulated set.
			_, errOut, status = runCLI(t, strings.NewReader(versions[2]), append(args, "--max-age", "1d")...)
			require.Equal(t, exitFail, status, "every entry is older than a day: nothing to write")
			assert.Contains(t, errOut, "all 9 entries were filtered out (max-age 9)")
		})
	}
}

// readAll returns the lines of the sitemap at path, following an index to
// its parts in dir.
func readAll(t *testing.T, dir, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if !strings.Contains(string(b), "<sitemapindex") {
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	var lines []string
	for _, line := range strings.Split(string(b), "\n") {
		if loc, ok := strings.CutPrefix(line, "<sitemap><loc>"); ok {
			loc, _, _ = strings.Cut(loc, "</loc>")
			lines = append(lines, readAll(t, dir, filepath.Join(dir, loc[strings.LastIndexByte(loc, '/')+1:]))...)
		}
	}
	return lines
}

// locsOf returns the URLs of sitemap lines, XML or text.
func locsOf(lines []string) []string {
	var locs []string
	for _, l := range lines {
		if loc, ok := strings.CutPrefix(l, "<url><loc>"); ok {
			loc, _, _ = strings.Cut(loc, "</loc>")
			locs = append(locs, loc)
		} else if strings.HasPrefix(l, "https://") {
			locs = append(locs, l)
		}
	}
	return locs
}
