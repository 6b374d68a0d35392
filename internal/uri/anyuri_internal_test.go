package uri

import "testing"

// plainCases are URLs around the edges of plainHTTP's form.
var plainCases = []string{
	"https://example.com/", "http://example.com", "HTTPS://Example.com/a?b=c&d", "https://x/%41%7e", "https://x/%4",
	"https://x/%", "https://x/%zz", "https://x/a%4g", "https://x:8080/", "https://x:/", "https://x:99999999999/",
	"https://u@x/", "https://u:p@x/", "https://[::1]/", "https://x/[a]", "https://x/#f", "https://x/a#b#c",
	"https://x/a:b", "https://x?a:b", "https://", "http://", "https:///a", "ftp://x/", "https:x", "https://x/ a",
	"https://%zz/", "https://x%41/", "https://x/a?b#", "https://x/@", "https://x/a]",
}

// TestPlainHTTPNeverHidesAProblem holds plainHTTP's fast path to the full
// check: what it passes, the full check finds nothing wrong with.
func TestPlainHTTPNeverHidesAProblem(t *testing.T) {
	passed := 0
	for _, s := range plainCases {
		if plainHTTP(s) {
			passed++
			if msg := anyURIProblem(s); msg != "" {
				t.Errorf("plainHTTP(%q) passes it, the full check says %q", s, msg)
			}
		}
	}
	if passed < 5 {
		t.Errorf("plainHTTP passes %d of the cases, not the plain ones", passed)
	}
}

// FuzzPlainHTTP is TestPlainHTTPNeverHidesAProblem on any string.
func FuzzPlainHTTP(f *testing.F) {
	for _, s := range plainCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plainHTTP(s) && anyURIProblem(s) != "" {
			t.Errorf("plainHTTP(%q) passes it, the full check says %q", s, anyURIProblem(s))
		}
	})
}
