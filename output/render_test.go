package output_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// TestPartsHoldTheirEntriesAsRendered checks every byte of every part
// against the Encoder's rendering of the entries it holds, in order: the
// entries are rendered in place at the end of a part's chunk, and one that
// ends a part, overflows a chunk or is larger than the room kept for it
// must come out the same. The entries mix small ones with some of tens of
// kilobytes, over parts of a few chunks (1 MiB each) that end by bytes.
func TestPartsHoldTheirEntriesAsRendered(t *testing.T) {
	const maxBytes = 2<<20 + 12345
	rng := rand.New(rand.NewPCG(1, 2))
	var es []formats.Entry
	for i := range 30000 {
		e := formats.Entry{Loc: fmt.Sprintf("https://example.com/p/%d/%s", i, strings.Repeat("x", rng.IntN(300)))}
		if rng.IntN(60) == 0 {
			// An entry of 4 to 70 KB, often past the room kept at a
			// chunk's end.
			ext := &formats.Extensions{}
			for j := range 20 + rng.IntN(330) {
				ext.Images = append(ext.Images, formats.Image{Loc: fmt.Sprintf("https://example.com/img/%d/%d/%s.jpg", i, j, strings.Repeat("i", 120))})
			}
			e.Ext = ext
		}
		es = append(es, e)
	}
	for _, gz := range []bool{false, true} {
		t.Run(fmt.Sprintf("gzip=%v", gz), func(t *testing.T) {
			dir := t.TempDir()
			wo := formats.WriteOptions{Uses: formats.ExtImage}
			s, err := write(t, output.Options{Path: filepath.Join(dir, "sitemap.xml"), Format: xml.Format, Gzip: gz,
				MaxBytes: maxBytes, BaseURL: base(t, "https://example.com/"), Write: wo}, es)
			require.NoError(t, err)
			enc := xml.NewEncoder(wo)
			next, parts := 0, 0
			for _, f := range s.Files() {
				if f.Path == s.Path() {
					continue
				}
				parts++
				want := enc.AppendHeader(nil)
				for _, e := range es[next : next+f.Entries] {
					want, err = enc.AppendEntry(want, &e)
					require.NoError(t, err)
				}
				want = enc.AppendFooter(want)
				next += f.Entries
				got := readFile(t, f.Path)
				require.Equal(t, len(want), len(got), "part %d", parts)
				assert.True(t, string(want) == string(got), "part %d holds its entries as rendered", parts)
				assert.LessOrEqual(t, len(got), maxBytes)
			}
			assert.Equal(t, len(es), next, "every entry in a part")
			assert.Greater(t, parts, 2)
		})
	}
}
