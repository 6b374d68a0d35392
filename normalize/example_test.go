package normalize_test

import (
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// One canonical spelling per page: https, no www, no tracking or session
// parameters, no trailing slash.
func ExampleOptions_URL() {
	opts := normalize.Options{
		StripUTM:        true,
		StripSessionIDs: true,
		HTTPS:           true,
		WWW:             normalize.HostRemoveWWW,
		TrailingSlash:   normalize.SlashRemove,
	}
	for _, loc := range []string{
		"http://www.example.com/blog/?utm_source=feed&utm_medium=rss",
		"HTTPS://Example.COM:443/blog#comments",
		"https://example.com/shop/item;jsessionid=0A1B2C?id=7&PHPSESSID=x",
		"https://example.com/a/./b/../%7euser/",
	} {
		fmt.Println(opts.URL(loc))
	}
	// Output:
	// https://example.com/blog
	// https://example.com/blog
	// https://example.com/shop/item?id=7
	// https://example.com/a/~user
}

// Key is the identity of a page under the always-on rules: the spellings
// below are one page.
func ExampleKey() {
	for _, loc := range []string{
		"https://example.com/caf%c3%a9",
		"HTTPS://EXAMPLE.COM:443/café#menu",
		"https://example.com/x/../caf%C3%A9?",
	} {
		fmt.Println(normalize.Key(loc))
	}
	// Output:
	// https://example.com/caf%C3%A9
	// https://example.com/caf%C3%A9
	// https://example.com/caf%C3%A9
}

func ExampleParseSlash() {
	s, err := normalize.ParseSlash("add")
	fmt.Println(s, err)
	_, err = normalize.ParseSlash("yes")
	fmt.Println(err)
	// Output:
	// add <nil>
	// "yes" is not one of keep, add, remove
}
