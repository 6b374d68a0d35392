package formats_test

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
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots"
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
)

// TestDetectorsNeverOverlap sniffs every input file under testdata (the
// project's and the format packages') and checks that no two formats claim
// the same content.
func TestDetectorsNeverOverlap(t *testing.T) {
	var files []string
	for _, root := range []string{"../testdata", "xml/testdata", "feed/testdata", "text/testdata"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				if d != nil && d.IsDir() && (d.Name() == "golden" || d.Name() == "fuzz" || d.Name() == "schemas" || d.Name() == "LICENSES") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".tsv") {
				files = append(files, path)
			}
			return nil
		})
	}
	require.Greater(t, len(files), 100)
	matched := 0
	for _, path := range files {
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		content := raw
		for len(content) > 2 && content[0] == 0x1f && content[1] == 0x8b {
			zr, err := gzip.NewReader(bytes.NewReader(content))
			if err != nil {
				break
			}
			content, _ = io.ReadAll(zr)
		}
		decoded, _ := io.ReadAll(io.LimitReader(textenc.NewReader(bufio.NewReader(bytes.NewReader(content)), textenc.Options{}), formats.SniffLen))
		s := formats.Sniff(decoded)
		found := formats.Detect(&s)
		var names []string
		for _, f := range found {
			names = append(names, f.Name)
		}
		assert.LessOrEqual(t, len(found), 1, "%s is claimed by %v", path, names)
		if len(found) == 1 {
			matched++
		}
	}
	t.Logf("%d files, %d recognized, none by two formats", len(files), matched)
}
