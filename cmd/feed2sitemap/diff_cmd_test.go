package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diffSets returns the paths of an old and a new sitemap that differ in
// every way diff reports (docs/behaviour.md shows them too).
func diffSets(t *testing.T) (string, string) {
	t.Helper()
	return filepath.Join("..", "..", "testdata", "diff", "old.xml"), filepath.Join("..", "..", "testdata", "diff", "new.xml")
}

func TestDiffText(t *testing.T) {
	o, n := diffSets(t)
	out, errOut, status := runCLI(t, nil, "diff", o, n)
	assert.Equal(t, exitFail, status, "sets that differ: status 1")
	assert.Empty(t, errOut, "a difference is no error")
	assert.Equal(t, `~ https://example.com:443/ lastmod 2026-01-01 -> 2026-02-01
~ https://example.com/freq changefreq daily -> weekly; priority 0.5 -> (none)
- https://example.com/gone
+ https://example.com/new
~ https://example.com/pics images 1 -> 2
`, out)

	out, errOut, status = runCLI(t, nil, "diff", o, o)
	assert.Equal(t, exitOK, status, errOut)
	assert.Empty(t, out)
}

func TestDiffSelectsKinds(t *testing.T) {
	o, n := diffSets(t)
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--added"}, "+ https://example.com/new\n"},
		{[]string{"--removed"}, "- https://example.com/gone\n"},
		{[]string{"--added", "--removed"}, "- https://example.com/gone\n+ https://example.com/new\n"},
		{[]string{"--changed"}, "~ https://example.com:443/ lastmod 2026-01-01 -> 2026-02-01\n" +
			"~ https://example.com/freq changefreq daily -> weekly; priority 0.5 -> (none)\n" +
			"~ https://example.com/pics images 1 -> 2\n"},
	} {
		out, errOut, status := runCLI(t, nil, append([]string{"diff", o, n}, c.flags...)...)
		assert.Equal(t, exitFail, status, errOut)
		assert.Equal(t, c.want, out, c.flags)
	}
	// Nothing of the kinds shown: the same, for the exit status.
	o2 := filepath.Join(t.TempDir(), "more.txt")
	require.NoError(t, os.WriteFile(o2, []byte("https://example.com/a\nhttps://example.com/b\n"), 0o644))
	n2 := filepath.Join(t.TempDir(), "less.txt")
	require.NoError(t, os.WriteFile(n2, []byte("https://example.com/a\n"), 0o644))
	out, _, status := runCLI(t, nil, "diff", o2, n2, "--added")
	assert.Equal(t, exitOK, status)
	assert.Empty(t, out)
}

func TestDiffJSON(t *testing.T) {
	o, n := diffSets(t)
	out, errOut, status := runCLI(t, nil, "diff", o, n, "--format", "json")
	require.Equal(t, exitFail, status, errOut)
	var doc struct {
		Changes []struct {
			Change, Loc string
			Fields      []struct{ Name, Old, New string }
		}
		Counts struct{ Added, Removed, Changed, Same int }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	assert.Len(t, doc.Changes, 5)
	assert.Equal(t, "changed", doc.Changes[1].Change)
	assert.Equal(t, "https://example.com/freq", doc.Changes[1].Loc)
	assert.Equal(t, []struct{ Name, Old, New string }{{"changefreq", "daily", "weekly"}, {"priority", "0.5", ""}}, doc.Changes[1].Fields)
	assert.Equal(t, struct{ Added, Removed, Changed, Same int }{1, 1, 3, 1}, doc.Counts)

	out, _, status = runCLI(t, nil, "diff", o, o, "--format", "json")
	assert.Equal(t, exitOK, status)
	assert.JSONEq(t, `{"changes": [], "counts": {"added": 0, "removed": 0, "changed": 0, "same": 5}}`, out)

	out, _, status = runCLI(t, nil, "diff", o, n, "--format", "jsonl", "--removed", "--added")
	assert.Equal(t, exitFail, status)
	assert.Equal(t, `{"change":"removed","loc":"https://example.com/gone"}`+"\n"+
		`{"change":"added","loc":"https://example.com/new"}`+"\n", out)
}

func TestDiffToFormatPipesIntoSubmit(t *testing.T) {
	o, n := diffSets(t)
	out, errOut, status := runCLI(t, nil, "diff", o, n, "--added", "--changed", "--to", "text")
	assert.Equal(t, exitFail, status, errOut)
	want := "https://example.com:443/\nhttps://example.com/freq\nhttps://example.com/new\nhttps://example.com/pics\n"
	assert.Equal(t, want, out)
	// What submit would send for it.
	sent, errOut, status := runCLI(t, strings.NewReader(out), "submit", "--indexnow-key", "0123456789abcdef", "--dry-run", "--no-key-check", "-")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, sent, `"https://example.com/new"`)
	assert.Contains(t, sent, `"https://example.com/freq"`)
}

func TestDiffFollowsIndexesAndFailsOnTrouble(t *testing.T) {
	dir := t.TempDir()
	write := func(name, doc string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(doc), 0o644))
		return p
	}
	write("a.txt", "https://example.com/a\n")
	write("b.txt", "https://example.com/b\n")
	index := write("index.xml", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/a.txt</loc></sitemap>
<sitemap><loc>https://example.com/b.txt</loc></sitemap>
</sitemapindex>`)
	list := write("list.txt", "https://example.com/b\nhttps://example.com/c\n")
	out, errOut, status := runCLI(t, nil, "diff", index, list)
	assert.Equal(t, exitFail, status, errOut)
	assert.Equal(t, "- https://example.com/a\n+ https://example.com/c\n", out, "the index's sitemaps are compared, not the index")

	// A child that cannot be read would make its pages look removed: it is
	// trouble, status 2, unless --keep-going.
	broken := write("broken.xml", `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>https://example.com/a.txt</loc></sitemap>
<sitemap><loc>https://example.com/missing.txt</loc></sitemap>
</sitemapindex>`)
	_, errOut, status = runCLI(t, nil, "diff", broken, list)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "missing.txt")
	_, _, status = runCLI(t, nil, "diff", broken, list, "--keep-going")
	assert.Equal(t, exitFail, status)

	_, errOut, status = runCLI(t, nil, "diff", list, filepath.Join(dir, "nowhere.xml"))
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "nowhere.xml")
	_, _, status = runCLI(t, nil, "diff", "-", "-")
	assert.Equal(t, exitUsage, status)
}
