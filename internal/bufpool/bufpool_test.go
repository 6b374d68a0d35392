package bufpool

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	Check()
	os.Exit(m.Run())
}

// A reader from the pool reads its own input from its first byte, never
// what the reader before it left buffered, and is never the input itself.
func TestReadersReadTheirOwnInput(t *testing.T) {
	p := &Readers{Size: 4096}
	first := p.Get(strings.NewReader(strings.Repeat("a", 10000)))
	if _, err := first.Peek(100); err != nil {
		t.Fatal(err)
	}
	p.Put(first) // 4,096 bytes buffered, 100 read
	for range 3 {
		b := p.Get(strings.NewReader("second input\n"))
		got, err := io.ReadAll(b)
		if err != nil || string(got) != "second input\n" {
			t.Fatalf("read %q, %v; want the second input", got, err)
		}
		if b.Size() != 4096 {
			t.Fatalf("buffer of %d bytes, want 4096", b.Size())
		}
		p.Put(b)
	}
	big := bufio.NewReaderSize(strings.NewReader("x"), 1<<20)
	if b := p.Get(big); b == big {
		t.Fatal("Get returned its input, a larger buffered reader, as bufio.NewReaderSize does")
	}
}

// A reader given back reads nothing: a misuse fails at once.
func TestReadersGivenBackReadNothing(t *testing.T) {
	p := &Readers{Size: 64}
	b := p.Get(strings.NewReader("text"))
	p.Put(b)
	defer func() {
		if recover() == nil {
			t.Fatal("a reader given back read on")
		}
	}()
	b.ReadByte()
}

// Under Check a buffer given back holds poison, so that a slice of it kept
// past Put shows; a slice of another size is not taken.
func TestBytesPoisonWhatIsGivenBack(t *testing.T) {
	p := &Bytes{Size: 32}
	b := p.Get()
	if len(b) != 0 || cap(b) != 32 {
		t.Fatalf("len %d cap %d, want 0 and 32", len(b), cap(b))
	}
	b = append(b, "https://example.com/"...)
	kept := b[:20]
	before := Given()
	p.Put(b)
	if !bytes.Equal(kept, bytes.Repeat([]byte{checkByte}, 20)) {
		t.Fatalf("a slice kept past Put reads %q, want poison", kept)
	}
	if Given() != before+1 {
		t.Fatalf("Given went from %d to %d, want one more", before, Given())
	}
	p.Put(make([]byte, 10, 64))
	if Given() != before+1 {
		t.Fatal("a slice of another size was taken")
	}
	if got := p.Get(); cap(got) != 32 {
		t.Fatalf("cap %d, want 32", cap(got))
	}
}

// Under Check a reader's buffer given back holds poison too.
func TestReadersPoisonWhatIsGivenBack(t *testing.T) {
	p := &Readers{Size: 16}
	b := p.Get(strings.NewReader("abcdefghijklmnopqrstuvwxyz"))
	view, err := b.Peek(16) // a slice of the buffer itself
	if err != nil {
		t.Fatal(err)
	}
	p.Put(b)
	if !bytes.Equal(view, bytes.Repeat([]byte{checkByte}, 16)) {
		t.Fatalf("the buffer given back reads %q, want poison", view)
	}
}
