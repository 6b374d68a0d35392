package feed

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

// TestInputMatchesBytes checks every method of input, on data read into
// blocks of a few bytes, against the same operation on the data in one
// slice.
func TestInputMatchesBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "<", ">", " ", "\n", "\t", "\u00a0", "\u2003", "é", "\xff", "\r"}
	for round := range 200 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		data := []byte(b.String())
		oldMin, oldMax := blockMin, blockMax
		blockMin, blockMax = 1+rng.IntN(3), 1+rng.IntN(8)
		in, err := readInput(bytes.NewReader(data))
		blockMin, blockMax = oldMin, oldMax
		if err != nil {
			t.Fatal(err)
		}
		if in.Len() != len(data) {
			t.Fatalf("round %d: Len %d, want %d", round, in.Len(), len(data))
		}
		for a := 0; a <= len(data); a++ {
			if got, want := in.skip(a, " \t\n"), a+len(data[a:])-len(bytes.TrimLeft(data[a:], " \t\n")); got != want {
				t.Errorf("round %d: skip(%d) = %d, want %d", round, a, got, want)
			}
			want := bytes.IndexByte(data[a:], '>')
			if want >= 0 {
				want += a
			}
			if got := in.index(a, '>'); got != want {
				t.Errorf("round %d: index(%d) = %d, want %d", round, a, got, want)
			}
			before := data[:a]
			line, col := bytes.Count(before, []byte("\n"))+1, len(before)-bytes.LastIndexByte(before, '\n')
			if l, c := in.position(int64(a)); l != line || c != col {
				t.Errorf("round %d: position(%d) = %d, %d; want %d, %d", round, a, l, c, line, col)
			}
			for z := a; z <= len(data); z++ {
				if got := in.slice(a, z); !bytes.Equal(got, data[a:z]) {
					t.Errorf("round %d: slice(%d, %d) = %q, want %q", round, a, z, got, data[a:z])
				}
				if got, _ := io.ReadAll(in.reader(a, z)); !bytes.Equal(got, data[a:z]) {
					t.Errorf("round %d: reader(%d, %d) gave %q, want %q", round, a, z, got, data[a:z])
				}
				if got, want := in.spaceOnly(a, z), len(bytes.TrimFunc(data[a:z], unicode.IsSpace)) == 0; got != want {
					t.Errorf("round %d: spaceOnly(%q) = %v", round, data[a:z], got)
				}
			}
		}
		if l, c := in.position(int64(len(data) + 1)); l != 0 || c != 0 {
			t.Errorf("round %d: position past the end = %d, %d", round, l, c)
		}
		if len(data) >= 3 {
			k := rng.IntN(len(data) - 2)
			in.trimFront(k)
			in.put(1, []byte("xy"))
			in.prepend([]byte("<>"))
			want := append([]byte("<>"), data[k:]...)
			copy(want[3:], "xy")
			if got := in.slice(0, in.Len()); !bytes.Equal(got, want) {
				t.Errorf("round %d: after trimFront(%d), put and prepend: %q, want %q", round, k, got, want)
			}
		}
	}
}
