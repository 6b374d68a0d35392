package formats_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/corpus"
)

// FuzzOpen drives the whole reading path: gzip layers, charset decoding,
// sniffing, and whichever registered reader the content selects, in
// lenient and strict mode. Nothing may panic or hang, and every entry must
// be an absolute http(s) URL.
func FuzzOpen(f *testing.F) {
	for _, c := range corpus.Load(f) {
		b, err := os.ReadFile(c.Path)
		if err != nil || len(b) > 64<<10 {
			continue
		}
		f.Add(b)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("https://a.example/\n"))
	zw.Close()
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, strict := range []bool{false, true} {
			r, _, err := formats.Open(bytes.NewReader(in), formats.OpenOptions{ReadOptions: formats.ReadOptions{Source: "fuzz", Strict: strict}})
			if err != nil {
				continue
			}
			for i := 0; ; i++ {
				e, err := r.Next()
				if err != nil {
					break
				}
				if !strings.HasPrefix(e.Loc, "http://") && !strings.HasPrefix(e.Loc, "https://") {
					t.Fatalf("entry %d: %q is not an http(s) URL", i, e.Loc)
				}
				if i > 1<<20 {
					t.Fatal("runaway reader")
				}
			}
		}
	})
}
