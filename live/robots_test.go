package live

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The examples of RFC 9309.
func TestRobotsRFCSimpleExample(t *testing.T) {
	// Section 5.1.
	r := ParseRobots([]byte(`User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`))
	for _, c := range []struct {
		agent, path string
		allowed     bool
	}{
		{"foobot", "/example/page.html", true},
		{"foobot", "/example/allowed.gif", true},
		{"foobot", "/example/other.html", false},
		{"foobot", "/", false},
		{"FooBot", "/example/other.html", false}, // agents match ignoring case
		{"barbot", "/example/page.html", false},
		{"bazbot", "/example/page.html", false},
		{"barbot", "/example/other.html", true},
		{"barbot", "/a.gif", true}, // its own group, not *'s
		{"quxbot", "/example/page.html", true},
		{"quxbot", "/a.gif", true},
		{"otherbot", "/a.gif", false},
		{"otherbot", "/a.gif?x", true}, // $ anchors at the end
		{"otherbot", "/example/x", false},
		{"otherbot", "/publications/x", true},
		{"otherbot", "/robots.txt", true},
	} {
		assert.Equal(t, c.allowed, r.Allowed(c.agent, c.path).Allowed, "%s %s", c.agent, c.path)
	}
}

func TestRobotsRFCLongestMatch(t *testing.T) {
	// Section 5.2, and 2.2.2: the longest match wins; allow wins a tie.
	r := ParseRobots([]byte("User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"))
	assert.True(t, r.Allowed("foobot", "/example/page/").Allowed)
	assert.True(t, r.Allowed("foobot", "/example/page/other").Allowed)
	v := r.Allowed("foobot", "/example/page/disallowed.gif")
	assert.Equal(t, Verdict{Allowed: false, Rule: "Disallow: /example/page/disallowed.gif", Line: 3}, v)

	tie := ParseRobots([]byte("user-agent: *\ndisallow: /page\nallow: /page\n"))
	assert.True(t, tie.Allowed("x", "/page").Allowed)
}

func TestRobotsRFCGroupsMerge(t *testing.T) {
	// Section 2.2.1: groups naming the same agent are merged; other lines
	// (sitemap) do not end a group.
	r := ParseRobots([]byte("user-agent: ExampleBot\ndisallow: /foo\nsitemap: https://example.com/s.xml\ndisallow: /bar\n\nuser-agent: ExampleBot\ndisallow: /baz\n"))
	for _, p := range []string{"/foo", "/bar", "/baz/x"} {
		assert.False(t, r.Allowed("examplebot", p).Allowed, p)
	}
	assert.True(t, r.Allowed("examplebot", "/qux").Allowed)
	// No group for the agent and no * group: everything is allowed.
	assert.True(t, r.Allowed("otherbot", "/foo").Allowed)
}

func TestRobotsRFCSpecialCharacters(t *testing.T) {
	// Section 2.2.3.
	r := ParseRobots([]byte("User-agent: *\nDisallow: / # everything\nAllow: /this/path/exactly$\nAllow: /this/*/exactly\n"))
	assert.True(t, r.Allowed("*", "/this/path/exactly").Allowed)
	assert.True(t, r.Allowed("*", "/this/path/exactly/not").Allowed, "the * rule has no $")
	assert.False(t, r.Allowed("*", "/this/exactly").Allowed)
	anchored := ParseRobots([]byte("User-agent: *\nDisallow: /\nAllow: /exact$\n"))
	assert.True(t, anchored.Allowed("*", "/exact").Allowed)
	assert.False(t, anchored.Allowed("*", "/exact/not").Allowed)
	assert.True(t, r.Allowed("*", "/this/a/b/exactly").Allowed)
	assert.False(t, r.Allowed("*", "/other").Allowed)
}

func TestRobotsRFCPercentEncoding(t *testing.T) {
	// Section 2.2.2, table 1: a rule matches the URL whose path is the
	// same after percent-encoding and decoding unreserved characters.
	for _, c := range []struct{ rule, path string }{
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz"},
		{"/foo/bar/ツ", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"},
		{"/foo/bar/%62%61%7A", "/foo/bar/baz"},
		{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84"},
	} {
		r := ParseRobots([]byte("User-agent: *\nDisallow: " + c.rule + "\n"))
		assert.False(t, r.Allowed("Googlebot", c.path).Allowed, "%s against %s", c.rule, c.path)
	}
}

func TestRobotsEdgeCases(t *testing.T) {
	// An empty disallow matches nothing; rules before any user-agent line
	// belong to no group; a BOM and CRLF are read.
	r := ParseRobots([]byte("\uFEFFDisallow: /\r\nUser-agent: *\r\nDisallow:\r\n"))
	assert.True(t, r.Allowed("Googlebot", "/a").Allowed)
	// Only the first RobotsMaxBytes are parsed.
	big := "User-agent: *\n" + strings.Repeat("# padding\n", RobotsMaxBytes/10) + "Disallow: /late\n"
	assert.True(t, ParseRobots([]byte(big)).Allowed("x", "/late").Allowed)
	// An unreachable robots.txt disallows everything but itself.
	all := disallowAll("answered 503")
	assert.False(t, all.Allowed("x", "/").Allowed)
	assert.True(t, all.Allowed("x", "/robots.txt").Allowed)
}
