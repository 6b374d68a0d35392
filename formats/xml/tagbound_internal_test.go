package xml

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// stepAll is what tagBound passes of data, byte by byte: how many bytes,
// and whether a tag ran too long there.
func stepAll(data []byte) (int, bool) {
	t := &tagBound{}
	for i, c := range data {
		if !t.step(c) {
			return i, true
		}
	}
	return len(data), false
}

// FuzzTagBound holds tagBound's reads, which pass over text and tags
// without stepping through each byte, to stepping through every byte,
// whatever the reads' sizes.
func FuzzTagBound(f *testing.F) {
	long := "<a " + strings.Repeat("b", MaxTag-4) + ">" // MaxTag bytes
	for _, s := range []string{"<a>text</a>", `<a b=">">x</a><!-- > --><![CDATA[ > ]]><?p > ?><!DOCTYPE x>`, long, long + "<c>", long[:len(long)-1] + "cd>",
		`<a b='x"y'>`, "<!-x>", "<!--->-->", "<", "text only"} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, oneByte bool) {
		if len(data) > 4*MaxTag {
			return
		}
		var src io.Reader = bytes.NewReader(data)
		if oneByte {
			src = iotest.OneByteReader(src)
		}
		got, err := io.ReadAll(&tagBound{r: src})
		want, long := stepAll(data)
		if len(got) != want || errors.Is(err, ErrLongTag) != long || err != nil && !errors.Is(err, ErrLongTag) {
			t.Fatalf("%q: passed %d bytes, %v; byte by byte %d, too long %v", data, len(got), err, want, long)
		}
	})
}
