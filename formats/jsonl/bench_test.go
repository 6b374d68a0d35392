package jsonl_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/jsonl"
)

// benchDoc is n entries with a lastmod, a priority and one image each.
func benchDoc(b *testing.B, n int) ([]formats.Entry, []byte) {
	entries := make([]formats.Entry, n)
	p, _ := formats.NewPriority(0.5)
	lm, _ := formats.ParseLastMod("2024-05-06T10:11:12Z")
	for i := range entries {
		entries[i] = formats.Entry{Loc: fmt.Sprintf("https://example.com/page/%d", i), LastMod: lm, Priority: p,
			Ext: &formats.Extensions{Images: []formats.Image{{Loc: fmt.Sprintf("https://example.com/i/%d.png", i)}}}}
	}
	enc := jsonl.NewEncoder(formats.WriteOptions{})
	var doc []byte
	for i := range entries {
		doc, _ = enc.AppendEntry(doc, &entries[i])
	}
	return entries, doc
}

func BenchmarkWrite(b *testing.B) {
	entries, doc := benchDoc(b, 10000)
	enc := jsonl.NewEncoder(formats.WriteOptions{})
	b.SetBytes(int64(len(doc)))
	var buf []byte
	for b.Loop() {
		buf = buf[:0]
		for i := range entries {
			buf, _ = enc.AppendEntry(buf, &entries[i])
		}
	}
}

func BenchmarkRead(b *testing.B) {
	_, doc := benchDoc(b, 10000)
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		r := jsonl.NewReader(bytes.NewReader(doc), formats.ReadOptions{})
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
