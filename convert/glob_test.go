package convert

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGlobSyntax(t *testing.T) {
	for _, c := range []struct {
		glob  string
		match []string
		not   []string
	}{
		{"/*.html", []string{"/a.html"}, []string{"/b/a.html", "/a.htm"}},
		{"/**/*.html", []string{"/a.html", "/b/a.html", "/b/c/a.html"}, []string{"/a.php"}},
		{"**/*.html", []string{"/a.html", "/b/a.html"}, []string{"/a.php"}},
		{"/blog/**", []string{"/blog/", "/blog/a/b"}, []string{"/blogs/a"}},
		{"/[ab]/*", []string{"/a/x", "/b/x"}, []string{"/c/x", "/ab/x"}},
		{"/[a-c]", []string{"/a", "/c"}, []string{"/d", "/-"}},
		{"/[!a]", []string{"/b"}, []string{"/a", "//"}},
		{"/[^a]", []string{"/b"}, []string{"/a"}},
		{"/[]]", []string{"/]"}, []string{"/a"}},
		{"/[a\\-c]", []string{"/-", "/a", "/c"}, []string{"/b"}},
		{"/**/*.{html,php}", []string{"/a.html", "/x/a.php"}, []string{"/a.asp", "/a.{html,php}"}},
		{"{/a,/b}/*", []string{"/a/x", "/b/x"}, []string{"/c/x"}},
		{"/a\\*", []string{"/a*"}, []string{"/ab"}},
		{"/a?c", []string{"/abc"}, []string{"/a/c"}},
		{"/a.b+c(d)", []string{"/a.b+c(d)"}, []string{"/aXb+c(d)"}},
	} {
		re, err := globRegexp(c.glob)
		require.NoError(t, err, c.glob)
		for _, p := range c.match {
			assert.True(t, re.MatchString(p), "%s matches %s", c.glob, p)
		}
		for _, p := range c.not {
			assert.False(t, re.MatchString(p), "%s does not match %s", c.glob, p)
		}
	}
}

func TestGlobThatCannotMatchIsAnError(t *testing.T) {
	for glob, want := range map[string]string{
		"*.html":                   "did you mean /**/*.html (in any directory) or /*.html (at the top)?",
		"blog/*":                   "never matches",
		"https://a.example/blog/*": "drop the scheme and host",
		"{/a,b}":                   "never matches",
		"/[abc":                    "a [ has no closing ]",
		"/{a,b":                    "a { has no closing }",
		"/a\\":                     "lone",
		"":                         "empty",
	} {
		err := (&FilterOptions{Exclude: []string{glob}}).Validate()
		require.Error(t, err, "%q", glob)
		assert.Contains(t, err.Error(), want, "%q", glob)
	}
}
