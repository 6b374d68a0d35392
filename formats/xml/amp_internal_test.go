package xml

import (
	"encoding/xml"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// strictEntityError reports whether encoding/xml in strict mode rejects
// the text s (which holds no '<') for a bare '&' or undeclared entity,
// and ok false when lenient mode rejects s too (for another reason).
func strictEntityError(s string) (bad, ok bool) {
	decode := func(strict bool) error {
		d := xml.NewDecoder(strings.NewReader("<a>" + s + "</a>"))
		d.Strict = strict
		for {
			if _, err := d.Token(); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	}
	if decode(false) != nil {
		return false, false
	}
	err := decode(true)
	return err != nil && strings.Contains(err.Error(), "invalid character entity"), true
}

// TestFirstLooseAmpMatchesEncodingXML checks firstLooseAmp against
// encoding/xml itself: it finds a bare '&' exactly when the strict decoder
// rejects the text for one.
func TestFirstLooseAmpMatchesEncodingXML(t *testing.T) {
	texts := []string{
		"", "a", "&", "&amp;", "&amp", "&ampx;", "&lt;&gt;&quot;&apos;", "&AMP;", "&nbsp;", "?a=1&b=2",
		"&#50;", "&#x32;", "&#X32;", "&#;", "&#x;", "&#xD800;", "&#1114111;", "&#1114112;", "&#99999999999;",
		"&#0000000000000000065;", "&#x00000000000000041;", "&#12", "&#12&amp;", "&#x4g;", "&;", "& ;", "&\u00e9;",
		"&amp;&amp;&", "a&amp;b&#38;c", "&#18446744073709551616;",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"&", "#", "x", "X", "a", "m", "p", ";", "l", "t", "q", "u", "o", "0", "1", "9", "A", "f", " ", "\u00e9", "\n"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(10) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, s := range texts {
		bad, ok := strictEntityError(s)
		if !ok {
			continue
		}
		if got := firstLooseAmp([]byte(s + "<")); (got >= 0) != bad {
			t.Fatalf("firstLooseAmp(%q) = %d; encoding/xml strict rejects it: %v", s, got, bad)
		}
	}
}

func TestLooseRef(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"&b=2</loc>", "&b"},
		{"&nbsp;x", "&nbsp;"},
		{"&#X41;", "&#X41;"},
		{"& x", "&"},
		{"&<", "&"},
		{"&", "&"},
		{"&" + strings.Repeat("a", 30) + ";", "&" + strings.Repeat("a", 23)},
		{"&" + strings.Repeat("a", 22) + ";", "&" + strings.Repeat("a", 22) + ";"},
		{"&a" + strings.Repeat("\u00e9", 12), "&a" + strings.Repeat("\u00e9", 11)},
	} {
		if got := looseRef([]byte(tc.in)); got != tc.want {
			t.Errorf("looseRef(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
