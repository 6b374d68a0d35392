package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClockIsTheEnvs shows that --max-age counts from the env's clock, and
// validate measures a future lastmod from it, with no global to replace.
func TestClockIsTheEnvs(t *testing.T) {
	sitemap := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://example.com/old</loc><lastmod>2020-01-01</lastmod></url>
<url><loc>https://example.com/new</loc><lastmod>2020-06-01</lastmod></url>
</urlset>
`
	then := func() time.Time { return time.Date(2020, 6, 10, 0, 0, 0, 0, time.UTC) }
	var stdout, stderr bytes.Buffer
	status := run([]string{"-", "--to", "text", "--max-age", "30d"}, &env{Stdin: strings.NewReader(sitemap), Stdout: &stdout, Stderr: &stderr, Now: then})
	require.Equal(t, exitOK, status, stderr.String())
	assert.Equal(t, "https://example.com/new\n", stdout.String())

	// In 2019 both lastmods lie in the future.
	stdout.Reset()
	stderr.Reset()
	before := func() time.Time { return time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC) }
	run([]string{"validate", "-"}, &env{Stdin: strings.NewReader(sitemap), Stdout: &stdout, Stderr: &stderr, Now: before})
	assert.Contains(t, stdout.String()+stderr.String(), "future")
}
