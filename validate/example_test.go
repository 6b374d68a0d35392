package validate_test

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/feed2sitemap/feed2sitemap/validate"
)

func ExampleValidator_Check() {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.com/blog/a</loc><lastmod>2024-05</lastmod></url>
  <url><loc>https://example.com/shop/b?jsessionid=42</loc><priority>2</priority></url>
</urlset>`
	served, _ := url.Parse("https://example.com/blog/sitemap.xml")
	v := validate.New(validate.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	v.Check(strings.NewReader(doc), validate.Source{Name: "sitemap.xml", URL: served}, func(f validate.Finding) {
		fmt.Println(f)
	})
	// Output:
	// sitemap.xml:3:45: error: lastmod "2024-05" is not a date (YYYY-MM-DD) or date-time (YYYY-MM-DDThh:mm:ss±hh:mm) [lastmod-format]
	// sitemap.xml:4:8: error: loc https://example.com/shop/b?jsessionid=42 is outside https://example.com/blog/, the sitemap's directory [loc-outside-directory]
	// sitemap.xml:4:8: warning: loc https://example.com/shop/b?jsessionid=42 holds a session id [session-id]
	// sitemap.xml:4:59: error: priority "2" is not a number from 0.0 to 1.0 [priority-range]
}

func ExampleReport() {
	rep := validate.NewReport(0)
	v := validate.New(validate.Options{OnDocument: rep.Document})
	v.Check(strings.NewReader("https://example.com/a\nhttps://example.com/a\n# end\n"),
		validate.Source{Name: "urls.txt"}, rep.Finding)
	rep.WriteText(os.Stdout)
	// Output:
	// urls.txt (text, 2 URLs): 0 errors, 2 warnings
	//   2:1: warning: URL https://example.com/a is listed before in this file (line 1) [duplicate-url]
	//       fix: list each page once
	//   3:1: warning: a comment line; a text sitemap holds only URLs [text-line]
	//       fix: remove the comment lines
	//
	// 0 errors, 2 warnings in 1 file
	// note: the host and directory rules were skipped for 1 file whose URL is unknown (give it: Source.URL)
}

func ExampleRules() {
	for _, r := range validate.Rules()[:3] {
		fmt.Printf("%s (%s, schema: %t): %s\n", r.ID, r.Severity, r.Schema, r.Meaning)
	}
	// Output:
	// unknown-format (error, schema: false): the input is empty or is not an XML sitemap, sitemap index, feed, text sitemap or robots.txt
	// gzip (error, schema: false): the gzip data is corrupt or truncated
	// encoding (error, schema: false): the document is not encoded in UTF-8 (a declared charset, UTF-16 or UTF-32)
}
