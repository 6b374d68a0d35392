package indexnow_test

import (
	"bytes"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

// FuzzReadState checks that any file is read as a state or refused with an
// error, never a panic, and that what is read is written back as it was.
func FuzzReadState(f *testing.F) {
	s := indexnow.NewState()
	for _, loc := range []string{"https://example.com/a", "https://example.com/b"} {
		s.Check(loc, "2026-11-20")
		s.Done([]string{loc}, true)
	}
	var b bytes.Buffer
	s.WriteTo(&b)
	f.Add(b.Bytes())
	f.Add([]byte("feed2sitemap indexnow state 1 0\n"))
	f.Add([]byte("feed2sitemap indexnow state 1 4294967296\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := indexnow.ReadState(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		var out bytes.Buffer
		if _, err := st.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("read and written back differ:\n%q\n%q", data, out.Bytes())
		}
	})
}
