package output

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"sync/atomic"
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

// chunkSize is how many uncompressed bytes go to a compressor at once.
const chunkSize = 1 << 20

var chunkPool = sync.Pool{New: func() any { return new([]byte) }}

func getChunk() []byte {
	b := *chunkPool.Get().(*[]byte)
	if cap(b) < chunkSize {
		b = make([]byte, 0, chunkSize)
	}
	return b[:0]
}

func putChunk(b []byte) {
	b = b[:0]
	chunkPool.Put(&b)
}

// chunker gathers what is written into chunks for a compressor goroutine.
// At most a few chunks wait at once, so memory stays bounded.
type chunker struct {
	buf []byte
	out chan []byte
}

func newChunker() *chunker { return &chunker{buf: getChunk(), out: make(chan []byte, 2)} }

func (c *chunker) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		m := copy(c.buf[len(c.buf):cap(c.buf)], p)
		c.buf = c.buf[:len(c.buf)+m]
		p = p[m:]
		if len(c.buf) == cap(c.buf) {
			c.out <- c.buf
			c.buf = getChunk()
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
		c.buf = getChunk()
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
