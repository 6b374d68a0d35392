package text

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// plainLocCandidates are URLs as lines hold them, near the edges of what
// plainLoc takes: ports, hosts ParseLoc rewrites or refuses, escapes of
// each kind, dot segments, fragments, queries, lengths.
var plainLocCandidates = []string{
	"https://www.example.com/",
	"https://www.example.com/a/b.html?x=1&y=2",
	"http://example.com/path;jsessionid=1",
	"https://example.com/caf%C3%A9/",
	"https://example.com/caf%c3%a9/",
	"https://example.com/%41bc",
	"https://example.com/a%2Fb",
	"https://example.com/a%2",
	"https://example.com/a/./b",
	"https://example.com/a/../b",
	"https://example.com/a/.b/..c",
	"https://example.com/a#",
	"https://example.com/a#frag",
	"https://example.com/a?",
	"https://example.com/a?&",
	"https://example.com/a?x=1&&y",
	"https://example.com:443/a",
	"https://example.com:8443/a",
	"https://example.com:99999/a",
	"https://example.com:0/a",
	"https://example.com:/a",
	"https://my_host.example.com/a",
	"https://example.com./a",
	"https://.example.com/a",
	"https://exa..mple.com/a",
	"https://-example-.com/a",
	"https://xn--caf-dma.example/a",
	"https://user@example.com/a",
	"https://[::1]/a",
	"https://127.0.0.1/a",
	"https://EXAMPLE.com/a",
	"HTTPS://example.com/a",
	"https://example.com",
	"https://example.com?x",
	"ftp://example.com/a",
	"https:/example.com/a",
	"https:///a",
	"https://example.com/a b",
	"https://example.com/a|b",
	"https://example.com/a\"b",
	"https://example.com/a<b>",
	"https://example.com/é",
	"https://example.com/\x7f",
	"https://example.com/a\\b",
	"https://example.com/~user/",
	"https://example.com/%7Euser/",
	"https://example.com/a?b=%7E",
	"https://example.com/a?b=%7e",
	"https://example.com/" + strings.Repeat("a", formats.MaxLocLength-20),
	"https://example.com/" + strings.Repeat("a", formats.MaxLocLength),
}

// checkPlainLoc fails t when plainLoc takes s and ParseLoc would not
// return it as it is, or its normal form or scope are not s's.
func checkPlainLoc(t *testing.T, s string) bool {
	scope, ok := plainLoc(s)
	if !ok {
		return false
	}
	if loc, err := formats.ParseLoc(s, nil); err != nil || loc != s {
		t.Fatalf("plainLoc takes %q, which ParseLoc makes %q, %v", s, loc, err)
	}
	if key, sc := (*normalize.Options)(nil).URLScope(s); key != s || sc != scope {
		t.Fatalf("plainLoc takes %q with scope %d; its normal form is %q, scope %d", s, scope, key, sc)
	}
	return true
}

// TestPlainLocIsParsed checks plainLoc against ParseLoc and the normal
// form on the candidates and on mutations of them: it takes no loc that
// ParseLoc would change or refuse, and it takes the common ones.
func TestPlainLocIsParsed(t *testing.T) {
	taken := 0
	for _, s := range plainLocCandidates {
		if checkPlainLoc(t, s) {
			taken++
		}
	}
	if taken < 8 || taken > len(plainLocCandidates)-20 {
		t.Errorf("plainLoc takes %d of the %d candidates", taken, len(plainLocCandidates))
	}
	const alphabet = "aZ09-._~:/?#[]@!$&'()*+,;=%%%% \"<>\\^`{|}\x00\x7f\xc3\xa9"
	r := rand.New(rand.NewPCG(7, 11))
	taken = 0
	for range 200000 {
		b := []byte(plainLocCandidates[r.IntN(len(plainLocCandidates)-2)])
		for range 1 + r.IntN(3) {
			i := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[i] = alphabet[r.IntN(len(alphabet))]
			case 1:
				b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
			default:
				b = append(b[:i], b[i+1:]...)
			}
			if len(b) == 0 {
				b = append(b, 'h')
			}
		}
		if checkPlainLoc(t, string(b)) {
			taken++
		}
	}
	if taken < 10000 {
		t.Errorf("plainLoc takes only %d of 200,000 mutations", taken)
	}
}

// FuzzPlainLoc checks plainLoc against ParseLoc and the normal form.
func FuzzPlainLoc(f *testing.F) {
	for _, s := range plainLocCandidates {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkPlainLoc(t, s) })
}

// TestReaderGivesNormalForms checks that the reader says which URLs it
// found normal as it read them, with their scope as URLScope computes it,
// and none under strict reading.
func TestReaderGivesNormalForms(t *testing.T) {
	in := strings.Join(plainLocCandidates, "\n") + "\n"
	for _, strict := range []bool{false, true} {
		r := NewReader(strings.NewReader(in), formats.ReadOptions{Strict: strict, Warn: func(*formats.ParseError) {}})
		given := 0
		for {
			e, err := r.Next()
			if err != nil {
				break
			}
			scope, ok := r.NormalScope()
			key := e.Loc
			if _, taken := plainLoc(e.Loc); ok && (strict || !taken) {
				t.Fatalf("strict %v: %q: a form given", strict, e.Loc)
			}
			if ok {
				given++
				if k, sc := (*normalize.Options)(nil).URLScope(e.Loc); key != k || scope != sc {
					t.Errorf("%q: form %q, %d; URLScope gives %q, %d", e.Loc, key, scope, k, sc)
				}
			}
		}
		if strict != (given < 8) {
			t.Errorf("strict %v: %d forms given", strict, given)
		}
	}
}
