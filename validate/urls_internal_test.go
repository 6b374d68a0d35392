package validate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// normalFormCases are URLs with and without what normalize.Safe removes.
var normalFormCases = []string{
	"https://x.example/a?", "https://x.example:443/a", "https://x.example/./a", "https://x.example/a#b",
	"http://x.example:80/", "https://X.example/a", "https://x.example/a/..", "https://x.example/%41",
	"https://x.example?", "https://x.example", "https://u@x.example:443/?#", "https://x.example:0443/",
	"https://x.example/a?b=1", "https://x.example/",
}

// FuzzNormalFormIsTidy holds checkURL's shortcut to the rule it relies on:
// a URL in normal form (normalize.Key returns it unchanged) is tidy
// (normalize.Safe returns it unchanged), so loc-untidy need not be
// checked for it.
func FuzzNormalFormIsTidy(f *testing.F) {
	for _, s := range normalFormCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if normalize.Key(s) == s && normalize.Safe(s) != s {
			t.Fatalf("%q is in normal form, and normalize.Safe makes it %q", s, normalize.Safe(s))
		}
	})
}

// FuzzPlainURL holds checkURL's shortcut to the checks it skips: a plain
// URL is kept whole by collapse, and uriSyntax, absoluteHTTP, badURIChar
// and urlPort find nothing wrong with it.
func FuzzPlainURL(f *testing.F) {
	for _, s := range append(normalFormCases, "https://x.example/a b", "https://x.example/é", "https://%41/", "https:///a",
		"https://x.example/a%zz", "https://x.example/<", "https://x.example/a:b", "https://x:1/", "HTTP://X/") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !plainURL(s) {
			return
		}
		_, bad := badURIChar(s)
		_, hasPort := urlPort(s)
		if collapse(s) != s || uriSyntax(s) != "" || !absoluteHTTP(s) || bad || hasPort {
			t.Fatalf("plainURL(%q), and collapse %q, uriSyntax %q, absoluteHTTP %v, badURIChar %v, urlPort %v",
				s, collapse(s), uriSyntax(s), absoluteHTTP(s), bad, hasPort)
		}
	})
}

// FuzzNormalIsPlain holds plainPage's shortcut to plainURL: a loc found
// in normal form by normalize's one scan (its scope known) is plain
// exactly when plainNormal says so, and its pageForm is what URLScope
// gives.
func FuzzNormalIsPlain(f *testing.F) {
	for _, s := range append(normalFormCases, "https://x.example/a@b", "https://x.example:8080/a", "https://x.example/a:b",
		"https://x.example/a?b=@", "https://x_y.example/a", "https://x.example./a", "https://x.example/%7E", "https://x.example/a;b",
		"https://x.example/a%20b", "https://x.example/*+!$',()~", "https://x.example/a?b=c&d", "https://1.2.3.4/a") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		plain, form := plainPage(s)
		if plain != plainURL(s) {
			t.Fatalf("plainPage(%q) says %v, plainURL %v", s, plain, plainURL(s))
		}
		if key, scope := (*normalize.Options)(nil).URLScope(s); form != (pageForm{key, scope}) {
			t.Fatalf("plainPage(%q) gives %+v, URLScope %q, %d", s, form, key, scope)
		}
	})
}

func TestFoldedPrefixIsEqualFold(t *testing.T) {
	same := func(s, w string) {
		t.Helper()
		want := len(s) >= len(w) && strings.EqualFold(s[:len(w)], w)
		assert.Equal(t, want, foldedPrefix(s, w), "%q, %q", s, w)
	}
	for _, w := range sessionWords {
		// Every byte at every place of the word, and after it.
		for j := 0; j <= len(w); j++ {
			for b := range 256 {
				s := []byte(w + "x")
				s[j] = byte(b)
				same(string(s), w)
				same(string(s[:j+1]), w)
			}
		}
		// Characters that fold to ASCII letters (ſ to s, K to k) and
		// multi-byte ones in the word's place.
		for _, s := range []string{strings.ToUpper(w), "ſ" + w[1:], "\u212a" + w, w[:1] + "é" + w[1:], "ſession", "cftoKen", "cfto\u212aen"} {
			same(s, w)
		}
	}
}
