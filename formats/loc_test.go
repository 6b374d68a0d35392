package formats_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

func TestParseLoc(t *testing.T) {
	base, _ := url.Parse("https://example.org/feeds/main.xml")
	tests := []struct {
		name, in string
		base     *url.URL
		want     string
		err      error
	}{
		{"plain", "https://example.com/a?b=1&c=2", nil, "https://example.com/a?b=1&c=2", nil},
		{"no path", "http://example.com", nil, "http://example.com", nil},
		{"port kept", "http://example.com:8080/x", nil, "http://example.com:8080/x", nil},
		{"empty fragment dropped", "http://example.com/a#", nil, "http://example.com/a", nil},
		{"empty fragment dropped, not canonical", "http://Example.com/a#", nil, "http://example.com/a", nil},
		{"fragment kept", "http://example.com/a#b", nil, "http://example.com/a#b", nil},
		{"IPv6 host", "http://[2001:DB8::1]:8080/x", nil, "http://[2001:db8::1]:8080/x", nil},
		{"IPv6 literal that is not an address", "http://[ ]/x", nil, "", formats.ErrLocHost},
		{"IPv4 in brackets", "http://[192.0.2.1]/x", nil, "", formats.ErrLocHost},
		{"trimmed", " \t\n https://example.com/ \u00a0\u200b", nil, "https://example.com/", nil},
		{"scheme and host lower-cased", "HTTPS://WWW.Example.COM/Path", nil, "https://www.example.com/Path", nil},
		{"idn host to punycode", "https://bücher.example/straße", nil, "https://xn--bcher-kva.example/stra%C3%9Fe", nil},
		{"existing escape kept", "https://example.com/a%20b%2Fc", nil, "https://example.com/a%20b%2Fc", nil},
		{"lower-case escape kept", "https://example.com/%e4", nil, "https://example.com/%e4", nil},
		{"stray percent", "https://example.com/100%", nil, "https://example.com/100%25", nil},
		{"space encoded", "https://example.com/my page.html", nil, "https://example.com/my%20page.html", nil},
		{"forbidden ascii", `https://example.com/a"b<c>{d}|e\f^g` + "`", nil, "https://example.com/a%22b%3Cc%3E%7Bd%7D%7Ce%5Cf%5Eg%60", nil},
		{"second hash encoded", "https://example.com/a#b#c", nil, "https://example.com/a#b%23c", nil},
		{"credentials refused", "https://user:pw@example.com/", nil, "", formats.ErrLocHost},
		{"user refused", "https://a@b@example.com/", nil, "", formats.ErrLocHost},
		{"ipv6", "http://[::1]:8080/", nil, "http://[::1]:8080/", nil},
		{"relative with base", "post/1", base, "https://example.org/feeds/post/1", nil},
		{"root-relative with base", "/relative/uri", base, "https://example.org/relative/uri", nil},
		{"protocol-relative with base", "//cdn.example.net/x", base, "https://cdn.example.net/x", nil},
		{"relative without base", "post/1", nil, "", formats.ErrLocRelative},
		{"empty", "  ", nil, "", formats.ErrLocEmpty},
		{"ftp", "ftp://example.com/file", nil, "", formats.ErrLocScheme},
		{"javascript", "javascript:alert(1)", nil, "", formats.ErrLocScheme},
		{"tag uri", "tag:example.com,2024:1", nil, "", formats.ErrLocScheme},
		{"no host", "http:///path", nil, "", formats.ErrLocHost},
		{"no slashes", "http:example.com", nil, "", formats.ErrLocHost},
		{"bad port", "http://example.com:80a/", nil, "", formats.ErrLocHost},
		{"bad host character", "http://exa mple.com/", nil, "", formats.ErrLocHost},
		{"glued urls", "https://a.example/x https://b.example/y", nil, "", formats.ErrLocSpace},
		{"glued by newline", "https://a.example/x\nmore", nil, "", formats.ErrLocSpace},
		{"too long", "https://example.com/" + strings.Repeat("a", 2048), nil, "", formats.ErrLocTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := formats.ParseLoc(tt.in, tt.base)
			if tt.err != nil {
				require.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			again, err := formats.ParseLoc(got, nil)
			require.NoError(t, err)
			assert.Equal(t, got, again, "ParseLoc must be idempotent")
		})
	}
}

func TestParseLocLengthLimit(t *testing.T) {
	prefix := "https://example.com/"
	ok := prefix + strings.Repeat("a", formats.MaxLocLength-len(prefix))
	got, err := formats.ParseLoc(ok, nil)
	require.NoError(t, err)
	assert.Len(t, got, formats.MaxLocLength)
	_, err = formats.ParseLoc(ok+"a", nil)
	assert.ErrorIs(t, err, formats.ErrLocTooLong)
	// Encoding can push a URL over the limit.
	_, err = formats.ParseLoc(prefix+strings.Repeat("é", 1000), nil)
	assert.ErrorIs(t, err, formats.ErrLocTooLong)
}

func FuzzParseLoc(f *testing.F) {
	for _, s := range []string{"https://example.com/a?b#c", "http://bücher.example/ä b", "/rel", "http://[::1]:80/%zz", "HTTP://A.B:1",
		"https://e.com/a?q[]=1#f[1]", "https://e.com:65536/", "https://e.com:/x", "https://[fe80::1%25en0]/[x]", "a\vb"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://example.org/dir/")
	f.Fuzz(func(t *testing.T, s string) {
		for _, b := range []*url.URL{nil, base} {
			got, err := formats.ParseLoc(s, b)
			if err != nil {
				continue
			}
			if !strings.HasPrefix(got, "http://") && !strings.HasPrefix(got, "https://") {
				t.Fatalf("ParseLoc(%q) = %q: not http(s)", s, got)
			}
			if len(got) > formats.MaxLocLength {
				t.Fatalf("ParseLoc(%q) = %d bytes", s, len(got))
			}
			for i := 0; i < len(got); i++ {
				if got[i] <= ' ' || got[i] >= 0x7f {
					t.Fatalf("ParseLoc(%q) = %q: byte %#x", s, got, got[i])
				}
			}
			again, err := formats.ParseLoc(got, nil)
			if err != nil || again != got {
				t.Fatalf("not idempotent: %q -> %q -> %q, %v", s, got, again, err)
			}
			if p := uri.AnyURIProblem(got); p != "" {
				t.Fatalf("ParseLoc(%q) = %q, which the schemas' anyURI refuses: %s", s, got, p)
			}
		}
	})
}

// TestParseLocSeparators: every separator or control character between two
// URLs makes the value several URLs, refused, never one glued URL; around a
// single URL it is trimmed.
func TestParseLocSeparators(t *testing.T) {
	seps := []string{
		"\t", "\n", "\v", "\f", "\r", " ", "\u0085", "\u2028", "\u2029", // white space
		"\u00a0", "\u1680", "\u2000", "\u2007", "\u200a", "\u202f", "\u205f", "\u3000", // Zs
		"\x00", "\x01", "\x1b", "\x1f", "\x7f", "\u0080", "\u009f", // C0, DEL, C1
		"\u200b", "\u2060", "\ufeff", "\u180e", // invisible
		"\v\u2028 ",
	}
	for _, sep := range seps {
		for _, second := range []string{"https://b.example/y", "HTTP://b.example/y", "//b.example/y"} {
			in := "https://a.example/x" + sep + second
			got, err := formats.ParseLoc(in, nil)
			if !assert.ErrorIs(t, err, formats.ErrLocSpace, "%q gave %q", in, got) {
				continue
			}
			assert.Contains(t, err.Error(), "several URLs run together")
		}
		got, err := formats.ParseLoc(sep+"https://a.example/x"+sep, nil)
		if assert.NoError(t, err, "%q around a URL", sep) {
			assert.Equal(t, "https://a.example/x", got)
		}
	}
	// Inside a single URL: a line break is never part of one, nor a control
	// character; space is encoded, as sources put it in paths.
	for _, c := range []string{"\v", "\f", "\u0085", "\u2028", "\u2029"} {
		_, err := formats.ParseLoc("https://a.example/x"+c+"y", nil)
		assert.ErrorIs(t, err, formats.ErrLocSpace, "%q", c)
	}
	for _, c := range []string{"\x01", "\x7f", "\u0080", "\u009f", "\x00"} {
		_, err := formats.ParseLoc("https://a.example/x"+c+"y", nil)
		assert.ErrorIs(t, err, formats.ErrLocControl, "%q", c)
	}
	for in, want := range map[string]string{
		"https://a.example/my page":         "https://a.example/my%20page",
		"https://a.example/my\u00a0page":    "https://a.example/my%C2%A0page",
		"https://a.example/a\u200bb":        "https://a.example/a%E2%80%8Bb",
		"https://a.example/q?x=a b&y=c:d/e": "https://a.example/q?x=a%20b&y=c:d/e",
	} {
		got, err := formats.ParseLoc(in, nil)
		if assert.NoError(t, err, "%q", in) {
			assert.Equal(t, want, got)
		}
	}
}

// TestParseLocSchemaSafe: what ParseLoc returns is an anyURI the sitemap
// schemas accept (xmllint's libxml2): brackets outside an IPv6 host are
// encoded, and a port must be a number from 1 to 65535.
func TestParseLocSchemaSafe(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/a?q[]=1&q[]=2":     "https://example.com/a?q%5B%5D=1&q%5B%5D=2",
		"https://example.com/list[1]/x":         "https://example.com/list%5B1%5D/x",
		"https://example.com/a#frag[1]":         "https://example.com/a#frag%5B1%5D",
		"HTTPS://Example.com/a?f[x]=1":          "https://example.com/a?f%5Bx%5D=1",
		"https://[2001:db8::1]:8443/a[b]":       "https://[2001:db8::1]:8443/a%5Bb%5D",
		"https://example.com:65535/":            "https://example.com:65535/",
		"https://example.com:00080/":            "https://example.com:00080/",
		"https://example.com:/a":                "https://example.com/a",
		"https://example.com/a'b!$&()*+,;=:@~x": "https://example.com/a'b!$&()*+,;=:@~x",
	} {
		got, err := formats.ParseLoc(in, nil)
		if assert.NoError(t, err, "%q", in) {
			assert.Equal(t, want, got, "%q", in)
		}
	}
	base, _ := url.Parse("https://example.com/shop/")
	got, err := formats.ParseLoc("item?opt[]=a", base)
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/shop/item?opt%5B%5D=a", got)
	for _, in := range []string{
		"https://example.com:65536/", "https://example.com:99999999999999999999999/",
		"https://example.com:2147483648/", "https://example.com:0/", "https://example.com:000/",
		"https://[::1]:70000/", "https://example.com:8a/", "https://example.com:-1/",
	} {
		_, err := formats.ParseLoc(in, nil)
		assert.ErrorIs(t, err, formats.ErrLocHost, "%q", in)
		assert.ErrorIs(t, err, formats.ErrLocPort, "%q", in)
	}
}
