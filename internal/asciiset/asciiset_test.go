package asciiset

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// spanByByte is Span a byte at a time: what the vector scan must give.
func spanByByte(s *Set, t string) int {
	for i := 0; i < len(t); i++ {
		if !s.has[t[i]] {
			return i
		}
	}
	return len(t)
}

// sets are the kinds of set the callers use, and two odd ones.
var sets = map[string]*Set{
	"printable": Of(func(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\t' || c == '\n' || c == '\r' }),
	"uri":       Of(func(c byte) bool { return c > 0x20 && c < 0x7f && !strings.ContainsRune(`"<>\^`+"`{|}%#", rune(c)) }),
	"noescape":  Of(func(c byte) bool { return !strings.ContainsRune(`&'"<>`, rune(c)) }),
	"digits":    Of(func(c byte) bool { return '0' <= c && c <= '9' }),
	"empty":     Of(func(byte) bool { return false }),
	"all":       Of(func(byte) bool { return true }),
}

// Every byte value at every position of every length up to 100 stops the
// scan where a byte-at-a-time scan stops, in every set.
func TestSpanAgreesWithByteByByte(t *testing.T) {
	if !vector {
		t.Log("no vector scan on this machine: Span is the byte-at-a-time scan")
	}
	for name, s := range sets {
		var in byte
		for c := 0; c < 0x80; c++ {
			if s.has[c] {
				in = byte(c)
				break
			}
		}
		for n := 0; n <= 100; n++ {
			base := strings.Repeat(string(rune(in)), n)
			if got, want := s.Span(base), spanByByte(s, base); got != want {
				t.Fatalf("%s: %q: Span %d, want %d", name, base, got, want)
			}
			for pos := 0; pos < n; pos++ {
				for c := 0; c < 256; c++ {
					b := []byte(base)
					b[pos] = byte(c)
					if got, want := s.SpanBytes(b), spanByByte(s, string(b)); got != want {
						t.Fatalf("%s: %q: Span %d, want %d", name, b, got, want)
					}
				}
			}
		}
	}
}

// Random texts with a few bytes outside the set, at random, in random sets.
func TestSpanAgreesOnRandomSets(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var member [128]bool
		for c := range member {
			member[c] = r.IntN(4) != 0
		}
		s := Of(func(c byte) bool { return member[c] })
		var ins []byte
		for c := range member {
			if member[c] {
				ins = append(ins, byte(c))
			}
		}
		if len(ins) == 0 {
			continue
		}
		b := make([]byte, r.IntN(300))
		for i := range b {
			b[i] = ins[r.IntN(len(ins))]
			if r.IntN(200) == 0 {
				b[i] = byte(r.IntN(256))
			}
		}
		// A text that is a window of a longer one: the scan must not look
		// past its end.
		off := r.IntN(len(b) + 1)
		w := b[off:]
		if got, want := s.SpanBytes(w), spanByByte(s, string(w)); got != want {
			t.Fatalf("%q: Span %d, want %d", w, got, want)
		}
	}
}

func FuzzSpan(f *testing.F) {
	f.Add("https://www.example.com/a/b?c=d&e", 0)
	f.Add(strings.Repeat("a", 40)+"\x80", 1)
	f.Fuzz(func(t *testing.T, text string, which int) {
		names := []string{"printable", "uri", "noescape", "digits", "empty", "all"}
		s := sets[names[uint(which)%uint(len(names))]]
		if got, want := s.Span(text), spanByByte(s, text); got != want {
			t.Fatalf("%q: Span %d, want %d", text, got, want)
		}
	})
}

func BenchmarkSpan(b *testing.B) {
	url := "https://www.example.com/blog/2022/04/server-kitchen-history-archive-mountain-notes-index-notes-2/"
	s := sets["uri"]
	b.Run("vector", func(b *testing.B) {
		for b.Loop() {
			s.Span(url)
		}
	})
	b.Run("bytes", func(b *testing.B) {
		for b.Loop() {
			spanByByte(s, url)
		}
	})
}
