package termsafe

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, é and 日本":       "plain text, é and 日本",
		"\x1b[31mred\x1b[0m":         `\x1b[31mred\x1b[0m`,
		"over\rwrite":                `over\rwrite`,
		"bell\a":                     `bell\x07`,
		"two\nlines\tand tab":        `two\nlines\tand tab`,
		"del\x7f":                    `del\x7f`,
		"c1 csi \u009b2J":            `c1 csi \u009b2J`,
		"bidi \u202egnp.exe \u2066x": `bidi \u202egnp.exe \u2066x`,
		"bad utf-8 \xff\xc2":         `bad utf-8 \xff\xc2`,
		"":                           "",
	} {
		assert.Equal(t, want, String(in), "%q", in)
	}
}

func TestWriterKeepsLines(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	p := []byte("feed2sitemap: error: HTTP 404 \x1b]0;owned\a\u202e\n\tnext\n")
	n, err := w.Write(p)
	require.NoError(t, err)
	assert.Equal(t, len(p), n)
	assert.Equal(t, "feed2sitemap: error: HTTP 404 \\x1b]0;owned\\x07\\u202e\n\tnext\n", b.String())
	assert.Same(t, &b, Unwrap(w))

	// A character split between two writes is written whole; one cut
	// short at the end is escaped by Flush.
	b.Reset()
	bidi := []byte("a\u202eb é")
	w.Write(bidi[:2])
	w.Write(bidi[2 : len(bidi)-1])
	require.NoError(t, w.Flush())
	assert.Equal(t, "a\\u202eb \\xc3", b.String())
	assert.Same(t, &b, Unwrap(&b))
}

func TestJSON(t *testing.T) {
	in := map[string]string{"a": "x\u009b\u202ey\x1b\n<&>", "b": "plain"}
	raw, err := json.Marshal(in)
	require.NoError(t, err)
	safe := JSON(raw)
	assert.NotContains(t, string(safe), "\u009b")
	assert.NotContains(t, string(safe), "\u202e")
	assert.Contains(t, string(safe), `\u009b\u202e`)
	var back map[string]string
	require.NoError(t, json.Unmarshal(safe, &back))
	assert.Equal(t, in, back)
	plain := []byte(`{"a":"b"}`)
	assert.Equal(t, plain, JSON(plain))
}
