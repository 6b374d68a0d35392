package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocumentLevelElementsDroppedAreSaid checks that a ResourceSync list
// converted to a format that cannot hold its document-level rs:md and rs:ln
// says so on standard error and in the report, and keeps them in XML.
func TestDocumentLevelElementsDroppedAreSaid(t *testing.T) {
	in := "../../formats/xml/testdata/resourcesync_resource_list.xml"
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	_, stderr, code := runCLI(t, nil, in, "--to", "text", "-o", filepath.Join(dir, "urls.txt"), "--report", report)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "document-level elements (such as ResourceSync's rs:md and rs:ln)")
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"document_elements_dropped": `)

	out, stderr, code := runCLI(t, nil, in)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stderr, "document-level")
	assert.Contains(t, out, "<rs:md ")
}
