package xml_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
)

// TestTablesLossless holds the reader and writer to the tables of
// extschema: an entry with every element and attribute of every
// extension set (extschema.Full, so a row added there is covered here)
// is written, read back the same without a warning, even in strict mode,
// and written again the same bytes, whether the root declares the
// namespaces or each element does.
func TestTablesLossless(t *testing.T) {
	for _, uses := range []formats.ExtensionSet{formats.ExtAll, 0} {
		want := formats.Entry{Loc: "https://example.com/", Ext: extschema.Full()}
		doc := writeAll(t, []formats.Entry{want}, formats.WriteOptions{Uses: uses})
		for _, x := range extschema.Extensions {
			assert.Contains(t, string(doc), "<"+x.QName, "uses %v", uses)
		}
		res := readAll(t, bytes.NewReader(doc), formats.ReadOptions{Strict: true})
		require.NoError(t, res.err, "%s", doc)
		assert.Empty(t, res.warningText())
		require.Len(t, res.entries, 1)
		assert.Equal(t, want, res.entries[0], "%s", doc)
		assert.Equal(t, string(doc), string(writeAll(t, res.entries, formats.WriteOptions{Uses: uses})))
	}
}
