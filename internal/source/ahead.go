package source

import (
	"io"
	"runtime"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/internal/bufpool"
)

// Decompressing runs on a goroutine of its own, a few chunks ahead of the
// reading: gunzip on one core, parsing on another, the content given in
// its order.
const (
	aheadChunk = 64 << 10 // bytes of content in a chunk
	aheadDepth = 3        // chunks decompressed ahead of the one being read
)

// chunk is content decompressed ahead, with the error that ended the
// input after it, if any.
type chunk struct {
	b   []byte
	err error
}

// ahead reads r on a goroutine of its own, up to aheadDepth chunks ahead
// of Read. The goroutine starts once the first aheadChunk bytes were read
// (an input opened and not read on costs no goroutine) and ends at r's end or error, or once the
// reader that started it is garbage: what was not read is then dropped.
type ahead struct {
	r       io.Reader
	sync    int // bytes read on the caller's goroutine, at the start
	once    sync.Once
	full    chan chunk  // chunks read, in order
	free    chan []byte // buffers of chunks read, to fill again
	dropped chan struct{}
	started bool   // whether the goroutine was started
	buf     []byte // the chunk being read
	cur     []byte // what is left of it
	err     error  // the error after cur
}

// newAhead returns a reader of r's content, read ahead.
func newAhead(r io.Reader) *ahead {
	return &ahead{r: r, full: make(chan chunk, aheadDepth), free: make(chan []byte, aheadDepth+1),
		dropped: make(chan struct{})}
}

// start starts the goroutine that reads ahead; the reader a is dropped
// (the goroutine told to end) once it is garbage.
func (a *ahead) start() {
	a.started = true
	r, full, free, dropped := a.r, a.full, a.free, a.dropped
	a.r = nil // the goroutine owns it: a holds nothing it holds
	runtime.AddCleanup(a, func(dropped chan struct{}) { close(dropped) }, dropped)
	go fillAhead(r, full, free, dropped)
}

// fillAhead reads r into chunks, in order, until its end or error, or
// until dropped is closed.
func fillAhead(r io.Reader, full chan<- chunk, free chan []byte, dropped <-chan struct{}) {
	defer close(full)
	defer func() {
		// The chunks given back and not filled again go to the pool;
		// the reader puts the last it reads there itself.
		for {
			select {
			case b := <-free:
				chunks.Put(b)
			default:
				return
			}
		}
	}()
	for {
		var b []byte
		select {
		case b = <-free:
		default:
			b = chunks.Get()[:aheadChunk]
		}
		n, err := fill(r, b[:aheadChunk])
		select {
		case full <- chunk{b: b[:n], err: err}:
		case <-dropped:
			return
		}
		if err != nil {
			return
		}
	}
}

// fill reads r into b until b is full or r returns an error, which it
// returns as it is (io.ReadFull would turn r's io.EOF into
// io.ErrUnexpectedEOF, which a gzip reader returns for its own).
func fill(r io.Reader, b []byte) (int, error) {
	n := 0
	for empty := 0; n < len(b); {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m > 0 {
			empty = 0
		} else if empty++; empty == 100 {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// Read reads the content, as r gives it.
func (a *ahead) Read(p []byte) (int, error) {
	if a.sync < aheadChunk {
		// The start of the input, which opening it reads (sniffing its
		// format), is read here: the inputs opened at once and read one
		// after the other run no goroutine until they are read.
		n, err := a.r.Read(p)
		a.sync += n
		return n, err
	}
	a.once.Do(a.start)
	for len(a.cur) == 0 {
		if a.err != nil {
			return 0, a.err
		}
		c, ok := <-a.full
		if !ok {
			// Not met: the last chunk sent carries the error that ended r.
			return 0, io.ErrUnexpectedEOF
		}
		a.cur, a.buf, a.err = c.b, c.b, c.err
	}
	n := copy(p, a.cur)
	if a.cur = a.cur[n:]; len(a.cur) == 0 {
		if a.err != nil {
			// The last chunk: the goroutine has ended, or ends without
			// taking another.
			chunks.Put(a.buf)
		} else {
			select {
			case a.free <- a.buf[:cap(a.buf)]:
			default:
			}
		}
		a.buf = nil
	}
	return n, nil
}

// chunks is the pool of the chunks' buffers.
var chunks = bufpool.Bytes{Size: aheadChunk}

// done reports whether the goroutine that reads ahead is done with the
// reader it reads, or was never started; on the goroutine that reads.
func (a *ahead) done() bool {
	return !a.started || a.err != nil
}
