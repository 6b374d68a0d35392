package validate

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/extschema"
)

// TestTablesValid holds the content model to the tables of extschema it is
// built from: what the XML writer makes of an entry with every element and
// attribute of every extension set (extschema.Full) is schema-valid, each
// element known, so a row added there is checked here without an edit.
func TestTablesValid(t *testing.T) {
	var buf bytes.Buffer
	w := xml.NewWriter(&buf, formats.WriteOptions{Uses: formats.ExtAll})
	if err := w.Write(formats.Entry{Loc: "https://example.com/", Ext: extschema.Full()}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sitemap.xml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fs := checkFile(t, path, "", Options{})
	if schemaVerdict(fs) != "valid" {
		t.Errorf("findings of schema rules:%s\n%s", describe(fs), buf.Bytes())
	}
	for _, f := range fs {
		if f.Rule == ruleElementUnknown || f.Rule == ruleElementOrder {
			t.Errorf("%s", f)
		}
	}
	t.Logf("rules: %v", ruleIDs(fs))
}
