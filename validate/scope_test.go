package validate

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkString validates doc as served at at, and returns the rule ids
// found.
func checkString(t *testing.T, doc, at string) []string {
	t.Helper()
	u, err := url.Parse(at)
	require.NoError(t, err)
	var got []Finding
	err = New(Options{NoFollow: true, Now: testNow}).Check(strings.NewReader(doc), Source{Name: "sitemap.xml", URL: u},
		func(f Finding) { got = append(got, f) })
	require.NoError(t, err)
	return ruleIDs(got)
}

// TestScopeEscapesOfValidate: validate's host and directory rules see
// through the spellings that convert's --base-url scope sees through, and
// do not count the same origin spelled otherwise as another.
func TestScopeEscapesOfValidate(t *testing.T) {
	urlset := func(loc string) string {
		return `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
			`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` + loc + `</loc></url></urlset>`
	}
	const at = "https://example.com/blog/sitemap.xml"
	for _, loc := range []string{
		"https://example.com/blog/../admin",
		"https://example.com/blog/%2e%2e/admin",
		"https://example.com/blog/%2E%2e/admin",
		"https://example.com/blog/..;/admin",
		"https://example.com/blog/..%5Cadmin",
		"https://example.com/blog/%252e%252e/admin",
	} {
		got := checkString(t, urlset(loc), at)
		assert.True(t, slices.Contains(got, "loc-outside-directory"), "%s: %v", loc, got)
	}
	for _, loc := range []string{
		"https://example.com:443/blog/post",
		"https://example.com./blog/post",
		"https://EXAMPLE.com/blog/post",
	} {
		got := checkString(t, urlset(loc), at)
		assert.False(t, slices.Contains(got, "loc-other-host"), "%s: %v", loc, got)
		assert.False(t, slices.Contains(got, "loc-outside-directory"), "%s: %v", loc, got)
	}
	got := checkString(t, urlset("https://example.com/blog/post"), "https://example.com.:443/blog/sitemap.xml")
	assert.False(t, slices.Contains(got, "loc-other-host"), "%v", got)
}

// TestGluedURLsInValidate: a URL value holding several URLs is reported
// as such, in a text sitemap and in a <loc>.
func TestGluedURLsInValidate(t *testing.T) {
	for _, doc := range []string{
		"https://example.com/a\nhttps://example.com/x\u2028https://example.com/y\n",
		`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/x&#xA0;https://example.com/y</loc></url></urlset>`,
	} {
		u, err := url.Parse("https://example.com/sitemap.xml")
		require.NoError(t, err)
		var msgs []string
		err = New(Options{NoFollow: true, Now: testNow}).Check(strings.NewReader(doc), Source{Name: "s", URL: u},
			func(f Finding) { msgs = append(msgs, f.Message) })
		require.NoError(t, err)
		assert.Contains(t, strings.Join(msgs, "\n"), "several URLs run together", doc)
	}
}
