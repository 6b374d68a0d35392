package robotsfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/golden"
	"github.com/feed2sitemap/feed2sitemap/robotsfile"
)

// updateCases are robots.txt files, made up or from the corpus, and the
// sitemaps declared in them; testdata/golden holds the results.
var updateCases = []struct {
	name, in string
	sitemaps []string
}{
	// The odd-case line of the same URL is replaced in place, CRLF kept;
	// the other tool's sitemap in the same directory stays.
	{"crlf-odd-case-groups", "testdata/in/crlf-odd-case-groups.txt", []string{"https://example.com/sitemap.xml.gz"}},
	// Nothing matches: appended after a blank line, the last line ended.
	{"no-final-newline", "testdata/in/no-final-newline.txt", []string{"https://example.com/sitemap.xml"}},
	// The first line, after the byte order mark, is replaced; the mark stays.
	{"bom-sitemap-first-line", "testdata/in/bom-sitemap-first-line.txt", []string{"https://example.com/sitemap.xml"}},
	// Parts listed one by one give way to the index; other sitemaps stay.
	{"split-parts-listed", "testdata/in/split-parts-listed.txt", []string{"https://example.com/maps/sitemap.xml.gz"}},
	// A single sitemap becomes an index and the parts of a text set.
	{"cr-only", "testdata/in/cr-only.txt", []string{"http://example.com/sitemap.xml", "http://example.com/sitemap-1-89abcdef.txt"}},
	{"empty", "testdata/in/empty.txt", []string{"https://example.com/sitemap.xml"}},
	{"ends-with-blank-line", "testdata/in/ends-with-blank-line.txt", []string{"https://example.com/a/sitemap.xml", "https://example.com/b/sitemap.xml"}},
	// Real files from other projects' test suites.
	{"corpus-bom", "../testdata/corpus/crawlercommons__robots-with-utf8-bom.txt", []string{"https://www.newsweek.com/sitemap.xml"}},
	{"corpus-bom-same-url", "../testdata/corpus/crawlercommons__robots-with-utf8-bom.txt", []string{"http://www.newsweek.com/sitemap_index.xml.gz"}},
	{"corpus-relative", "../testdata/corpus/crawlercommons__relative-sitemap-robots.txt", []string{"https://example.com/sitemap.xml"}},
	{"corpus-anywhere", "../testdata/corpus/crawlercommons__sitemap-robots.txt", []string{"http://domain.com/sitemap-index.xml", "http://domain.com/dir/MixedCased-sitemap.xml"}},
	{"corpus-anywhere-dir", "../testdata/corpus/crawlercommons__sitemap-robots.txt", []string{"http://domain.com/dir/sitemap.xml"}},
}

func TestUpdate(t *testing.T) {
	for _, tc := range updateCases {
		t.Run(tc.name, func(t *testing.T) {
			src, err := os.ReadFile(tc.in)
			require.NoError(t, err)
			out, changed, err := robotsfile.Update(src, tc.sitemaps)
			require.NoError(t, err)
			assert.Equal(t, !bytes.Equal(src, out), changed)
			golden.Check(t, filepath.Join("testdata", "golden", tc.name+".txt"), out)

			again, changed, err := robotsfile.Update(out, tc.sitemaps)
			require.NoError(t, err)
			assert.False(t, changed, "a second update changes nothing")
			assert.Equal(t, string(out), string(again))
			assert.Equal(t, keptLines(src), keptLines(out), "lines outside the set are kept, byte for byte, in order")
		})
	}
}

// keptLines returns the lines of src that are not Sitemap: lines, without
// their endings (the golden files pin those) and without the blank lines
// that end the file (an append adds one): what Update must keep, in order.
func keptLines(src []byte) []string {
	var kept []string
	for _, l := range eol.Split(string(src), -1) {
		name, _, _ := strings.Cut(strings.TrimPrefix(l, "\ufeff"), ":")
		if !strings.EqualFold(strings.TrimSpace(name), "sitemap") {
			kept = append(kept, l)
		}
	}
	for len(kept) > 0 && kept[len(kept)-1] == "" {
		kept = kept[:len(kept)-1]
	}
	return kept
}

var eol = regexp.MustCompile(`\r\n|\r|\n`)

func TestUpdateUnchanged(t *testing.T) {
	// The set's lines already say it all: the file is left as it is, odd
	// case and spacing included.
	src := []byte("User-agent: *\nSITEMAP:https://example.com/sitemap.xml   # ours\n")
	out, changed, err := robotsfile.Update(src, []string{"https://example.com/sitemap.xml"})
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Equal(t, string(src), string(out))

	// Same URLs in another order: rewritten in the order given.
	src = []byte("Sitemap: https://example.com/b.xml\nSitemap: https://example.com/a.xml\n")
	out, changed, err = robotsfile.Update(src, []string{"https://example.com/a.xml", "https://example.com/b.xml"})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Equal(t, "Sitemap: https://example.com/a.xml\nSitemap: https://example.com/b.xml\n", string(out))
}

func TestUpdateMatching(t *testing.T) {
	set := []string{"https://example.com/maps/sitemap.xml"}
	for _, tc := range []struct {
		line    string
		belongs bool
	}{
		{"Sitemap: https://example.com/maps/sitemap.xml", true},
		{"Sitemap: HTTPS://EXAMPLE.COM:443/maps/sitemap.xml", true},
		{"Sitemap: https://example.com/maps/./sitemap.xml", true},
		{"Sitemap: https://example.com/maps/sitemap.xml.gz", true},
		{"Sitemap: https://example.com/maps/sitemap.txt", true},
		{"Sitemap: https://example.com/maps/Sitemap.XML", true},
		{"Sitemap: https://example.com/maps/sitemap-12-deadbeef.xml.gz", true},
		{"Sitemap: /maps/sitemap-1-00000000.xml", true},
		{"Sitemap: https://example.com/maps/sitemap-news.xml", false},
		{"Sitemap: https://example.com/maps/sitemap-1-xyz.xml", false},
		{"Sitemap: https://example.com/maps/sub/sitemap.xml", false},
		{"Sitemap: https://example.com/sitemap.xml", false},
		{"Sitemap: http://example.com/maps/sitemap.xml", false},
		{"Sitemap: https://www.example.com/maps/sitemap.xml", false},
		{"Sitemap: https://example.com/maps/sitemap.xml?v=2", false},
		{"Sitemap: not a url", false},
		{"# Sitemap: https://example.com/maps/sitemap.xml", false},
		{"Sitemaps: https://example.com/maps/sitemap.xml", false},
		{"Disallow: https://example.com/maps/sitemap.xml", false},
	} {
		out, _, err := robotsfile.Update([]byte(tc.line+"\n"), set)
		require.NoError(t, err)
		replaced := string(out) == "Sitemap: https://example.com/maps/sitemap.xml\n"
		assert.Equal(t, tc.belongs, replaced, "%s\n%s", tc.line, out)
	}
}

func TestUpdateBadSitemaps(t *testing.T) {
	for _, bad := range [][]string{
		nil,
		{"/sitemap.xml"},
		{"ftp://example.com/sitemap.xml"},
		{"https://example.com/sitemap.xml#x"},
		{"https://example.com/a b.xml"},
		{"HTTPS://example.com/sitemap.xml"},
		{"https://example.com/sitemap.xml\nUser-agent: *"},
	} {
		_, _, err := robotsfile.Update(nil, bad)
		assert.Error(t, err, "%q", bad)
		_, err = robotsfile.Lines(bad)
		assert.Error(t, err, "%q", bad)
	}
}

func TestLines(t *testing.T) {
	b, err := robotsfile.Lines([]string{"https://example.com/sitemap.xml", "https://example.com/news.xml.gz"})
	require.NoError(t, err)
	assert.Equal(t, "Sitemap: https://example.com/sitemap.xml\nSitemap: https://example.com/news.xml.gz\n", string(b))
}

func TestUpdateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "robots.txt")
	require.NoError(t, os.WriteFile(path, []byte("User-agent: *\r\nDisallow:"), 0o640))
	set := []string{"https://example.com/sitemap.xml"}

	changed, err := robotsfile.UpdateFile(path, set)
	require.NoError(t, err)
	assert.True(t, changed)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "User-agent: *\r\nDisallow:\r\n\r\nSitemap: https://example.com/sitemap.xml\r\n", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the file keeps its mode")
	before := fi.ModTime()

	changed, err = robotsfile.UpdateFile(path, set)
	require.NoError(t, err)
	assert.False(t, changed)
	fi, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, before, fi.ModTime(), "an unchanged file is not rewritten")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left")

	// A missing file is created with the lines alone.
	fresh := filepath.Join(dir, "new", "robots.txt")
	require.NoError(t, os.Mkdir(filepath.Dir(fresh), 0o755))
	changed, err = robotsfile.UpdateFile(fresh, set)
	require.NoError(t, err)
	assert.True(t, changed)
	got, err = os.ReadFile(fresh)
	require.NoError(t, err)
	assert.Equal(t, "Sitemap: https://example.com/sitemap.xml\n", string(got))
}

func TestUpdateFileErrors(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("# comment\n"), robotsfile.MaxSize/10+1), 0o644))
	_, err := robotsfile.UpdateFile(big, []string{"https://example.com/sitemap.xml"})
	require.ErrorIs(t, err, robotsfile.ErrTooLarge)
	assert.Contains(t, err.Error(), big)

	_, err = robotsfile.UpdateFile(dir, []string{"https://example.com/sitemap.xml"})
	assert.Error(t, err, "a directory")

	if runtime.GOOS != "windows" && os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		require.NoError(t, os.Mkdir(ro, 0o555))
		_, err = robotsfile.UpdateFile(filepath.Join(ro, "robots.txt"), []string{"https://example.com/sitemap.xml"})
		assert.Error(t, err, "a directory that cannot be written")
	}
}

// TestUpdateCaseChangesLength updates with a sitemap whose name changes
// length in bytes when lower-cased (İ is 2 bytes, i̇ 3): no panic, and the
// line is written.
func TestUpdateCaseChangesLength(t *testing.T) {
	loc := "https://example.com/%C4%B0%C4%B0%C4%B0%C4%B0%C4%B0.xml"
	out, changed, err := robotsfile.Update([]byte("User-agent: *\nDisallow:\n"), []string{loc})
	require.NoError(t, err)
	assert.True(t, changed)
	assert.Contains(t, string(out), "Sitemap: "+loc+"\n")
}
