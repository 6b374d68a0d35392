package formats

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// listEncoder renders a document as "[kind", one loc a line, "]", refusing
// entries without a loc and of the other kind, and warns of how many it
// wrote.
type listEncoder struct {
	o     WriteOptions
	wrote int
}

func (l *listEncoder) kind() Kind {
	if l.o.Index {
		return KindSitemap
	}
	return KindURL
}

func (l *listEncoder) AppendHeader(b []byte) []byte { return append(b, "["+l.kind().String()+"\n"...) }
func (l *listEncoder) AppendFooter(b []byte) []byte { return append(b, "]\n"...) }
func (l *listEncoder) Wrote(*Entry)                 { l.wrote++ }
func (l *listEncoder) Warnings() []string           { return []string{strings.Repeat("w", l.wrote)} }

func (l *listEncoder) AppendEntry(b []byte, e *Entry) ([]byte, error) {
	if e.Loc == "" || e.Kind != l.kind() {
		return b, errors.New("refused")
	}
	return append(append(b, e.Loc...), '\n'), nil
}

func TestEncodingWriter(t *testing.T) {
	newEnc := func(o WriteOptions) Encoder { return &listEncoder{o: o} }
	var buf bytes.Buffer
	var warned []string
	w := newEncodingWriter(&buf, newEnc, WriteOptions{Warn: func(m string) { warned = append(warned, m) }})
	// A refused first entry decides nothing and writes nothing.
	require.Error(t, w.Write(Entry{Kind: KindSitemap}))
	require.NoError(t, w.Write(Entry{Loc: "a", Kind: KindSitemap}))
	require.Error(t, w.Write(Entry{Loc: "b"}), "the first entry decided an index")
	require.NoError(t, w.Write(Entry{Loc: "c", Kind: KindSitemap}))
	require.NoError(t, w.Close())
	assert.Equal(t, "[sitemap\na\nc\n]\n", buf.String())
	assert.Equal(t, []string{"ww"}, warned, "only the entries written are counted")
	require.Error(t, w.Write(Entry{Loc: "d", Kind: KindSitemap}), "after Close")
	require.Error(t, w.Close(), "second Close")

	// No entry: the options decide.
	buf.Reset()
	w = newEncodingWriter(&buf, newEnc, WriteOptions{Index: true})
	require.NoError(t, w.Close())
	assert.Equal(t, "[sitemap\n]\n", buf.String())
}

func TestRegisterEncoderGivesWriter(t *testing.T) {
	f := &Format{Name: "test-encoder-only", NewEncoder: func(o WriteOptions) Encoder { return &listEncoder{o: o} }}
	defer func() {
		registryMu.Lock()
		delete(registry, f.Name)
		registryMu.Unlock()
	}()
	Register(f)
	require.True(t, f.CanWrite())
	var buf bytes.Buffer
	w := f.NewWriter(&buf, WriteOptions{})
	require.NoError(t, w.Write(Entry{Loc: "x"}))
	require.NoError(t, w.Close())
	assert.Equal(t, "[url\nx\n]\n", buf.String())
}

// TestEncodingWriterSizes writes entries of every size around the buffer's,
// rendered in its free space or not, and gets each whole, in order.
func TestEncodingWriterSizes(t *testing.T) {
	var buf bytes.Buffer
	w := newEncodingWriter(&buf, func(o WriteOptions) Encoder { return &listEncoder{o: o} }, WriteOptions{})
	want := "[url\n"
	for _, n := range []int{10, 70 << 10, 5, 40 << 10, 30 << 10, 1, 64<<10 - 1, 64 << 10, 3} {
		loc := strings.Repeat("x", n)
		require.NoError(t, w.Write(Entry{Loc: loc}))
		want += loc + "\n"
	}
	require.NoError(t, w.Close())
	assert.Equal(t, want+"]\n", buf.String())
}
