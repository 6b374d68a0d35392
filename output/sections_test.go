package output_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/feed"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// sectioned returns the entries of a small site: pages at the top, a blog
// of five posts and a shop of seven products, interleaved.
func sectioned() []formats.Entry {
	var es []formats.Entry
	add := func(path string) { es = append(es, formats.Entry{Loc: "https://example.com" + path}) }
	add("/")
	for i := range 7 {
		add(fmt.Sprintf("/shop/item-%d", i))
		if i < 5 {
			add(fmt.Sprintf("/blog/post-%d/", i))
		}
	}
	add("/about")
	add("/blog/")
	return es
}

// childNames returns the base names of the children an index lists.
func childNames(t testing.TB, path string) []string {
	t.Helper()
	var ns []string
	for _, e := range readEntries(t, path) {
		require.Equal(t, formats.KindSitemap, e.Kind)
		ns = append(ns, e.Loc[strings.LastIndexByte(e.Loc, '/')+1:])
	}
	return ns
}

// pattern makes a regular expression of a file name with HASH standing
// for a part's hash.
func pattern(name string) *regexp.Regexp {
	return regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(name), "HASH", "[0-9a-f]{8}") + "$")
}

// Sections by the first directory: one child per section, in the order
// of their names; a section over --max-urls split in numbered parts; the
// entries of each in the order written; the index lists exactly them.
func TestSectionsByPath(t *testing.T) {
	dir := t.TempDir()
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 3,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)}, sectioned())
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "sitemap.xml"), s.Path())
	files := s.Files()
	want := []string{"sitemap-blog-1-HASH.xml", "sitemap-blog-2-HASH.xml", "sitemap-root-HASH.xml",
		"sitemap-shop-1-HASH.xml", "sitemap-shop-2-HASH.xml", "sitemap-shop-3-HASH.xml", "sitemap.xml"}
	require.Len(t, files, len(want))
	for i, f := range files {
		assert.Regexp(t, pattern(want[i]), filepath.Base(f.Path))
	}
	var got [][]string
	for _, f := range files[:len(files)-1] {
		got = append(got, locs(readEntries(t, f.Path)))
	}
	assert.Equal(t, [][]string{
		{"https://example.com/blog/post-0/", "https://example.com/blog/post-1/", "https://example.com/blog/post-2/"},
		{"https://example.com/blog/post-3/", "https://example.com/blog/post-4/", "https://example.com/blog/"},
		{"https://example.com/", "https://example.com/about"},
		{"https://example.com/shop/item-0", "https://example.com/shop/item-1", "https://example.com/shop/item-2"},
		{"https://example.com/shop/item-3", "https://example.com/shop/item-4", "https://example.com/shop/item-5"},
		{"https://example.com/shop/item-6"},
	}, got)
	var parts []string
	for _, f := range files[:len(files)-1] {
		parts = append(parts, filepath.Base(f.Path))
	}
	assert.Equal(t, parts, childNames(t, s.Path()))
	assert.Len(t, readSet(t, dir, s.Path()), len(sectioned()))
	assert.ElementsMatch(t, append(parts, "sitemap.xml"), names(t, dir))
	assert.EqualValues(t, len(readFile(t, s.Path())), files[len(files)-1].Bytes, "the index's size as measured")
}

// One section, and one entry: still an index, whose size is the size
// measured (the section's name without a number).
func TestOneSectionIsAnIndex(t *testing.T) {
	dir := t.TempDir()
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)}, []formats.Entry{{Loc: "https://example.com/blog/a"}})
	require.NoError(t, err)
	files := s.Files()
	require.Len(t, files, 2)
	assert.Regexp(t, pattern("sitemap-blog-HASH.xml"), filepath.Base(files[0].Path))
	assert.EqualValues(t, len(readFile(t, s.Path())), files[1].Bytes)
}

// ByPath and ByHost give the keys of the sections; SectionName their names
// in files.
func TestSectionKeysAndNames(t *testing.T) {
	for loc, want := range map[string]string{
		"https://example.com":                 "",
		"https://example.com/":                "",
		"https://example.com/about":           "",
		"https://example.com/index.html?a=/b": "",
		"https://example.com/blog":            "",
		"https://example.com/blog/":           "blog",
		"https://example.com/blog/post":       "blog",
		"https://example.com//blog/2024/post": "blog",
		"https://example.com/caf%C3%A9/menu":  "café",
		"https://example.com/a%2Fb/c":         "a/b",
		"https://example.com/bad%zz/c":        "bad%zz",
	} {
		assert.Equal(t, want, output.ByPath(1)(loc), loc)
	}
	two := output.ByPath(2)
	assert.Equal(t, "shop/shoes", two("https://example.com/shop/shoes/red"))
	assert.Equal(t, "shop", two("https://example.com/shop/bag"))
	assert.Equal(t, "", two("https://example.com/"))
	assert.Equal(t, "a/b", two("https://example.com/a/b/c/d"))
	assert.Equal(t, "a/b", two("https://example.com/a//b/c"))
	assert.Equal(t, "a/b c", two("https://example.com/a/b%20c/d"))
	assert.Equal(t, "a/b", output.ByPath(3)("https://example.com/a/b/"))
	host := output.ByHost()
	assert.Equal(t, "example.com", host("https://Example.COM/a/b"))
	assert.Equal(t, "shop.example.com:8443", host("https://user@shop.example.com:8443?x"))
	assert.Equal(t, "[2001:db8::1]:8080", host("https://[2001:DB8::1]:8080/shop/x"))
	assert.Equal(t, "[::1]", host("http://[::1]#top"))
	assert.Equal(t, "bücher.example", host("https://BÜCHER.example/a"))
	assert.Equal(t, "xn--bcher-kva.example", host("https://xn--bcher-kva.example/a"))
	assert.Equal(t, "shop", output.ByPath(1)("https://[2001:db8::1]:8080/shop/x"))
	assert.Equal(t, "a", output.ByPath(1)("https://user@example.com:8443/a/b"))
	assert.Equal(t, "blog/café", two("https://bücher.example//blog/caf%c3%a9/post"))
	assert.Equal(t, "a/b", two("https://example.com/%61/b/c"))
	assert.Equal(t, "", two("https://example.com//?a=/b/c"))

	for key, want := range map[string]string{
		"":                      "root",
		"blog":                  "blog",
		"Blog Posts":            "blog-posts",
		"café":                  "caf",
		"shop/shoes":            "shop-shoes",
		"--a//b..":              "a-b",
		"日本":                    "section",
		"example.com:8080":      "example.com-8080",
		"[2001:db8::1]:8080":    "2001-db8-1-8080",
		"bücher.example":        "b-cher.example",
		"v1.2_beta":             "v1.2_beta",
		strings.Repeat("x", 60): strings.Repeat("x", 48),
	} {
		assert.Equal(t, want, output.SectionName(key), key)
	}
}

// Keys whose names are the same get name-2, name-3 in the order of the
// keys; the root section is "root", before a directory named root.
func TestSectionNameCollisions(t *testing.T) {
	dir := t.TempDir()
	var es []formats.Entry
	for _, p := range []string{"/root/a", "/Blog/a", "/blog/a", "/blog-2/a", "/", "/BLOG/a"} {
		es = append(es, formats.Entry{Loc: "https://example.com" + p})
	}
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)}, es)
	require.NoError(t, err)
	// Keys in order: "" BLOG Blog blog blog-2 root.
	want := map[string]string{"blog": "/BLOG/a", "blog-2": "/Blog/a", "blog-3": "/blog/a", "blog-2-2": "/blog-2/a", "root": "/", "root-2": "/root/a"}
	files := s.Files()
	require.Len(t, files, len(want)+1)
	var order []string
	for _, f := range files[:len(files)-1] {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f.Path), "sitemap-"), ".xml")
		name = name[:len(name)-9]
		order = append(order, name)
		assert.Equal(t, []string{"https://example.com" + want[name]}, locs(readEntries(t, f.Path)), name)
	}
	assert.Equal(t, []string{"blog", "blog-2", "blog-2-2", "blog-3", "root", "root-2"}, order, "in the order of the names")
}

// Sections by host, gzipped: the index and each host's sitemap end in .gz.
func TestSectionsByHostGzip(t *testing.T) {
	dir := t.TempDir()
	es := []formats.Entry{{Loc: "https://example.com/a"}, {Loc: "https://shop.example.com/b"}, {Loc: "https://example.com/c"}}
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, Gzip: true,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByHost()}, es)
	require.NoError(t, err)
	files := s.Files()
	require.Len(t, files, 3)
	assert.Regexp(t, pattern("sitemap-example.com-HASH.xml.gz"), filepath.Base(files[0].Path))
	assert.Regexp(t, pattern("sitemap-shop.example.com-HASH.xml.gz"), filepath.Base(files[1].Path))
	assert.Equal(t, filepath.Join(dir, "sitemap.xml.gz"), s.Path())
	assert.Equal(t, []string{"https://example.com/a", "https://example.com/c", "https://shop.example.com/b"}, locs(readSet(t, dir, s.Path())))
}

// Each section is split at the byte limit and at 1,000 news entries, as a
// set is.
func TestSectionsSplitAtByteAndNewsLimits(t *testing.T) {
	dir := t.TempDir()
	var es []formats.Entry
	for i := range 1500 {
		e := formats.Entry{Loc: fmt.Sprintf("https://example.com/news/%d", i), Ext: &formats.Extensions{
			News: &formats.News{PublicationName: "Daily", PublicationLanguage: "en", Title: "t", PublicationDate: pages(1, true)[0].LastMod}}}
		es = append(es, e, formats.Entry{Loc: fmt.Sprintf("https://example.com/pages/%d", i)})
	}
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxBytes: 60000,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1),
		Write: formats.WriteOptions{Uses: formats.ExtNews}}, es)
	require.NoError(t, err)
	files := s.Files()
	news, other := 0, 0
	for _, f := range files[:len(files)-1] {
		name := filepath.Base(f.Path)
		assert.LessOrEqual(t, f.Bytes, int64(60000), name)
		switch {
		case strings.HasPrefix(name, "sitemap-news-"):
			news++
			assert.LessOrEqual(t, f.Entries, formats.MaxNews, name)
			assert.Regexp(t, pattern(fmt.Sprintf("sitemap-news-%d-HASH.xml", news)), name)
		default:
			other++
			assert.Regexp(t, pattern(fmt.Sprintf("sitemap-pages-%d-HASH.xml", other)), name)
		}
	}
	assert.GreaterOrEqual(t, news, 2, "1,500 news entries need two parts")
	assert.Greater(t, other, 1, "60,000 bytes hold fewer than 1,500 entries")
	assert.Len(t, readSet(t, dir, s.Path()), 3000)
}

// A text output by section: text parts, an XML index beside them.
func TestSectionsOfText(t *testing.T) {
	dir := t.TempDir()
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.txt"), Format: text.Format,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)}, sectioned())
	require.NoError(t, err)
	files := s.Files()
	require.Len(t, files, 4)
	assert.Regexp(t, pattern("sitemap-blog-HASH.txt"), filepath.Base(files[0].Path))
	assert.Equal(t, filepath.Join(dir, "sitemap.xml"), s.Path())
}

// What cannot be written by section is refused before anything is.
func TestSectionsRefused(t *testing.T) {
	dir := t.TempDir()
	by := output.ByPath(1)
	_, err := output.New(output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, SectionOf: by})
	assert.ErrorIs(t, err, output.ErrNeedBaseURL)
	_, err = output.New(output.Options{Path: filepath.Join(dir, "feed.rss"), Format: feed.RSSFormat, SectionOf: by,
		BaseURL: base(t, "https://example.com/")})
	assert.ErrorContains(t, err, "cannot be split into sections")
	_, err = output.New(output.Options{Path: filepath.Join(dir, "urls.txt"), Format: text.Format, OneFile: true, SectionOf: by,
		BaseURL: base(t, "https://example.com/")})
	assert.ErrorContains(t, err, "cannot be split into sections")
	_, err = write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, SectionOf: by,
		BaseURL: base(t, "https://example.com/")}, []formats.Entry{{Loc: "https://example.com/s.xml", Kind: formats.KindSitemap}})
	assert.ErrorContains(t, err, "is a child sitemap")
	assert.Empty(t, names(t, dir))
}

// A second run replaces the set: the sections it no longer has are
// removed (the index it replaced listed them); another output's files
// that look like sections of this one are not.
func TestSectionsStaleFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	opts := output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)}
	first, err := write(t, opts, sectioned())
	require.NoError(t, err)
	require.Len(t, first.Files(), 4)
	other := filepath.Join(dir, "sitemap-news-1-0123abcd.xml") // a part of sitemap-news.xml
	require.NoError(t, os.WriteFile(other, []byte("x"), 0o644))

	second, err := write(t, opts, []formats.Entry{{Loc: "https://example.com/blog/x"}, {Loc: "https://example.com/"}})
	require.NoError(t, err)
	var want []string
	for _, f := range second.Files() {
		want = append(want, filepath.Base(f.Path))
	}
	assert.ElementsMatch(t, append(want, filepath.Base(other)), names(t, dir), "shop's sitemap is gone")

	// Without sections, the set's files are removed as well: the index
	// that listed them is replaced by one sitemap.
	opts.SectionOf = nil
	_, err = write(t, opts, []formats.Entry{{Loc: "https://example.com/a"}})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"sitemap.xml", filepath.Base(other)}, names(t, dir))
}

// The set of a previous run by section is recognized as this output's.
func TestSectionPartsAreParts(t *testing.T) {
	s, err := output.New(output.Options{Path: filepath.Join(t.TempDir(), "sitemap.xml"), Format: xml.Format})
	require.NoError(t, err)
	for name, want := range map[string]bool{
		"sitemap-blog-0123abcd.xml": true, "sitemap-shop-2-0123abcd.xml.gz": true, "sitemap-1-0123abcd.xml": true,
		"sitemap-Blog-0123abcd.xml": false, "sitemap-blog.xml": false, "other-blog-0123abcd.xml": false,
	} {
		assert.Equal(t, want, s.IsPart(name), name)
	}
}

// heapWithSections writes 8 entries to each of n sections, interleaved,
// with a buffer of 256 KiB, and returns the live heap just before Close.
func heapWithSections(t *testing.T, n int) uint64 {
	t.Helper()
	defer output.SetSectionBuffer(256 << 10)()
	dir := t.TempDir()
	s, err := output.New(output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)})
	require.NoError(t, err)
	defer s.Abort()
	for i := range 40000 {
		require.NoError(t, s.Write(formats.Entry{Loc: fmt.Sprintf("https://example.com/s%d/page-%d", i%n, i)}))
	}
	return liveHeap()
}

// Memory does not grow with the sections by more than a small record
// each: 40,000 entries in 5,000 sections hold about what they hold in 50,
// for what does not fit the buffer waits in one spool file; one writer
// (64 KiB) a section would be 320 MiB.
func TestSectionsMemoryBounded(t *testing.T) {
	few := heapWithSections(t, 50)
	many := heapWithSections(t, 5000)
	perSection := (int64(many) - int64(few)) / 4950
	t.Logf("heap: %d KiB with 50 sections, %d KiB with 5,000: %d bytes a section", few>>10, many>>10, perSection)
	require.Less(t, perSection, int64(1<<10), "each section keeps %d bytes", perSection)
	require.Less(t, many, uint64(16<<20), "40,000 entries held in a 256 KiB buffer and a spool")

	// And the whole set is written, every section in its file, the
	// entries of each in order though they were spilled in between.
	defer output.SetSectionBuffer(16 << 10)()
	dir := t.TempDir()
	var es []formats.Entry
	for i := range 2000 {
		es = append(es, formats.Entry{Loc: fmt.Sprintf("https://example.com/s%03d/page-%d", i%400, i)})
	}
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)}, es)
	require.NoError(t, err)
	files := s.Files()
	require.Len(t, files, 401)
	assert.Regexp(t, pattern("sitemap-s000-HASH.xml"), filepath.Base(files[0].Path))
	assert.Equal(t, []string{"https://example.com/s000/page-0", "https://example.com/s000/page-400", "https://example.com/s000/page-800",
		"https://example.com/s000/page-1200", "https://example.com/s000/page-1600"}, locs(readEntries(t, files[0].Path)))
	assert.Len(t, childNames(t, s.Path()), 400)
}

// A run by section that fails part-way through writing its sections (an
// entry over the byte limit, in the last) leaves the previous set as it
// was, and no file of its own.
func TestSectionsAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	opts := output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxBytes: 2000,
		BaseURL: base(t, "https://example.com/"), SectionOf: output.ByPath(1)}
	_, err := write(t, opts, sectioned())
	require.NoError(t, err)
	before := map[string][]byte{}
	for _, name := range names(t, dir) {
		before[name] = readFile(t, filepath.Join(dir, name))
	}

	es := append(sectioned(), formats.Entry{Loc: "https://example.com/zoo/" + strings.Repeat("z", 3000)})
	_, err = write(t, opts, es)
	require.ErrorIs(t, err, output.ErrEntryTooLarge)
	after := map[string][]byte{}
	for _, name := range names(t, dir) {
		after[name] = readFile(t, filepath.Join(dir, name))
	}
	assert.Equal(t, before, after)
}
