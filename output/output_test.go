package output_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/text"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/output"
)

func base(t testing.TB, s string) *url.URL {
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

// pages returns n entries; the i-th has a lastmod on day i (from 2024-01-01)
// when dated is set.
func pages(n int, dated bool) []formats.Entry {
	es := make([]formats.Entry, n)
	day := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range es {
		es[i] = formats.Entry{Loc: fmt.Sprintf("https://example.com/page/%d", i)}
		if dated {
			es[i].LastMod = formats.NewLastMod(day.AddDate(0, 0, i%1000), formats.PrecisionDay)
		}
	}
	return es
}

// write writes entries as a set and returns it closed.
func write(t testing.TB, opts output.Options, entries []formats.Entry) (*output.Set, error) {
	t.Helper()
	s, err := output.New(opts)
	require.NoError(t, err)
	for _, e := range entries {
		if err := s.Write(e); err != nil {
			s.Abort()
			return s, err
		}
	}
	if err := s.Close(); err != nil {
		s.Abort()
		return s, err
	}
	return s, nil
}

// readFile returns a file's content, gunzipped when its name ends in .gz.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(path, ".gz") {
		r, err := gzip.NewReader(bytes.NewReader(b))
		require.NoError(t, err, path)
		b, err = io.ReadAll(r)
		require.NoError(t, err, path)
	}
	return b
}

// readEntries reads the entries of a file.
func readEntries(t testing.TB, path string) []formats.Entry {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, _, err := formats.Open(f, formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: path}})
	require.NoError(t, err)
	var es []formats.Entry
	for e, err := range formats.All(r) {
		require.NoError(t, err)
		es = append(es, e)
	}
	return es
}

// readSet follows the index at path to the parts, checks each against the
// schemas, and returns every entry in order.
func readSet(t testing.TB, dir, path string) []formats.Entry {
	t.Helper()
	top := readEntries(t, path)
	if len(top) == 0 || top[0].Kind != formats.KindSitemap {
		return top
	}
	conformance.ValidateXML(t, readFile(t, path))
	var all []formats.Entry
	for _, child := range top {
		name := child.Loc[strings.LastIndexByte(child.Loc, '/')+1:]
		part := filepath.Join(dir, name)
		if strings.Contains(name, ".xml") {
			conformance.ValidateXML(t, readFile(t, part))
		}
		all = append(all, readEntries(t, part)...)
	}
	return all
}

func names(t testing.TB, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	var ns []string
	for _, d := range des {
		ns = append(ns, d.Name())
	}
	return ns
}

func locs(es []formats.Entry) []string {
	ls := make([]string, len(es))
	for i, e := range es {
		ls[i] = e.Loc
	}
	return ls
}

var partName = regexp.MustCompile(`^sitemap-[1-9][0-9]*-[0-9a-f]{8}\.xml(\.gz)?$`)

func TestURLLimitBoundary(t *testing.T) {
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			dir := t.TempDir()
			opts := output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, Gzip: gz, BaseURL: base(t, "https://example.com/")}
			s, err := write(t, opts, pages(formats.MaxURLs, false))
			require.NoError(t, err)
			require.Len(t, s.Files(), 1, "exactly the limit is one file")
			assert.Equal(t, []string{filepath.Base(s.Path())}, names(t, dir))
			assert.Len(t, readEntries(t, s.Path()), formats.MaxURLs)

			s, err = write(t, opts, pages(formats.MaxURLs+1, false))
			require.NoError(t, err)
			files := s.Files()
			require.Len(t, files, 3, "one over the limit is two parts and an index")
			assert.Equal(t, formats.MaxURLs, files[0].Entries)
			assert.Equal(t, 1, files[1].Entries)
			assert.Equal(t, s.Path(), files[2].Path)
			assert.Len(t, names(t, dir), 3)
			for _, f := range files[:2] {
				assert.Regexp(t, partName, filepath.Base(f.Path))
			}
			assert.Equal(t, locs(pages(formats.MaxURLs+1, false)), locs(readSet(t, dir, s.Path())))
		})
	}
}

// sized returns entries whose XML document is exactly size bytes long.
func sized(t testing.TB, size int) []formats.Entry {
	frame := frameSize(formats.WriteOptions{})
	var es []formats.Entry
	left := size - frame
	for i := 0; left > 0; i++ {
		e := formats.Entry{Loc: fmt.Sprintf("https://example.com/%d/", i)}
		n := entrySize(e)
		want := min(2000, left)
		if left-want > 0 && left-want < n+10 {
			want = left - n - 10 // leave room for a last entry
		}
		e.Loc += strings.Repeat("a", want-n)
		es = append(es, e)
		left -= entrySize(e)
	}
	require.Equal(t, 0, left)
	return es
}

func TestByteLimitBoundary(t *testing.T) {
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			dir := t.TempDir()
			opts := output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, Gzip: gz, BaseURL: base(t, "https://example.com/")}
			exact := sized(t, formats.MaxBytes)
			s, err := write(t, opts, exact)
			require.NoError(t, err)
			require.Len(t, s.Files(), 1)
			assert.EqualValues(t, formats.MaxBytes, s.Files()[0].Bytes)
			assert.Len(t, readFile(t, s.Path()), formats.MaxBytes, "the whole file, header and footer counted")

			over := append(exact, formats.Entry{Loc: "https://example.com/one-more"})
			s, err = write(t, opts, over)
			require.NoError(t, err)
			files := s.Files()
			require.Len(t, files, 3)
			assert.EqualValues(t, formats.MaxBytes, files[0].Bytes)
			assert.Len(t, readFile(t, files[0].Path), formats.MaxBytes)
			assert.Equal(t, 1, files[1].Entries)
			assert.Equal(t, locs(over), locs(readSet(t, dir, s.Path())))
		})
	}
}

func TestLowerLimits(t *testing.T) {
	dir := t.TempDir()
	es := pages(25, true)
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 10, BaseURL: base(t, "https://example.com/maps/")}, es)
	require.NoError(t, err)
	require.Len(t, s.Files(), 4)
	for _, f := range s.Files()[:3] {
		assert.LessOrEqual(t, f.Entries, 10)
	}
	assert.Equal(t, locs(es), locs(readSet(t, dir, s.Path())))

	dir = t.TempDir()
	s, err = write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxBytes: 1000, BaseURL: base(t, "https://example.com/maps/")}, es)
	require.NoError(t, err)
	for _, f := range s.Files() {
		assert.LessOrEqual(t, f.Bytes, int64(1000))
		assert.LessOrEqual(t, len(readFile(t, f.Path)), 1000)
	}
	assert.Equal(t, locs(es), locs(readSet(t, dir, s.Path())))

	_, err = output.New(output.Options{Path: "x.xml", Format: xml.Format, MaxURLs: formats.MaxURLs + 1})
	assert.Error(t, err, "a cap above the protocol's limit")
	_, err = output.New(output.Options{Path: "x.xml", Format: xml.Format, MaxBytes: formats.MaxBytes + 1})
	assert.Error(t, err)
}

func TestIndexLastMod(t *testing.T) {
	dir := t.TempDir()
	day := func(d int) formats.LastMod {
		return formats.NewLastMod(time.Date(2024, 3, d, 0, 0, 0, 0, time.UTC), formats.PrecisionDay)
	}
	es := []formats.Entry{
		{Loc: "https://example.com/a", LastMod: day(2)},
		{Loc: "https://example.com/b", LastMod: day(9)},
		{Loc: "https://example.com/c", LastMod: day(5)},
		{Loc: "https://example.com/d"},
		{Loc: "https://example.com/e"},
	}
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 3, BaseURL: base(t, "https://example.com")}, es)
	require.NoError(t, err)
	index := readEntries(t, s.Path())
	require.Len(t, index, 2)
	assert.Equal(t, "2024-03-09", index[0].LastMod.String(), "the newest of the part's entries")
	assert.True(t, index[1].LastMod.IsZero(), "omitted when no entry has one")
	assert.Regexp(t, `^https://example\.com/sitemap-1-[0-9a-f]{8}\.xml$`, index[0].Loc)
	assert.Contains(t, string(readFile(t, s.Path())), "<sitemap><loc>https://example.com/sitemap-2-")
	assert.NotContains(t, string(readFile(t, s.Path())), "</loc><lastmod></lastmod>")
}

func TestBaseURLJoin(t *testing.T) {
	for _, tc := range []struct{ base, want string }{
		{"https://example.com", "https://example.com/sitemap-1-"},
		{"https://example.com/", "https://example.com/sitemap-1-"},
		{"https://example.com/maps", "https://example.com/maps/sitemap-1-"},
		{"https://example.com/maps/", "https://example.com/maps/sitemap-1-"},
		{"https://example.com/maps//", "https://example.com/maps//sitemap-1-"},
		{"https://example.com/maps/sitemap.xml", "https://example.com/maps/sitemap-1-"},
		{"https://example.com/maps/index.xml.gz", "https://example.com/maps/sitemap-1-"},
		{"HTTPS://Example.COM:443/a%20b/", "https://example.com:443/a%20b/sitemap-1-"},
		{"https://bücher.example/", "https://xn--bcher-kva.example/sitemap-1-"},
	} {
		t.Run(tc.base, func(t *testing.T) {
			dir := t.TempDir()
			s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 1, BaseURL: base(t, tc.base)}, pages(2, false))
			require.NoError(t, err)
			index := readEntries(t, s.Path())
			require.Len(t, index, 2)
			assert.True(t, strings.HasPrefix(index[0].Loc, tc.want), index[0].Loc)
		})
	}
	for _, bad := range []string{"/maps/", "ftp://example.com/", "https://example.com/?a=1", "https://example.com/#x", "https://user@example.com/"} {
		_, err := output.New(output.Options{Path: "sitemap.xml", Format: xml.Format, BaseURL: base(t, bad)})
		assert.Error(t, err, bad)
	}
}

func TestSplitNeedsBaseURL(t *testing.T) {
	dir := t.TempDir()
	_, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 2}, pages(3, false))
	require.ErrorIs(t, err, output.ErrNeedBaseURL)
	assert.Empty(t, names(t, dir), "nothing written")

	// No split, no base URL needed.
	_, err = write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 2}, pages(2, false))
	require.NoError(t, err)
}

func TestTooManyParts(t *testing.T) {
	defer output.SetMaxParts(2)()
	dir := t.TempDir()
	_, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 2, BaseURL: base(t, "https://example.com/")}, pages(5, false))
	require.ErrorIs(t, err, output.ErrTooManyParts)
	assert.Contains(t, err.Error(), "shard")
	assert.Empty(t, names(t, dir))

	// Exactly as many parts as an index may list is fine.
	_, err = write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 2, BaseURL: base(t, "https://example.com/")}, pages(4, false))
	require.NoError(t, err)

	// An index cannot be split: indexes never nest.
	children := pages(3, false)
	for i := range children {
		children[i].Kind = formats.KindSitemap
	}
	dir = t.TempDir()
	_, err = write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 2, BaseURL: base(t, "https://example.com/")}, children)
	require.ErrorIs(t, err, output.ErrIndexTooLarge)
	assert.Empty(t, names(t, dir))
}

func TestIndexByteLimit(t *testing.T) {
	// Parts of one entry each: 21 parts, whose index needs ~1.4 kB.
	dir := t.TempDir()
	_, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxBytes: 200, BaseURL: base(t, "https://example.com/")}, pages(21, false))
	require.ErrorIs(t, err, output.ErrIndexTooLarge)
	assert.Empty(t, names(t, dir))
}

func TestGzipNames(t *testing.T) {
	for _, tc := range []struct {
		path  string
		gzip  bool
		index string
	}{
		{"sitemap.xml.gz", false, "sitemap.xml.gz"},
		{"sitemap.xml", true, "sitemap.xml.gz"},
		{"sitemap.xml.gz", true, "sitemap.xml.gz"},
	} {
		dir := t.TempDir()
		s, err := write(t, output.Options{Path: filepath.Join(dir, tc.path), Format: xml.Format, Gzip: tc.gzip, MaxURLs: 2, BaseURL: base(t, "https://example.com/")}, pages(3, false))
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(dir, tc.index), s.Path())
		for _, f := range s.Files() {
			assert.True(t, strings.HasSuffix(f.Path, ".xml.gz"), f.Path)
			raw, err := os.ReadFile(f.Path)
			require.NoError(t, err)
			assert.Equal(t, []byte{0x1f, 0x8b}, raw[:2], "content and name agree")
		}
		for _, e := range readEntries(t, s.Path()) {
			assert.True(t, strings.HasSuffix(e.Loc, ".xml.gz"), "the index lists the gzipped names: %s", e.Loc)
		}
		assert.Equal(t, locs(pages(3, false)), locs(readSet(t, dir, s.Path())))
	}
}

func TestTextSplit(t *testing.T) {
	dir := t.TempDir()
	es := pages(5, false)
	s, err := write(t, output.Options{Path: filepath.Join(dir, "urls.txt"), Format: text.Format, MaxURLs: 2, BaseURL: base(t, "https://example.com/")}, es)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "urls.xml"), s.Path(), "the index of text parts is XML")
	for _, f := range s.Files()[:3] {
		assert.Regexp(t, `^urls-[1-3]-[0-9a-f]{8}\.txt$`, filepath.Base(f.Path))
	}
	assert.Equal(t, locs(es), locs(readSet(t, dir, s.Path())))

	// Byte limit for text: a line is the loc and a newline; each part is
	// as full as the limit allows.
	dir = t.TempDir()
	es = pages(150, false)
	s, err = write(t, output.Options{Path: filepath.Join(dir, "urls.txt"), Format: text.Format, MaxBytes: 1000, BaseURL: base(t, "https://example.com/")}, es)
	require.NoError(t, err)
	require.Greater(t, len(s.Files()), 3)
	next := 0
	for _, f := range s.Files()[:len(s.Files())-1] {
		content := readFile(t, f.Path)
		assert.LessOrEqual(t, len(content), 1000)
		next += f.Entries
		if next < len(es) {
			assert.Greater(t, len(content)+len(es[next].Loc)+1, 1000, "the next line would not fit")
		}
	}
	assert.Equal(t, locs(es), locs(readSet(t, dir, s.Path())))

	// Unsplit, a plain text file.
	dir = t.TempDir()
	s, err = write(t, output.Options{Path: filepath.Join(dir, "urls.txt"), Format: text.Format}, es[:2])
	require.NoError(t, err)
	assert.Equal(t, []string{"urls.txt"}, names(t, dir))
}

func TestDeterministicAndUnchangedPartsKept(t *testing.T) {
	dir := t.TempDir()
	opts := output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 10, BaseURL: base(t, "https://example.com/")}
	es := pages(25, true)
	s1, err := write(t, opts, es)
	require.NoError(t, err)
	first := map[string][]byte{}
	for _, f := range s1.Files() {
		first[f.Path] = readFile(t, f.Path)
	}
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for p := range first {
		require.NoError(t, os.Chtimes(p, old, old))
	}

	// The same entries: the same names and bytes; nothing is rewritten.
	s2, err := write(t, opts, es)
	require.NoError(t, err)
	require.Equal(t, len(s1.Files()), len(s2.Files()))
	for _, f := range s2.Files() {
		assert.Equal(t, first[f.Path], readFile(t, f.Path))
		fi, err := os.Stat(f.Path)
		require.NoError(t, err)
		assert.True(t, fi.ModTime().Equal(old), "an unchanged file keeps its modification time: %s", f.Path)
	}

	// A change in the third part: parts 1 and 2 keep their names, part 3
	// gets a new one, and the old part 3 is gone.
	es[22].Loc = "https://example.com/changed"
	s3, err := write(t, opts, es)
	require.NoError(t, err)
	f3 := s3.Files()
	assert.Equal(t, s1.Files()[0].Path, f3[0].Path)
	assert.Equal(t, s1.Files()[1].Path, f3[1].Path)
	assert.NotEqual(t, s1.Files()[2].Path, f3[2].Path)
	assert.NoFileExists(t, s1.Files()[2].Path)
	assert.Len(t, names(t, dir), 4)
}

// TestLeftoversOnlyOfThisOutput removes the old parts of this output and
// the temporary files of its runs that are gone, and nothing else: not
// another live run's temporary files, nor those whose owner cannot be
// told (named without a process id), nor other outputs' files.
func TestLeftoversOnlyOfThisOutput(t *testing.T) {
	dir := t.TempDir()
	live := strconv.Itoa(os.Getppid())
	const gone = "2147483647" // above any pid_max
	keep := []string{"sitemap-notes.txt", "sitemap-1-zzzzzzzz.xml", "other-1-abcdef12.xml", "sitemap-1-abcdef12.xml.gz", "sitemap-1-abcdef123.xml", "sitemap.xml.bak",
		".sitemap-part.tmp-123", ".sitemap.xml.tmp-456", ".sitemap-part.tmp-" + live + "-1", ".sitemap.xml.tmp-" + live + "-2", ".other-part.tmp-" + gone + "-3"}
	for _, n := range append(slices.Clone(keep), "sitemap-7-abcdef12.xml", ".sitemap-part.tmp-"+gone+"-4", ".sitemap.xml.tmp-"+gone+"-5") {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644))
	}
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 2, BaseURL: base(t, "https://example.com/")}, pages(3, false))
	require.NoError(t, err)
	var want []string
	for _, f := range s.Files() {
		want = append(want, filepath.Base(f.Path))
	}
	want = append(want, keep...)
	slices.Sort(want)
	assert.Equal(t, want, names(t, dir))

	// A run that needs no split replaces the index with the sitemap and
	// removes the parts the old index listed.
	s, err = write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxURLs: 2, BaseURL: base(t, "https://example.com/")}, pages(2, false))
	require.NoError(t, err)
	want = append([]string{"sitemap.xml"}, keep...)
	slices.Sort(want)
	assert.Equal(t, want, names(t, dir))
}

// failing is the XML format with an encoder that fails at the n-th entry,
// as a full disk would.
func failing(n int) *formats.Format {
	f := *xml.Format
	left := n
	f.NewEncoder = func(o formats.WriteOptions) formats.Encoder {
		return &failEncoder{Encoder: xml.NewEncoder(o), left: &left}
	}
	return &f
}

type failEncoder struct {
	*xml.Encoder
	left *int
}

func (c *failEncoder) AppendEntry(b []byte, e *formats.Entry) ([]byte, error) {
	if *c.left--; *c.left < 0 {
		return b, errors.New("no space left on device")
	}
	return c.Encoder.AppendEntry(b, e)
}

// snapshot returns every file of dir with its content.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	for _, n := range names(t, dir) {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.IsDir() {
			m[n] = "(directory)"
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, n))
		require.NoError(t, err)
		m[n] = string(b)
	}
	return m
}

func TestAllOrNothing(t *testing.T) {
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			dir := t.TempDir()
			opts := output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, Gzip: gz, MaxURLs: 10, BaseURL: base(t, "https://example.com/")}
			_, err := write(t, opts, pages(25, true))
			require.NoError(t, err)
			before := snapshot(t, dir)

			changed := pages(40, false)
			for _, failAt := range []int{0, 5, 10, 25} {
				opts.Format = failing(failAt)
				_, err = write(t, opts, changed)
				require.Error(t, err)
				assert.Equal(t, before, snapshot(t, dir), "failing at entry %d changed the old set", failAt)
			}

			// An index that cannot be written (its path is a directory):
			// refused before anything is written.
			opts.Format = xml.Format
			opts.Path = filepath.Join(dir, "taken.xml")
			require.NoError(t, os.Mkdir(opts.Path+map[bool]string{true: ".gz"}[gz], 0o755))
			before = snapshot(t, dir)
			_, err = output.New(opts)
			require.ErrorContains(t, err, "is a directory, not a regular file")
			assert.Equal(t, before, snapshot(t, dir))
		})
	}
}

func TestUnwritableDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	_, err := output.New(output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format})
	require.ErrorContains(t, err, "does not exist")
	assert.NoDirExists(t, dir)
}

func TestEmpty(t *testing.T) {
	dir := t.TempDir()
	s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format}, nil)
	require.NoError(t, err)
	assert.Equal(t, xml.URLSetHeader+xml.URLSetFooter, string(readFile(t, s.Path())))
}

func TestEntryTooLarge(t *testing.T) {
	dir := t.TempDir()
	_, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxBytes: 200}, pages(1, false))
	require.NoError(t, err)
	_, err = write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, MaxBytes: 100}, pages(1, false))
	require.ErrorIs(t, err, output.ErrEntryTooLarge)
}
