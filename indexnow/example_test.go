package indexnow_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

func ExampleSubmitter() {
	// An endpoint on loopback standing in for api.indexnow.org.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Printf("POST %s\n", body)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()

	c := &indexnow.Client{Endpoint: srv.URL, Key: "0123456789abcdef", Retry: fetch.DefaultRetryPolicy()}
	sub := &indexnow.Submitter{
		Send: c.Send,
		Done: func(_ indexnow.Batch, r indexnow.Result) { fmt.Println(r) },
	}
	ctx := context.Background()
	for _, u := range []string{"https://example.com/a", "https://blog.example.com/b", "https://example.com/c"} {
		if err := sub.Add(ctx, u); err != nil {
			panic(err)
		}
	}
	if _, err := sub.Flush(ctx); err != nil {
		panic(err)
	}
	// Output:
	// POST {"host":"example.com","key":"0123456789abcdef","urlList":["https://example.com/a","https://example.com/c"]}
	// example.com: 2 URLs: 202 Accepted: URLs received; the key is still to be verified
	// POST {"host":"blog.example.com","key":"0123456789abcdef","urlList":["https://blog.example.com/b"]}
	// blog.example.com: 1 URL: 202 Accepted: URLs received; the key is still to be verified
}

func ExampleState() {
	state := indexnow.NewState() // or indexnow.LoadState(path)
	fmt.Println(state.Check("https://example.com/a", "2026-11-20"))
	state.Done([]string{"https://example.com/a"}, true) // its batch was accepted
	fmt.Println(state.Check("https://example.com/a", "2026-11-20"))
	fmt.Println(state.Check("https://example.com/a", "2026-11-21"))
	// Output:
	// true
	// false
	// true
}
