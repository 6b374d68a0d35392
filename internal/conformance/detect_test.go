package conformance

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/csv"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	_ "github.com/feed2sitemap/feed2sitemap/formats/html"
	_ "github.com/feed2sitemap/feed2sitemap/formats/jsonl"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/sniff"
	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// TestDetectorsNeverOverlap sniffs every input file of the project, of the
// format packages and of the shared corpus with the detectors of every
// registered format, and checks that no two formats claim the same
// content, that every format with a reader recognizes some file, and that
// every CSV fixture is claimed by csv alone.
func TestDetectorsNeverOverlap(t *testing.T) {
	root := testenv.RepoRoot(t)
	dirs := []string{filepath.Join(root, "testdata"), filepath.Join(root, "..", "shared", "corpus")}
	entries, err := os.ReadDir(filepath.Join(root, "formats"))
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, "formats", e.Name(), "testdata"))
		}
	}
	files, matched := 0, map[string]int{}
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // an absent folder: ../shared, say
			}
			if d.IsDir() {
				switch d.Name() {
				case "golden", "fuzz", "schemas", "LICENSES":
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".tsv") {
				return nil
			}
			files++
			names := detect(t, path)
			assert.LessOrEqual(t, len(names), 1, "%s is claimed by %v", path, names)
			if strings.Contains(path, filepath.Join("formats", "csv", "testdata")) {
				assert.Equal(t, []string{"csv"}, names, path)
			}
			if len(names) == 1 {
				matched[names[0]]++
			}
			return nil
		})
	}
	require.Greater(t, files, 100)
	for _, f := range formats.Formats() {
		if f.CanRead() {
			assert.Positive(t, matched[f.Name], "no file is recognized as %s", f.Name)
		}
	}
	t.Logf("%d files; recognized: %v; none by two formats", files, matched)
}

// detect returns the names of the formats that claim the file at path, as
// formats.Open sees it: gzip layers removed, its start decoded to UTF-8.
func detect(t *testing.T, path string) []string {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	for len(raw) > 2 && raw[0] == 0x1f && raw[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			break
		}
		raw, _ = io.ReadAll(zr)
	}
	decoded, _ := io.ReadAll(io.LimitReader(textenc.NewReader(bufio.NewReader(bytes.NewReader(raw)), textenc.Options{}), sniff.Len))
	var names []string
	for _, f := range formats.Detect(decoded) {
		names = append(names, f.Name)
	}
	return names
}
