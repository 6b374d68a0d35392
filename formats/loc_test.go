package formats_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
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

func TestTrimSpace(t *testing.T) {
	assert.Equal(t, "x", formats.TrimSpace("\ufeff\u00a0\u2003\t\r\n x \u200b\u3000"))
	assert.Equal(t, "a b", formats.TrimSpace(" a b "))
}

func FuzzParseLoc(f *testing.F) {
	for _, s := range []string{"https://example.com/a?b#c", "http://bücher.example/ä b", "/rel", "http://[::1]:80/%zz", "HTTP://A.B:1"} {
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
		}
	})
}
