package formats

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// uriSafeByte is uri.Safe as the table isCanonical read a byte at a time.
var uriSafeByte = func() (t [256]bool) {
	for c := byte(0x21); c < 0x7f; c++ {
		t[c] = !strings.ContainsRune(uri.Excluded+"%#", rune(c))
	}
	return
}()

// isCanonicalByByte is isCanonical as it was before it scanned with
// asciiset: what it must still say.
func isCanonicalByByte(s string) (ok, hash bool) {
	var rest string
	switch {
	case strings.HasPrefix(s, "https://"):
		rest = s[8:]
	case strings.HasPrefix(s, "http://"):
		rest = s[7:]
	default:
		return false, false
	}
	if len(s) > MaxLocLength {
		return false, false
	}
	i := 0
	for ; i < len(rest); i++ {
		c := rest[i]
		if c == '/' || c == '?' || c == '#' {
			break
		}
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == ':') {
			return false, false
		}
	}
	if host, port, hasPort := strings.Cut(rest[:i], ":"); host == "" || hasPort {
		if _, ok := uri.ParsePort(port); host == "" || !ok {
			return false, false
		}
	}
	for ; i < len(rest); i++ {
		c := rest[i]
		if !uriSafeByte[c] {
			if c == '%' && i+2 < len(rest) && uri.IsHex(rest[i+1]) && uri.IsHex(rest[i+2]) {
				continue
			}
			if c == '#' && !hash {
				hash = true
				continue
			}
			return false, false
		}
	}
	return true, hash
}

// uri.Safe is the set the byte-at-a-time scan used.
func TestURISafeIsTheTable(t *testing.T) {
	for c := range 256 {
		if uri.Safe.Has(byte(c)) != uriSafeByte[c] {
			t.Errorf("%q: uri.Safe %v, the table %v", c, uri.Safe.Has(byte(c)), uriSafeByte[c])
		}
	}
}

// isCanonical says what the byte-at-a-time scan says: on URLs with every
// byte value at every position, and on random mixtures.
func TestIsCanonicalAgreesWithByteByByte(t *testing.T) {
	check := func(s string) {
		ok, hash := isCanonical(s)
		wok, whash := isCanonicalByByte(s)
		if ok != wok || hash != whash {
			t.Fatalf("%q: isCanonical %v %v, byte by byte %v %v", s, ok, hash, wok, whash)
		}
	}
	for _, s := range []string{
		"https://www.example.com/blog/2022/04/server-kitchen-history-archive-mountain-notes-index-notes-2/",
		"http://e.com:8080/a?b=c#d", "https://e.com", "https://e.com/%41%zz", "https://e.com/a#b#c", "https://e.com:/",
		"https://[::1]/", "https://e.com?q", "https://e.com#f", "https://E.com/", "https://e.com/%4",
	} {
		check(s)
		for pos := range len(s) {
			for c := range 256 {
				b := []byte(s)
				b[pos] = byte(c)
				check(string(b))
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "ab/.%41#?:[] \x7f\xc3"
	for range 20000 {
		var b strings.Builder
		b.WriteString("https://e.com")
		for range r.IntN(80) {
			b.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		check(b.String())
	}
}
