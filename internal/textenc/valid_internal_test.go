package textenc

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// validPrefixByByte is validPrefix a byte at a time, as it was before it
// took printable ASCII many bytes at a time (asciiset spans).
func validPrefixByByte(b []byte) int {
	i := 0
	for i < len(b) {
		if c := b[i]; c < utf8.RuneSelf {
			if !allowed.Has(c) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || r == 0xFFFE || r == 0xFFFF {
			return i
		}
		i += size
	}
	return i
}

// The scan by spans stops where the byte-at-a-time one does, for every
// byte value at every offset, and on random mixtures of printable ASCII,
// controls, UTF-8 and broken sequences.
func TestValidPrefixSpansAgreeWithBytes(t *testing.T) {
	base := []byte("https://www.example.com/a-long-path/segment?q=1")
	for pos := range len(base) {
		for c := range 256 {
			b := append([]byte(nil), base...)
			b[pos] = byte(c)
			if got, want := validPrefix(b), validPrefixByByte(b); got != want {
				t.Fatalf("byte %#x at %d: %d, want %d", c, pos, got, want)
			}
		}
	}
	pieces := []string{"abcdefgh", "x", "\n", "\t", "\r", "\x00", "\x1f", "\x7f", "é", "✓", "\xff", "\xe2\x9c", "\uFFFE", " ", "~"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b []byte
		for range rng.IntN(40) {
			b = append(b, pieces[rng.IntN(len(pieces))]...)
		}
		if got, want := validPrefix(b), validPrefixByByte(b); got != want {
			t.Fatalf("%q: %d, want %d", b, got, want)
		}
	}
}

// BenchmarkValidPrefix compares the scan of a URL list eight bytes at a
// time with the scan a byte at a time, side by side.
func BenchmarkValidPrefix(b *testing.B) {
	var list []byte
	for i := range 20000 {
		list = append(list, "https://www.example.com/articles/2024/05/a-long-path-segment-here?id="...)
		list = append(list, byte('0'+i%10), '\n')
	}
	for name, scan := range map[string]func([]byte) int{"spans": validPrefix, "bytes": validPrefixByByte} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(list)))
			for b.Loop() {
				if scan(list) != len(list) {
					b.Fatal("stopped early")
				}
			}
		})
	}
}
