package live_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/live"
)

func ExampleChecker_Check() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /drafts/\n")
		case "/old":
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
		case "/new", "/drafts/a":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><head><title>A page</title></head><body></body></html>")
		default:
			http.NotFound(w, r)
		}
	}))
	defer site.Close()

	c := live.New(live.Options{UserAgent: "example", Rate: 100})
	var pages []live.Page
	for _, p := range []string{"/new", "/old", "/gone", "/drafts/a"} {
		pages = append(pages, live.Page{URL: site.URL + p, From: "sitemap.xml"})
	}
	var lines []string
	err := c.Check(context.Background(), slices.Values(pages), func(f live.Finding) {
		lines = append(lines, f.Rule+": "+strings.ReplaceAll(f.Message, site.URL, "https://example.com"))
	})
	if err != nil {
		panic(err)
	}
	sort.Strings(lines)
	fmt.Println(strings.Join(lines, "\n"))
	// Output:
	// live-redirect: https://example.com/old: redirects to https://example.com/new; list that URL instead
	// live-robots: https://example.com/drafts/a: robots.txt disallows it to Googlebot, Bingbot, * (line 2: Disallow: /drafts/)
	// live-status: https://example.com/gone: answered 404 Not Found
}
