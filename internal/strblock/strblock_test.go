package strblock

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestStrings checks that the strings made keep their bytes when the
// buffer they came from is written again, that short ones share a block
// and that long and empty ones do not take one.
func TestStrings(t *testing.T) {
	s := Strings{Size: 64}
	buf := []byte("abcdefgh")
	a := s.String(buf)
	copy(buf, "XXXXXXXX")
	b := s.String(buf)
	if a != "abcdefgh" || b != "XXXXXXXX" {
		t.Fatalf("got %q, %q", a, b)
	}
	if len(s.block) != 16 {
		t.Errorf("two short strings: block holds %d bytes, want 16", len(s.block))
	}
	long := bytes.Repeat([]byte("y"), 17)
	if got := s.String(long); got != strings.Repeat("y", 17) || len(s.block) != 16 {
		t.Errorf("a long string: %q, block %d bytes", got, len(s.block))
	}
	if s.String(nil) != "" {
		t.Error("empty")
	}
	for i := range 20 { // past the first block
		if got := s.String([]byte{byte('a' + i), 'z'}); got != string([]byte{byte('a' + i), 'z'}) {
			t.Fatalf("%d: %q", i, got)
		}
	}
	if a != "abcdefgh" {
		t.Errorf("an earlier string changed: %q", a)
	}
}

// TestRecycler checks that a block is used again only once every batch
// its strings went out in is done with, oldest block first, and that the
// strings of the blocks not yet used again keep their bytes.
func TestRecycler(t *testing.T) {
	var rec Recycler
	s := Strings{Size: 64}
	s.Recycle(&rec)
	line := func(i int) []byte { return []byte(fmt.Sprintf("url-%011d", i)) } // 15 bytes: 4 to a block
	var got []string
	var blocks []*byte // the first byte of each block, as made
	for batch := uint64(1); batch <= 6; batch++ {
		rec.Begin(batch)
		for i := range 8 { // two blocks a batch
			str := s.String(line(int(batch)*100 + i))
			got = append(got, str)
			if len(s.block) == len(str) {
				blocks = append(blocks, unsafe.SliceData(s.block))
			}
		}
		if batch == 3 {
			rec.Done(2) // batch 1 is done with
		}
	}
	// Batch 1 filled blocks 0 and 1; block 1 was left while batch 2 was
	// begun (its tag), so only block 0 was used again, by block 6 (the
	// first made after Done(2), in batch 4).
	if len(blocks) != 12 {
		t.Fatalf("%d blocks", len(blocks))
	}
	if blocks[6] != blocks[0] {
		t.Errorf("block 6 is not block 0 used again")
	}
	for i, b := range blocks {
		for j := range i {
			if blocks[j] == b && i != 6 {
				t.Errorf("block %d is block %d used again", i, j)
			}
		}
	}
	for i, str := range got[4:] { // the strings of block 0 are dead
		batch, n := 1+(i+4)/8, (i+4)%8
		if want := string(line(batch*100 + n)); str != want {
			t.Errorf("string %d: %q, want %q", i+4, str, want)
		}
	}
	rec.Done(1) // lower: changes nothing
	if rec.done.Load() != 2 {
		t.Errorf("done went back to %d", rec.done.Load())
	}
}

// TestRecyclerHoldsBoundedBlocks checks that a Strings whose Recycler is
// never told a batch is done keeps at most maxHeld blocks to use again.
func TestRecyclerHoldsBoundedBlocks(t *testing.T) {
	var rec Recycler
	s := Strings{Size: 64}
	s.Recycle(&rec)
	for i := range 40 * maxHeld {
		rec.Begin(uint64(i/8 + 1))
		s.String([]byte(fmt.Sprintf("url-%011d", i)))
	}
	if n := len(s.held) - s.next; n > maxHeld {
		t.Errorf("%d blocks held, more than %d", n, maxHeld)
	}
	if cap(s.held) > 2*maxHeld+2 {
		t.Errorf("the list of blocks held grew to %d", cap(s.held))
	}
}
