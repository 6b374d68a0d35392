package validate

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/text/encoding/unicode"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// checkBytes checks in as one document and returns its findings and what
// the validator says of it.
func checkBytes(t *testing.T, in []byte) ([]Finding, Document) {
	t.Helper()
	var got []Finding
	var doc Document
	v := New(Options{Now: testNow, NoFollow: true, OnDocument: func(d Document) { doc = d }})
	if err := v.Check(bytes.NewReader(in), Source{Name: "in"}, func(f Finding) { got = append(got, f) }); err != nil {
		t.Fatal(err)
	}
	return got, doc
}

// Every check is keyed by a registered format, which Check finds by
// sniffing as formats.Open does: never by its name.
func TestCheckersAreRegisteredFormats(t *testing.T) {
	for f := range checkers {
		got, err := formats.Lookup(f.Name)
		if err != nil || got != f || !f.CanRead() {
			t.Errorf("the check of %q is not keyed by the registered, readable format", f.Name)
		}
	}
}

// The opening path is the readers' (internal/source): each invalid
// character is a finding where it is, in bytes, and the text after it on
// the line keeps its columns.
func TestInvalidCharacterPositions(t *testing.T) {
	for _, tt := range []struct {
		in       string
		rule     *Rule
		line, at int
	}{
		{"https://x.example/a\x01b\n", ruleInvalidChar, 1, 20},
		{"https://x.example/a\nhttps://x.example/é\xffb\n", ruleInvalidUTF8, 2, 21},
		{"# caf\xe9\nhttps://x.example/a\n", ruleInvalidUTF8, 1, 6},
		{"\xef\xbb\xbfhttps://x.example/\uFFFE\n", ruleInvalidChar, 1, 19},
	} {
		got, _ := checkBytes(t, []byte(tt.in))
		found := false
		for _, f := range got {
			if f.Rule == tt.rule {
				found = f.Line == tt.line && f.Column == tt.at
				break
			}
		}
		if !found {
			t.Errorf("%q: want %s at %d:%d; got:%s", tt.in, tt.rule.ID, tt.line, tt.at, describe(got))
		}
	}
}

// A document not in UTF-8 is decoded as the readers decode it, reported
// once, and checked.
func TestEncodingOfTextList(t *testing.T) {
	in, err := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().Bytes([]byte("https://x.example/a\nhttps://x.example/b\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, doc := checkBytes(t, in)
	if len(got) != 1 || got[0].Rule != ruleEncoding || !strings.Contains(got[0].Message, "UTF-16") {
		t.Errorf("want one encoding finding naming UTF-16; got:%s", describe(got))
	}
	if doc.Format != "text" || doc.URLs != 2 {
		t.Errorf("read as %q with %d URLs, want text with 2", doc.Format, doc.URLs)
	}
}

// Binary data is no document, as formats.Open says.
func TestBinaryInput(t *testing.T) {
	got, doc := checkBytes(t, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	if len(got) != 1 || got[0].Rule != ruleUnknownFormat || !strings.Contains(got[0].Message, "binary data") {
		t.Errorf("want one unknown-format finding for binary data; got:%s", describe(got))
	}
	if doc.Bytes != 16 {
		t.Errorf("%d bytes counted, want 16", doc.Bytes)
	}
}

// An over-long line that starts blank is an error, as the text reader
// says: what follows its first 16 KiB is not seen. A long comment line is
// only a comment.
func TestLongLinesOfTextList(t *testing.T) {
	got, _ := checkBytes(t, []byte("https://x.example/a\n"+strings.Repeat(" ", 70000)+"x\n"))
	if ids := ruleIDs(got); len(ids) != 1 || ids[0] != "loc-too-long" {
		t.Errorf("a long line starting blank: want loc-too-long; got:%s", describe(got))
	}
	got, _ = checkBytes(t, []byte("https://x.example/a\n#"+strings.Repeat("x", 70000)+"\n"))
	if ids := ruleIDs(got); len(ids) != 1 || ids[0] != "text-line" {
		t.Errorf("a long comment line: want text-line only; got:%s", describe(got))
	}
}
