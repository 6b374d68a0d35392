package strblock

import (
	"bytes"
	"strings"
	"testing"
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
