package output

import (
	"errors"
	"io"
	"os"
	"sync/atomic"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// StreamOptions configure a Stream.
type StreamOptions struct {
	// Format is the format of the document.
	Format *formats.Format
	// Gzip gzips the document.
	Gzip bool
	// Hold keeps the document in an unnamed temporary file until Commit,
	// so that a run that fails after its first entry, or after Close,
	// writes nothing at all. Without it the document goes through as it
	// is written, for a run that cannot fail part-way.
	Hold bool
	// Write holds the options the document is written with.
	Write formats.WriteOptions
}

// Stream writes entries as one document to a writer that is not a file
// (standard output), never split, with the contract of a Set: it is a
// formats.Writer; Write each entry, Close to end the document, then Commit
// to hand it over, or Abort to hand over nothing (with Hold). A Stream is
// not safe for concurrent use.
type Stream struct {
	w      io.Writer
	opts   StreamOptions
	spool  *os.File // what is held until Commit, with Hold
	gz     *gzipStream
	size   counter        // the uncompressed bytes written
	fw     formats.Writer // nil until the first Write or Close
	err    error
	closed bool
	done   bool // Committed or Aborted
}

// NewStream returns a Stream to w.
func NewStream(w io.Writer, opts StreamOptions) (*Stream, error) {
	if opts.Format == nil || !opts.Format.CanWrite() {
		return nil, errors.New("output: the format cannot be written")
	}
	s := &Stream{w: w, opts: opts}
	if opts.Hold {
		f, err := os.CreateTemp("", "feed2sitemap-stdout-*")
		if err != nil {
			return nil, err
		}
		// Unnamed: the space goes back however the process ends.
		os.Remove(f.Name())
		s.spool = f
	}
	return s, nil
}

// SetWriteOptions sets the options the document is written with, as
// StreamOptions.Write does, when they are known only once the entries are.
// It must be called before the first Write.
func (s *Stream) SetWriteOptions(o formats.WriteOptions) error {
	if s.fw != nil {
		return errors.New("output: SetWriteOptions after Write")
	}
	s.opts.Write = o
	return nil
}

// start opens the document.
func (s *Stream) start() {
	out := s.w
	if s.spool != nil {
		out = s.spool
	}
	s.size.w = out
	if s.opts.Gzip {
		s.gz = newGzipStream(out)
		s.size.w = s.gz
	}
	s.fw = s.opts.Format.NewWriter(&s.size, s.opts.Write)
}

// KeepsNothing reports whether Write keeps nothing of its entry (see
// formats.KeepsNothing): whether the format's Writer, made at the first
// Write, keeps nothing; what the Stream holds or gzips are bytes.
func (s *Stream) KeepsNothing() bool { return s.opts.Format.WriterKeepsNothing() }

// Write adds one entry to the document.
func (s *Stream) Write(e formats.Entry) error {
	switch {
	case s.err != nil:
		return s.err
	case s.closed || s.done:
		return errors.New("output: write after Close")
	}
	if s.fw == nil {
		s.start()
	}
	if err := s.fw.Write(e); err != nil {
		s.err = err
	}
	return s.err
}

// Close ends the document (and the gzip stream). With Hold, nothing has
// reached the writer yet: Commit hands it over.
func (s *Stream) Close() error {
	switch {
	case s.err != nil:
		return s.err
	case s.closed:
		return errors.New("output: Close twice")
	}
	s.closed = true
	if s.fw == nil {
		s.start()
	}
	s.err = s.fw.Close()
	if s.gz != nil {
		if s.err != nil {
			s.gz.abort() // a document cut short is not made a whole gzip file
		} else {
			s.err = s.gz.Close()
		}
	}
	return s.err
}

// Commit hands the closed document over to the writer, when it was held.
// A Stream never written to hands over nothing.
func (s *Stream) Commit() error {
	switch {
	case s.err != nil:
		return s.err
	case s.fw == nil && !s.done:
		s.Abort()
		return nil
	case !s.closed:
		return errors.New("output: Commit before Close")
	case s.done:
		return errors.New("output: Commit twice")
	}
	s.done = true
	if s.spool == nil {
		return nil
	}
	defer s.spool.Close()
	if _, err := s.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(s.w, s.spool)
	return err
}

// Abort throws away what was held: nothing reaches the writer. It does
// nothing after Commit, so it can be deferred.
func (s *Stream) Abort() {
	if s.done {
		return
	}
	s.done = true
	if s.gz != nil {
		s.gz.abort()
	}
	if s.spool != nil {
		s.spool.Close()
	}
}

// Bytes returns the size of the document written so far, uncompressed.
func (s *Stream) Bytes() int64 { return s.size.n }

// counter counts the bytes written through it.
type counter struct {
	w io.Writer
	n int64
}

func (c *counter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// gzipStream gzips what is written to it as one gzip file on w: it gathers
// it in chunks, which a goroutine of its own deflates in parallel
// (gzipper) and writes in order. Once a write to w has failed, Write
// returns its error; Close returns the first error.
type gzipStream struct {
	chunks  *chunker
	done    chan error
	failed  atomic.Pointer[error]
	aborted atomic.Bool // what is left is dropped, and the file not ended
	closed  bool
}

func newGzipStream(w io.Writer) *gzipStream {
	g := &gzipStream{chunks: newChunker(chunkSize), done: make(chan error, 1)}
	go func(chunks <-chan []byte) {
		z := newGzipper(w, nil)
		for c := range chunks {
			if g.aborted.Load() {
				putChunk(c)
				continue
			}
			z.add(c)
			if err := z.err; err != nil && g.failed.Load() == nil {
				g.failed.Store(&err)
			}
		}
		if g.aborted.Load() {
			z.abandon()
			g.done <- nil
			return
		}
		g.done <- z.close()
	}(g.chunks.out)
	return g
}

// abort ends the goroutine without ending the gzip file: no trailer is
// written, so that a reader of what went through finds it cut short, as
// it is. It does nothing after Close.
func (g *gzipStream) abort() {
	if g.closed {
		return
	}
	g.aborted.Store(true)
	g.Close()
}

func (g *gzipStream) Write(p []byte) (int, error) {
	if err := g.failed.Load(); err != nil {
		return 0, *err
	}
	return g.chunks.Write(p)
}

// Close writes what is left and ends the gzip file; it does not close w.
// It may be called again, and then does nothing.
func (g *gzipStream) Close() error {
	if g.closed {
		return nil
	}
	g.closed = true
	g.chunks.close()
	return <-g.done
}
