package jsonl_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/jsonl"
)

// FuzzReader reads any input: the reader never panics and ends, every
// warning has a line, and what it gives, written again and read back
// strictly, gives the same lines: a document the reader took in is one the
// format holds losslessly.
func FuzzReader(f *testing.F) {
	e := fullEntry(f)
	full, _ := jsonl.NewEncoder(formats.WriteOptions{}).AppendEntry(nil, &e)
	f.Add(string(full))
	f.Add(`{"head":["<a xmlns=\"urn:a\"/>"]}` + "\n" + `{"loc":"https://a.example/","kind":"sitemap","lastmod":"2024"}`)
	f.Add(`{"loc":"https://a.example/","priority":"0.5","foreign":["<x/>"],"images":[{"loc":"https://a.example/i"}]}` + "\r\n")
	f.Add(`{"loc":"https://a.example/","videos":[{"title":"t","description":"d","thumbnail_loc":"https://a.example/t","player_loc":"https://a.example/p","tvshow":{"show_title":"s"}}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		var got []formats.Entry
		var head []string
		r := jsonl.NewReader(strings.NewReader(in), formats.ReadOptions{Source: "f.jsonl", Warn: func(pe *formats.ParseError) {
			if pe.Line < 1 {
				t.Errorf("a warning without a line: %v", pe)
			}
		}})
		for {
			e, err := r.Next()
			if err != nil {
				break
			}
			got = append(got, e)
		}
		head = r.Head()
		enc := jsonl.NewEncoder(formats.WriteOptions{Head: head})
		written := enc.AppendHeader(nil)
		for i := range got {
			var err error
			if written, err = enc.AppendEntry(written, &got[i]); err != nil {
				t.Fatalf("entry %d: %v", i, err)
			}
		}
		back := jsonl.NewReader(bytes.NewReader(written), formats.ReadOptions{Source: "w.jsonl", Strict: true})
		again := jsonl.NewEncoder(formats.WriteOptions{Head: head}).AppendHeader(nil)
		n := 0
		for {
			e, err := back.Next()
			if err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("what was written does not read back: %v\n%s", err, written)
				}
				break
			}
			again, _ = enc.AppendEntry(again, &e)
			n++
		}
		if n != len(got) || !bytes.Equal(written, again) {
			t.Fatalf("written and read back differ:\n%s\n%s", written, again)
		}
	})
}
