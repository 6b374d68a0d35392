package xml

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// appendEscapedByByte is appendEscaped as it was before it scanned with
// asciiset: what it must still write.
func appendEscapedByByte(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		if r := escapes[s[i]]; r != "" {
			b = append(b, s[last:i]...)
			b = append(b, r...)
			last = i + 1
		}
	}
	return append(b, s[last:]...)
}

// appendEscaped writes what the byte-at-a-time loop writes: every byte
// value at every position of texts of every length up to 70, and random
// mixtures of plain, escaped and non-ASCII bytes.
func TestAppendEscapedAgreesWithByteByByte(t *testing.T) {
	check := func(s string) {
		if got, want := string(appendEscaped([]byte("x"), s)), string(appendEscapedByByte([]byte("x"), s)); got != want {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	}
	for n := range 70 {
		base := strings.Repeat("a", n)
		check(base)
		for pos := range n {
			for c := range 256 {
				b := []byte(base)
				b[pos] = byte(c)
				check(string(b))
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "/", "&", "'", "\"", "<", ">", "é", "\xff", "日本", "https://e.com/"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		check(b.String())
	}
}
