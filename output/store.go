package output

import (
	"crypto/sha256"
	"encoding/hex"
	"sync/atomic"

	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
)

// store hashes the part's chunks and writes them to its file, gzipped or
// not, then syncs and closes it. It runs on a goroutine of its own, so that
// hashing, compressing and writing run beside formatting; a gzipped part's
// chunks are deflated in parallel besides (gzipper). It gives its slot back
// once the content is written, before the sync, and its place among the
// open files (open) once the file is closed.
func (p *part) store(chunks <-chan []byte, gz bool, slots, open chan struct{}, written *atomic.Int64) {
	defer func() { <-open }()
	h := sha256.New()
	out := &writeback{f: p.file}
	var zw *gzipper
	if gz {
		zw = newGzipper(out, h)
	}
	var err error
	for c := range chunks {
		switch {
		case zw != nil:
			zw.add(c) // hashed there, and put back once written
			continue
		case err == nil:
			h.Write(c)
			_, err = out.Write(c)
		}
		putChunk(c)
	}
	if zw != nil {
		err = zw.close()
	}
	<-slots
	if err == nil {
		err = p.file.Sync()
	}
	if cerr := p.file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		p.sum = hex.EncodeToString(h.Sum(nil))
		if written != nil {
			written.Add(1)
		}
	}
	p.done <- err
}

// chunkSize is how many uncompressed bytes go to a compressor at once:
// the unit the bytes of a gzipped file depend on (see gzipper).
const chunkSize = 1 << 20

// plainChunkSize is the size of the chunks of a file stored as it is,
// hashed and written: a quarter of the processor's second-level cache,
// typically, so that a chunk is still there when the goroutine that
// stores it reads it after the one that filled it, and the heap, which
// holds a few chunks of each file being stored, stays small. Measured
// against 1 MiB chunks on a 2-core machine (1 MiB of that cache a core),
// 1M URLs to a split index: 6,000 page faults instead of 8,600, a heap of
// 18 MiB at most instead of 28, 5% less time (medians of 15 alternating
// runs; 128 KiB did no better). The bytes written do not depend on it.
const plainChunkSize = 256 << 10

// chunkPools keep the chunks of each size for reuse: plain, then gzip.
var chunkPools = [2]bufpool.Bytes{{Size: plainChunkSize}, {Size: chunkSize}}

func chunkPool(size int) *bufpool.Bytes {
	if size == chunkSize {
		return &chunkPools[1]
	}
	return &chunkPools[0]
}

// getChunk returns an empty chunk of size bytes, chunkSize or
// plainChunkSize.
func getChunk(size int) []byte {
	if p := chunkPool(size); p.Size == size {
		return p.Get()
	}
	return make([]byte, 0, size)
}

// putChunk gives a chunk getChunk returned back for reuse.
func putChunk(b []byte) { chunkPool(cap(b)).Put(b) }

// chunker gathers what is written into chunks for a compressor goroutine.
// At most a few chunks wait at once, so memory stays bounded.
type chunker struct {
	buf  []byte
	size int // of a chunk
	out  chan []byte
}

// newChunker returns a chunker of chunks of size bytes (see getChunk).
func newChunker(size int) *chunker {
	return &chunker{buf: getChunk(size), size: size, out: make(chan []byte, 2)}
}

func (c *chunker) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		m := copy(c.buf[len(c.buf):cap(c.buf)], p)
		c.buf = c.buf[:len(c.buf)+m]
		p = p[m:]
		if len(c.buf) == cap(c.buf) {
			c.out <- c.buf
			c.buf = getChunk(c.size)
		}
	}
	return n, nil
}

// renderRoom is the room an entry is rendered into in place, at the end
// of a part's chunk (see Set.put): most entries are far smaller, and one
// that is not is copied in as written.
const renderRoom = 8 << 10

// took takes in the bytes from start of b, which were appended to c.buf:
// in place when they fit its capacity, else copied, as Write does.
func (c *chunker) took(b []byte, start int) {
	if cap(b) != cap(c.buf) || start != len(c.buf) {
		// b grew out of the chunk into memory of its own.
		c.Write(b[start:])
		return
	}
	c.buf = b
	if len(c.buf) == cap(c.buf) {
		c.out <- c.buf
		c.buf = getChunk(c.size)
	}
}

func (c *chunker) close() {
	if c.out == nil {
		return
	}
	if len(c.buf) > 0 {
		c.out <- c.buf
	}
	c.buf = nil
	close(c.out)
	c.out = nil
}
