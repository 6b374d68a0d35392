package output

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// part is one file being written: entries go through the format's writer
// in chunks to a goroutine that hashes them and writes them, compressed or
// not, to a temporary file.
type part struct {
	n       int
	tmp     string
	file    *os.File
	enc     formats.Encoder // of its document, for a format that has one
	w       formats.Writer  // else the format's Writer
	sum     string          // hex SHA-256 of the uncompressed content, once stored
	chunks  *chunker
	done    chan error
	err     error
	waited  bool
	entries int
	news    int // of the entries, those with news data
	bytes   int64
	lastmod formats.LastMod
}

// docOptions returns the options the documents of the entries' kind are
// written with.
func (s *Set) docOptions() formats.WriteOptions {
	o := s.opts.Write
	o.Index = s.kind == formats.KindSitemap
	return o
}

func (s *Set) newPart() error {
	f, err := atomicfile.CreateTemp(s.dir, s.stem+"-part")
	if err != nil {
		return err
	}
	p := &part{n: len(s.parts) + 1, tmp: f.Name(), file: f, chunks: newChunker(), done: make(chan error, 1)}
	s.slots <- struct{}{}
	go p.store(p.chunks.out, s.opts.Gzip, s.slots, &s.written)
	if s.newEnc != nil {
		s.startEncoder()
		p.enc = s.newEnc(s.docOptions())
		s.scratch = p.enc.AppendHeader(s.scratch[:0])
		p.chunks.Write(s.scratch)
	} else {
		p.w = s.opts.Format.NewWriter(p.chunks, s.docOptions())
	}
	s.cur = p
	return nil
}

// finish closes the part's document; its goroutine completes the file.
func (s *Set) finish(p *part) error {
	s.cur = nil
	s.parts = append(s.parts, p)
	// The index's size so far, counted once per part: the stand-in hash
	// has the length of the real one. (Without a base URL there is no
	// index: a split is refused first.)
	if s.base != nil && s.index != nil {
		if s.indexEnc == nil {
			s.indexEnc = s.index.NewEncoder(s.indexOptions())
			s.scratch = s.indexEnc.AppendFooter(s.indexEnc.AppendHeader(s.scratch[:0]))
			s.indexBytes = int64(len(s.scratch))
		}
		e := s.indexEntry(p, stored)
		b, err := s.indexEnc.AppendEntry(s.scratch[:0], &e)
		if err != nil {
			return err
		}
		s.scratch = b
		s.lastIndexEntry = len(b)
		s.indexBytes += int64(s.lastIndexEntry)
	}
	var err error
	if p.enc != nil {
		s.scratch = p.enc.AppendFooter(s.scratch[:0])
		p.chunks.Write(s.scratch)
		if warn := s.opts.Write.Warn; warn != nil {
			for _, msg := range p.enc.Warnings() {
				warn(msg)
			}
		}
	} else {
		err = p.w.Close()
	}
	p.chunks.close()
	// A finished part keeps only what names and lists it: its writer's
	// buffer (64 KiB for XML) and its chunker go, so that memory does not
	// grow with the number of parts.
	p.w, p.enc, p.chunks = nil, nil, nil
	return err
}

// store hashes the part's chunks and writes them to its file, gzipped or
// not, then syncs and closes it. It runs on a goroutine of its own, so that
// hashing, compressing and writing run beside formatting.
func (p *part) store(chunks <-chan []byte, gz bool, slots chan struct{}, written *atomic.Int64) {
	defer func() { <-slots }()
	h := sha256.New()
	var w io.Writer = p.file
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(p.file)
		w = zw
	}
	var err error
	for c := range chunks {
		if err == nil {
			h.Write(c)
			_, err = w.Write(c)
		}
		putChunk(c)
	}
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if err == nil {
		err = p.file.Sync()
	}
	if cerr := p.file.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		p.sum = hex.EncodeToString(h.Sum(nil))
		written.Add(1)
	}
	p.done <- err
}

// wait returns the part's error once it is complete.
func (p *part) wait() error {
	if !p.waited {
		p.waited = true
		p.err = <-p.done
	}
	return p.err
}

// abort stops writing an unfinished part.
func (p *part) abort() {
	p.chunks.close()
	p.wait()
	os.Remove(p.tmp)
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
