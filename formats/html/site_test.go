package html_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/html"
)

// siteRead is what reading a directory gave.
type siteRead struct {
	entries  []formats.Entry
	warnings []string
	leftOut  int
	err      error
}

// locs returns the locs of the entries read.
func (s siteRead) locs() []string {
	var l []string
	for _, e := range s.entries {
		l = append(l, e.Loc)
	}
	return l
}

// entry returns the entry read of loc.
func (s siteRead) entry(t *testing.T, loc string) formats.Entry {
	t.Helper()
	for _, e := range s.entries {
		if e.Loc == loc {
			return e
		}
	}
	t.Fatalf("no entry %s among %q", loc, s.locs())
	return formats.Entry{}
}

// dates checks the lastmod of the entries read of each loc ("" for none).
func (s siteRead) dates(t *testing.T, want map[string]string) {
	t.Helper()
	for loc, date := range want {
		assert.Equal(t, date, s.entry(t, loc).LastMod.String(), loc)
	}
}

// readSite reads the directory dir served at https://example.com/ with
// opts (whose Site it sets when nil), through formats.Open.
func readSite(t *testing.T, dir string, opts html.DirOptions, open formats.OpenOptions) siteRead {
	t.Helper()
	if opts.Site == nil {
		opts.Site, _ = url.Parse("https://example.com/")
	}
	d, err := html.OpenDir(dir, opts)
	require.NoError(t, err)
	defer d.Close()
	var got siteRead
	open.Source = dir
	open.Warn = func(pe *formats.ParseError) { got.warnings = append(got.warnings, pe.Error()) }
	r, f, err := formats.Open(d, open)
	require.NoError(t, err)
	require.Equal(t, "html", f.Name)
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			got.err = err
			break
		}
		got.entries = append(got.entries, e)
	}
	got.leftOut = r.(formats.ExtraReader).LeftOut()
	return got
}

// writeSite writes the files of a site into a new temporary directory and
// returns it: name to content.
func writeSite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

// page returns a page whose head holds the given elements.
func page(head string) string {
	return "<!DOCTYPE html>\n<html><head><title>t</title>\n" + head + "\n</head><body><p>text</p></body></html>\n"
}

func TestSiteTestdata(t *testing.T) {
	got := readSite(t, "../../testdata/site", html.DirOptions{}, formats.OpenOptions{})
	require.NoError(t, got.err)
	assert.Equal(t, []string{
		"https://example.com/",
		"https://example.com/about.html",
		"https://example.com/blog/",
		"https://example.com/blog/first-post/",
		"https://example.com/blog/second-post/",
		"https://example.com/caf%C3%A9/",
		"https://example.com/docs/getting%20started.html",
		"https://example.com/fr/",
	}, got.locs(), "noindex, canonical elsewhere, 404.html, the verification file, .hidden, the link out and non-HTML files left out")
	// draft (noindex), about-copy and old.htm (canonical), 404.html,
	// the verification file.
	assert.Equal(t, 5, got.leftOut)
	assert.Equal(t, []string{
		"../../testdata/site/outside.html: symbolic link not followed: it leads out of the directory",
		"../../testdata/site/old.htm: left out: its canonical URL https://example.com/new/ is no page read from this directory (is the site's URL right, and does the site serve clean URLs?)",
	}, got.warnings)
	// Without --images, no image entries.
	for _, e := range got.entries {
		if e.Ext != nil {
			assert.Empty(t, e.Ext.Images, e.Loc)
		}
	}
	// Reciprocal: the French page forgot its links, and lists the
	// whole group all the same, itself included.
	want := []formats.Alternate{{Hreflang: "en", Href: "https://example.com/"}, {Hreflang: "fr", Href: "https://example.com/fr/"},
		{Hreflang: "x-default", Href: "https://example.com/"}}
	assert.Equal(t, want, got.entry(t, "https://example.com/fr/").Ext.Alternates)
	assert.Equal(t, want, got.entry(t, "https://example.com/").Ext.Alternates)
	// Dates: article:modified_time before JSON-LD; JSON-LD's @graph, not
	// a nested author's; published when nothing says modified.
	got.dates(t, map[string]string{
		"https://example.com/blog/first-post/":  "2024-05-03T12:30:00+02:00",
		"https://example.com/blog/second-post/": "2024-05-12T18:45:00Z",
		"https://example.com/blog/":             "2024-05-20",
		"https://example.com/about.html":        "2024-02-29T23:59:59-05:00",
		"https://example.com/":                  "2024-06-01T08:00:00Z",
		"https://example.com/fr/":               "",
	})
}

func TestSiteImages(t *testing.T) {
	got := readSite(t, "../../testdata/site", html.DirOptions{Images: true}, formats.OpenOptions{})
	require.NoError(t, got.err)
	// og:image, then the body's images resolved against the page, each
	// once; a data: URI is no image of a sitemap.
	assert.Equal(t, []formats.Image{{Loc: "https://cdn.example.com/cover.jpg"}, {Loc: "https://example.com/blog/first-post/photo.jpg"}},
		got.entry(t, "https://example.com/blog/first-post/").Ext.Images)
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/assets/logo.png"}}, got.entry(t, "https://example.com/").Ext.Images)
	assert.Nil(t, got.entry(t, "https://example.com/about.html").Ext)
}

func TestSiteCleanURLs(t *testing.T) {
	site, _ := url.Parse("https://example.com/docs") // a directory, with or without its slash
	got := readSite(t, "../../testdata/site", html.DirOptions{CleanURLs: true, Site: site}, formats.OpenOptions{})
	require.NoError(t, got.err)
	assert.Contains(t, got.locs(), "https://example.com/docs/about")
	assert.Contains(t, got.locs(), "https://example.com/docs/docs/getting%20started")
	assert.Contains(t, got.locs(), "https://example.com/docs/blog/first-post/")
	assert.NotContains(t, got.locs(), "https://example.com/docs/about.html")
}

func TestSiteNoindex(t *testing.T) {
	for _, tc := range []struct {
		meta string
		kept bool
	}{
		{`<meta name="robots" content="noindex">`, false},
		{`<META NAME="ROBOTS" CONTENT="NOINDEX">`, false},
		{`<meta name="Robots" content="nofollow, noindex">`, false},
		{`<meta name="robots" content="nofollow,NoIndex,noarchive">`, false},
		{`<meta name="robots" content="follow noindex">`, false},
		{"<meta name=\"robots\" content=\"nofollow,\nnoindex\">", false},
		{`<meta name="robots" content="none">`, false},
		{`<meta name="googlebot" content="noindex">`, false},
		{`<meta content="noindex" name="GoogleBot">`, false},
		{`<meta name="robots" content="index, follow">`, true},
		{`<meta name="robots" content="max-image-preview:large">`, true},
		{`<meta name="description" content="noindex">`, true},
		{`<meta name="bingbot" content="noindex">`, true},
	} {
		got := readSite(t, writeSite(t, map[string]string{"p.html": page(tc.meta)}), html.DirOptions{}, formats.OpenOptions{})
		require.NoError(t, got.err)
		assert.Equal(t, tc.kept, len(got.entries) == 1, tc.meta)
		assert.Equal(t, tc.kept, got.leftOut == 0, tc.meta)
	}
}

func TestSiteDates(t *testing.T) {
	dir := writeSite(t, map[string]string{
		"zoneless.html": page(`<meta property="article:modified_time" content="2024-05-06T10:00:00">`),
		"bad.html":      page(`<meta property="article:modified_time" content="yesterday"><meta property="article:published_time" content="2024-01-02">`),
		"ld.html":       page(`<script type="application/ld+json">[{"@type":"Thing"},{"dateModified":"2024-03-04T05:06:07Z"}]</script>`),
		"ldbad.html":    page(`<script type="Application/LD+JSON; charset=utf-8">{not json</script><meta property="og:updated_time" content="2024-07-08">`),
	})
	got := readSite(t, dir, html.DirOptions{}, formats.OpenOptions{})
	require.NoError(t, got.err)
	got.dates(t, map[string]string{
		"https://example.com/zoneless.html": "2024-05-06",
		"https://example.com/bad.html":      "2024-01-02",
		"https://example.com/ld.html":       "2024-03-04T05:06:07Z",
		"https://example.com/ldbad.html":    "2024-07-08",
	})
	require.Len(t, got.warnings, 2)
	assert.Contains(t, got.warnings[0], "bad.html: article:modified_time ignored")
	assert.Contains(t, got.warnings[1], `zoneless.html: article:modified_time "2024-05-06T10:00:00" has no time zone: its date kept`)
}

func TestSiteMtime(t *testing.T) {
	dir := writeSite(t, map[string]string{"a.html": page(`<meta property="article:modified_time" content="2020-01-01">`)})
	when := time.Date(2023, 4, 5, 6, 7, 8, 900, time.UTC)
	require.NoError(t, os.Chtimes(filepath.Join(dir, "a.html"), when, when))
	got := readSite(t, dir, html.DirOptions{LastMod: html.LastModMtime}, formats.OpenOptions{})
	require.NoError(t, got.err)
	assert.Equal(t, "2023-04-05T06:07:08Z", got.entries[0].LastMod.String())
	// By default, never the file's time.
	got = readSite(t, dir, html.DirOptions{}, formats.OpenOptions{})
	assert.Equal(t, "2020-01-01", got.entries[0].LastMod.String())
}

// git runs git in dir with fixed dates and identity.
func git(t *testing.T, dir, date string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date, "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %s: %s", strings.Join(args, " "), out)
}

func TestSiteGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: --lastmod-from git is not tested")
	}
	repo := writeSite(t, map[string]string{
		"public/index.html":         page(""),
		"public/blog/post.html":     page(""),
		"public/blog/a b é.html":    page(""),
		"public/untracked.html":     page(`<meta property="article:modified_time" content="2021-02-03">`),
		"src/content/post.md":       "# post",
		"public/never-changed.html": page(""),
		"public/later/index.html":   page(""),
		"public/later/renamed.html": page(""),
	})
	require.NoError(t, os.Remove(filepath.Join(repo, "public/later/renamed.html")))
	git(t, repo, "2024-01-01T00:00:00Z", "init", "-q")
	git(t, repo, "2024-01-01T00:00:00Z", "add", "public/index.html", "public/blog", "public/never-changed.html", "src")
	git(t, repo, "2024-01-02T10:00:00+02:00", "commit", "-q", "-m", "first")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "public/blog/post.html"), []byte(page("<!-- changed -->")), 0o644))
	git(t, repo, "2024-03-04T05:06:07Z", "commit", "-q", "-a", "-m", "second")
	git(t, repo, "2024-04-05T00:00:00Z", "add", "public/later")
	git(t, repo, "2024-04-05T00:00:00Z", "commit", "-q", "-m", "third")
	got := readSite(t, filepath.Join(repo, "public"), html.DirOptions{LastMod: html.LastModGit}, formats.OpenOptions{})
	require.NoError(t, got.err)
	got.dates(t, map[string]string{
		"https://example.com/":                         "2024-01-02T08:00:00Z",
		"https://example.com/blog/post.html":           "2024-03-04T05:06:07Z",
		"https://example.com/blog/a%20b%20%C3%A9.html": "2024-01-02T08:00:00Z",
		"https://example.com/never-changed.html":       "2024-01-02T08:00:00Z",
		"https://example.com/later/":                   "2024-04-05T00:00:00Z",
		"https://example.com/untracked.html":           "2021-02-03", // no commit: the page's own date
	})

	// Outside a repository: an error that says so, before any entry.
	got = readSite(t, writeSite(t, map[string]string{"a.html": page("")}), html.DirOptions{LastMod: html.LastModGit}, formats.OpenOptions{})
	require.Error(t, got.err)
	assert.Contains(t, got.err.Error(), "git log")
	assert.Empty(t, got.entries)
}

func TestSiteHostile(t *testing.T) {
	big := strings.Repeat("<p>filler text</p>\n", 1<<16) // about 1.2 MB
	dir := writeSite(t, map[string]string{
		// Read up to the end of the head only: a noindex in the body
		// is never reached (and is no robots meta of the page).
		"huge.html": page(`<meta property="og:updated_time" content="2024-01-01">`) + big + `<meta name="robots" content="noindex">`,
		// A 5 MiB attribute: read up to it.
		"token.html": "<html><head><meta property=\"article:modified_time\" content=\"2024-02-02\"><meta name=\"x\" content=\"" +
			strings.Repeat("x", 5<<20) + "\"></head></html>",
		// 200,000 nested elements, then an image.
		"nested.html": "<html><head></head><body>" + strings.Repeat("<div>", 200000) + `<img src="deep.png">` + "</body></html>",
		"binary.html": "\x00\x01\x02PNG\x00" + strings.Repeat("\x00\xff", 300),
		"empty.html":  "",
		"ok.html":     page(""),
	})
	require.NoError(t, os.Symlink("loop-b.html", filepath.Join(dir, "loop-a.html")))
	require.NoError(t, os.Symlink("loop-a.html", filepath.Join(dir, "loop-b.html")))
	require.NoError(t, os.Symlink(".", filepath.Join(dir, "self")))                 // a directory loop: not descended
	require.NoError(t, os.Symlink("ok.html", filepath.Join(dir, "inside.html")))    // within the tree: read
	require.NoError(t, os.Symlink("/etc/hostname", filepath.Join(dir, "abs.html"))) // out, by an absolute path
	got := readSite(t, dir, html.DirOptions{Images: true}, formats.OpenOptions{})
	require.NoError(t, got.err)
	assert.Equal(t, []string{"https://example.com/empty.html", "https://example.com/huge.html", "https://example.com/inside.html",
		"https://example.com/nested.html", "https://example.com/ok.html", "https://example.com/token.html"}, got.locs())
	assert.Equal(t, "2024-01-01", got.entry(t, "https://example.com/huge.html").LastMod.String())
	assert.Equal(t, "2024-02-02", got.entry(t, "https://example.com/token.html").LastMod.String())
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/deep.png"}}, got.entry(t, "https://example.com/nested.html").Ext.Images)
	joined := strings.Join(got.warnings, "\n")
	for _, w := range []string{"abs.html: symbolic link not followed: it leads out of the directory", "binary.html: binary data",
		"loop-a.html: symbolic link not followed", "loop-b.html: symbolic link not followed", "token.html: a tag or script longer than 4 MiB"} {
		assert.Contains(t, joined, w)
	}
	assert.Len(t, got.warnings, 5, joined)

	// The cap on a page's size (--max-input-bytes): what was read before
	// it is kept, with a warning.
	got = readSite(t, dir, html.DirOptions{Images: true}, formats.OpenOptions{MaxBytes: 4096})
	require.NoError(t, got.err)
	assert.Equal(t, "2024-01-01", got.entry(t, "https://example.com/huge.html").LastMod.String())
	assert.Contains(t, strings.Join(got.warnings, "\n"), "huge.html: formats: input too large")

	// Strict: the first warning is the reading's error.
	got = readSite(t, dir, html.DirOptions{}, formats.OpenOptions{ReadOptions: formats.ReadOptions{Strict: true}})
	var pe *formats.ParseError
	require.True(t, errors.As(got.err, &pe), "%v", got.err)
	assert.Equal(t, filepath.Join(dir, "abs.html"), pe.Source)
	assert.Empty(t, got.entries)
}

func TestOpenDirErrors(t *testing.T) {
	_, err := html.OpenDir("../../testdata/site", html.DirOptions{})
	assert.ErrorIs(t, err, formats.ErrNoSiteURL)
	for _, bad := range []string{"example.com", "ftp://example.com/", "https://example.com/?a=1", "https://example.com/#top", "/site/"} {
		u, _ := url.Parse(bad)
		_, err := html.OpenDir("../../testdata/site", html.DirOptions{Site: u})
		assert.Error(t, err, bad)
	}
	site, _ := url.Parse("https://example.com/")
	d, err := html.OpenDir("../../testdata/site", html.DirOptions{Site: site})
	require.NoError(t, err)
	defer d.Close()
	_, _, err = formats.Open(d, formats.OpenOptions{From: "xml"})
	assert.ErrorContains(t, err, `a directory, which format "xml" does not read`)
	_, err = io.ReadAll(d)
	assert.Error(t, err, "a directory read as content")
	_, err = html.OpenDir(filepath.Join(t.TempDir(), "missing"), html.DirOptions{Site: site})
	assert.Error(t, err)
}

// A page whose canonical link names itself, in another form, is kept.
func TestSiteCanonicalSelf(t *testing.T) {
	dir := writeSite(t, map[string]string{
		"a/index.html": page(`<link rel="canonical" href="HTTPS://EXAMPLE.COM/a/#top">`),
		"b.html":       page(`<link rel="canonical" href="b.html">`),
		"c.html":       page(`<base href="https://example.com/a/"><link rel="Canonical" href="../c.html">`),
	})
	got := readSite(t, dir, html.DirOptions{}, formats.OpenOptions{})
	require.NoError(t, got.err)
	assert.Equal(t, []string{"https://example.com/a/", "https://example.com/b.html", "https://example.com/c.html"}, got.locs())
	assert.Zero(t, got.leftOut)
	assert.Empty(t, got.warnings)
}

// Every group of pages that name each other as alternates, however they
// forgot links, ends up listing the whole group on each page.
func TestSiteReciprocalGroups(t *testing.T) {
	alt := func(lang, href string) string {
		return fmt.Sprintf(`<link rel="alternate" hreflang="%s" href="%s">`, lang, href)
	}
	dir := writeSite(t, map[string]string{
		"en/a.html": page(alt("en", "/en/a.html") + alt("de", "/de/a.html")),
		"de/a.html": page(alt("fr", "/fr/a.html")), // forgot itself and en: joined through fr and en
		"fr/a.html": page(""),                      // no links at all: named by de
		"en/b.html": page(alt("EN", "/en/b.html") + // a group of one, not merged with a's
			alt("en_US", "/us/b.html") + alt("", "/none/b.html") + alt("fr", "mailto:x@example.com")), // no language tag, no hreflang, no page URL
	})
	got := readSite(t, dir, html.DirOptions{}, formats.OpenOptions{})
	require.NoError(t, got.err)
	require.Len(t, got.warnings, 2, "%q", got.warnings)
	assert.Contains(t, got.warnings[0], `b.html: hreflang "en_US" alternate ignored: not a language tag`)
	assert.Contains(t, got.warnings[1], `b.html: hreflang "fr" alternate ignored:`)
	var b bytes.Buffer
	for _, e := range got.entries {
		fmt.Fprintln(&b, e.Loc)
		if e.Ext != nil {
			for _, a := range e.Ext.Alternates {
				fmt.Fprintln(&b, " ", a.Hreflang, a.Href)
			}
		}
	}
	group := "  fr https://example.com/fr/a.html\n  en https://example.com/en/a.html\n  de https://example.com/de/a.html\n"
	assert.Equal(t, "https://example.com/de/a.html\n"+group+"https://example.com/en/a.html\n"+group+
		"https://example.com/en/b.html\n  EN https://example.com/en/b.html\nhttps://example.com/fr/a.html\n"+group, b.String())
}

// A page in another charset than UTF-8 is decoded from the one its head
// declares (<meta charset>, <meta http-equiv="Content-Type">): its
// canonical link to itself, its alternates and its images are read as
// written, not as windows-1252.
func TestSiteCharsets(t *testing.T) {
	encode := func(enc encoding.Encoding, s string) string {
		b, err := enc.NewEncoder().String(s)
		require.NoError(t, err)
		return b
	}
	dir := writeSite(t, map[string]string{
		"日本/index.html": encode(japanese.ShiftJIS, page(`<meta charset="Shift_JIS"><link rel="canonical" href="/日本/">`+
			`<link rel="alternate" hreflang="ja-JP" href="/日本/"><link rel="alternate" hreflang="pt-BR" href="/s%C3%A3o/">`+
			`<meta property="og:image" content="画像.png">`)),
		"são/index.html": encode(charmap.Windows1252, page(`<meta charset="windows-1252"><link rel="canonical" href="/são/">`+
			`<link rel="alternate" hreflang="pt-br" href="/são/"><meta property="og:image" content="/são.png">`)),
		"euro.html": encode(charmap.ISO8859_15, page(`<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">`+
			`<base href="/prix/"><meta property="og:image" content="€.png">`)),
	})
	got := readSite(t, dir, html.DirOptions{Images: true}, formats.OpenOptions{})
	require.NoError(t, got.err)
	assert.Equal(t, []string{"https://example.com/%E6%97%A5%E6%9C%AC/", "https://example.com/euro.html", "https://example.com/s%C3%A3o/"}, got.locs())
	assert.Zero(t, got.leftOut)
	// A windows-1252 page is read as one, declared or not (with a note
	// when not UTF-8, as an undeclared page is).
	for _, w := range got.warnings {
		assert.Contains(t, w, filepath.Join("são", "index.html"))
	}
	ja := got.entry(t, "https://example.com/%E6%97%A5%E6%9C%AC/")
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/%E6%97%A5%E6%9C%AC/%E7%94%BB%E5%83%8F.png"}}, ja.Ext.Images)
	group := []formats.Alternate{{Hreflang: "ja-JP", Href: "https://example.com/%E6%97%A5%E6%9C%AC/"},
		{Hreflang: "pt-BR", Href: "https://example.com/s%C3%A3o/"}}
	assert.Equal(t, group, ja.Ext.Alternates)
	pt := got.entry(t, "https://example.com/s%C3%A3o/")
	assert.Equal(t, group, pt.Ext.Alternates)
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/s%C3%A3o.png"}}, pt.Ext.Images)
	assert.Equal(t, []formats.Image{{Loc: "https://example.com/prix/%E2%82%AC.png"}}, got.entry(t, "https://example.com/euro.html").Ext.Images)
}

// A formats.Dir made by hand is read only with html.DirOptions that name
// the site: anything else is an error of the first Next, never a panic.
func TestDirMadeByHand(t *testing.T) {
	root, err := os.OpenRoot("../../testdata/site")
	require.NoError(t, err)
	defer root.Close()
	site, _ := url.Parse("https://example.com/blog")
	for _, tc := range []struct {
		opts any
		want string
	}{
		{nil, "options are a <nil>, not html.DirOptions"},
		{struct{}{}, "options are a struct {}, not html.DirOptions"},
		{html.DirOptions{}, formats.ErrNoSiteURL.Error()},
		{html.DirOptions{Site: &url.URL{Path: "/x/"}}, "not an absolute http(s) URL"},
	} {
		r, f, err := formats.Open(&formats.Dir{Root: root, Path: "site", Options: tc.opts}, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: "site"}})
		require.NoError(t, err)
		assert.Equal(t, "html", f.Name)
		_, err = r.Next()
		var pe *formats.ParseError
		require.True(t, errors.As(err, &pe), "%v", err)
		assert.Equal(t, "site", pe.Source)
		assert.ErrorContains(t, err, tc.want)
	}
	r, _, err := formats.Open(&formats.Dir{Root: root, Path: "site", Options: html.DirOptions{Site: site}}, formats.OpenOptions{})
	require.NoError(t, err)
	e, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/blog/about.html", e.Loc, "the site's path taken as a directory")
}
