package output_test

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/output"
)

func ExampleFileURL() {
	base, _ := url.Parse("https://example.com/maps/sitemap.xml.gz") // the index's URL, or its directory
	loc, err := output.FileURL(base, "sitemap.xml.gz")
	if err != nil {
		panic(err)
	}
	fmt.Println(loc)
	// Output: https://example.com/maps/sitemap.xml.gz
}

func TestFileURL(t *testing.T) {
	for _, tc := range []struct{ base, name, want string }{
		{"https://example.com", "sitemap.xml", "https://example.com/sitemap.xml"},
		{"https://example.com/maps", "sitemap.xml", "https://example.com/maps/sitemap.xml"},
		{"https://example.com/maps/index.xml", "sitemap.xml", "https://example.com/maps/sitemap.xml"},
		{"https://example.com/maps/", "a b#c?.xml", "https://example.com/maps/a%20b%23c%3F.xml"},
		{"https://example.com/maps/", "x:y.xml", "https://example.com/maps/x:y.xml"},
		{"HTTPS://Example.COM/", "sitemap.txt", "https://example.com/sitemap.txt"},
	} {
		base, err := url.Parse(tc.base)
		assert.NoError(t, err)
		got, err := output.FileURL(base, tc.name)
		assert.NoError(t, err)
		assert.Equal(t, tc.want, got, "%s + %s", tc.base, tc.name)
	}
	bad, _ := url.Parse("ftp://example.com/")
	_, err := output.FileURL(bad, "sitemap.xml")
	assert.Error(t, err)
}
