package fetch_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

// Fetch a URL that redirects, with retries: the body comes whole, and its
// URL is where the redirect led, for relative links to resolve against.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old-urls.txt" {
			http.Redirect(w, r, "/urls.txt", http.StatusMovedPermanently)
			return
		}
		fmt.Fprintln(w, "https://example.com/a")
	}))
	defer srv.Close()

	f := fetch.New(fetch.Options{
		UserAgent: fetch.UserAgent("1.0.0"),
		Timeout:   10 * time.Second,
		MaxBytes:  fetch.DefaultMaxBytes,
		Retry:     fetch.DefaultRetryPolicy(),
	})
	body, err := f.Fetch(context.Background(), srv.URL+"/old-urls.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer body.Close()
	data, _ := io.ReadAll(body)
	fmt.Printf("%d %s %q\n", body.Status, body.URL.Path, data)
	// Output:
	// 200 /urls.txt "https://example.com/a\n"
}

// How long to wait before trying a request again: what Retry-After asks,
// within the policy's cap.
func ExampleParseRetryAfter() {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, v := range []string{"120", "Sat, 21 Nov 2026 12:00:30 GMT", "soon"} {
		d, ok := fetch.ParseRetryAfter(v, now)
		fmt.Println(d, ok)
	}
	wait, retry := fetch.DefaultRetryPolicy().Wait(1, http.Header{"Retry-After": {"3600"}}, now)
	fmt.Println(wait, retry)
	// Output:
	// 2m0s true
	// 30s true
	// 0s false
	// 1h0m0s false
}
