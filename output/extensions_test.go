package output_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/conformance"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// hreflangPages returns n pages, each listing itself and its other
// language versions as alternates with long URLs: about 11 KB an entry.
func hreflangPages(n, langs int) []formats.Entry {
	path := strings.Repeat("a-long-path-segment/", 20)
	es := make([]formats.Entry, n)
	for i := range es {
		href := func(l int) string { return fmt.Sprintf("https://example.com/%s/%s%d", langName(l), path, i) }
		alts := make([]formats.Alternate, langs)
		for l := range alts {
			alts[l] = formats.Alternate{Hreflang: langName(l), Href: href(l)}
		}
		es[i] = formats.Entry{Loc: href(0), Ext: &formats.Extensions{Alternates: alts,
			Images: []formats.Image{{Loc: fmt.Sprintf("https://example.com/img/%d.jpg", i)}}}}
	}
	return es
}

func langName(l int) string { return fmt.Sprintf("l%c-%c%c", 'a'+l%26, 'A'+l/26%26, 'A'+l%26) }

// checkExtensionSplit writes entries through output.New with a byte limit
// and checks every part: at most maxBytes, the size the layout predicted,
// valid, and read back as what was written.
func checkExtensionSplit(t *testing.T, entries []formats.Entry, maxBytes int64, wantParts int) {
	dir := t.TempDir()
	opts := output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, BaseURL: base(t, "https://example.com/"),
		MaxBytes: maxBytes, Write: formats.WriteOptions{Uses: formats.ExtAlternates | formats.ExtImage}}
	s, err := write(t, opts, entries)
	require.NoError(t, err)
	files := s.Files()
	require.Len(t, files, wantParts+1, "parts and the index")
	read := 0
	for _, f := range files {
		info, err := os.Stat(f.Path)
		require.NoError(t, err)
		assert.Equal(t, f.Bytes, info.Size(), "the layout's size is the real size of %s", f.Path)
		assert.LessOrEqual(t, info.Size(), maxBytes, f.Path)
		doc := readFile(t, f.Path)
		if f.Path == opts.Path {
			continue // the index
		}
		back := readAllEntries(t, doc)
		for i, e := range back {
			require.Equal(t, entries[read+i].Loc, e.Loc)
			require.Equal(t, entries[read+i].Ext, e.Ext)
		}
		read += len(back)
		if info.Size() < 16<<20 || !testing.Short() {
			conformance.ValidateXML(t, doc)
		}
	}
	assert.Equal(t, len(entries), read)
}

// readAllEntries reads an XML sitemap strictly.
func readAllEntries(t *testing.T, doc []byte) []formats.Entry {
	t.Helper()
	r := xml.NewReader(strings.NewReader(string(doc)), formats.ReadOptions{Strict: true})
	var out []formats.Entry
	for e, err := range formats.All(r) {
		require.NoError(t, err)
		out = append(out, e)
	}
	return out
}

func TestSplitHeavyHreflang(t *testing.T) {
	// 24 alternates of long URLs make an entry of about 12 KB: a part holds
	// far fewer than 50,000 of them, so the bytes decide the split.
	entries := hreflangPages(300, 24)
	size := entrySize(entries[0])
	require.Greater(t, size, 10000)

	t.Run("lowered limit", func(t *testing.T) {
		checkExtensionSplit(t, entries, 1<<20, (300*size)/(1<<20)+1)
	})
	t.Run("protocol limit", func(t *testing.T) {
		if testing.Short() {
			t.Skip("writes about 110 MB")
		}
		n := int(2.1 * float64(formats.MaxBytes) / float64(size))
		checkExtensionSplit(t, hreflangPages(n, 24), formats.MaxBytes, 3)
	})
}
