package source

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigText returns n lines of URLs: several chunks of content.
func bigText(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		b.WriteString("https://www.example.com/page/" + strconv.Itoa(i) + "\n")
	}
	return b.Bytes()
}

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write(b)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// oneByte reads at most one byte at a time.
type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}

func TestReadAheadKeepsTheContentAndItsOrder(t *testing.T) {
	text := bigText(40000) // over 20 chunks
	in := gzipped(t, text)
	for _, tt := range []struct {
		name string
		src  []byte
		wrap func(io.Reader) io.Reader
	}{
		{"whole", in, func(r io.Reader) io.Reader { return r }},
		{"one byte a read", in, func(r io.Reader) io.Reader { return oneByte{r} }},
		{"gzip in the gzip", gzipped(t, in), func(r io.Reader) io.Reader { return r }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(tt.wrap(bytes.NewReader(tt.src)), Options{})
			require.NoError(t, err)
			var got bytes.Buffer
			buf := make([]byte, 777)
			for {
				n, err := r.Read(buf)
				got.Write(buf[:n])
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
			}
			assert.True(t, bytes.Equal(text, got.Bytes()), "the content, in order")
			assert.Equal(t, int64(len(text)), r.Bytes())
		})
	}
}

func TestReadAheadGivesTheDamageAfterWhatCameBefore(t *testing.T) {
	text := bigText(40000)
	in := gzipped(t, text)
	r, err := Open(bytes.NewReader(in[:len(in)*3/4]), Options{})
	require.NoError(t, err)
	got, err := io.ReadAll(r)
	var ge *GzipError
	require.ErrorAs(t, err, &ge)
	assert.Equal(t, int64(len(got)), ge.Offset)
	assert.Greater(t, len(got), 2*aheadChunk, "read ahead past the start")
	assert.True(t, bytes.HasPrefix(text, got))
	_, err = r.Read(make([]byte, 10))
	assert.True(t, errors.As(err, &ge), "the damage again")
}

func TestReadAheadEndsWithAReaderDropped(t *testing.T) {
	in := gzipped(t, bigText(200000))
	before := runtime.NumGoroutine()
	func() {
		r, err := Open(bytes.NewReader(in), Options{})
		require.NoError(t, err)
		_, err = io.ReadFull(r, make([]byte, 3*aheadChunk))
		require.NoError(t, err)
		assert.Greater(t, runtime.NumGoroutine(), before, "read on a goroutine of its own")
	}()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	assert.Equal(t, before, runtime.NumGoroutine(), "the goroutine of a reader dropped half-way ends")
}

func TestOpeningRunsNoGoroutine(t *testing.T) {
	in := gzipped(t, bigText(200000))
	before := runtime.NumGoroutine()
	r, err := Open(bytes.NewReader(in), Options{})
	require.NoError(t, err)
	_, err = io.ReadFull(r, make([]byte, 16<<10)) // what a format is sniffed from
	require.NoError(t, err)
	assert.Equal(t, before, runtime.NumGoroutine())
	runtime.KeepAlive(r)
}
