package output

import (
	"os"
	"sync/atomic"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// part is one file being written: entries go through the format's writer
// in chunks to a goroutine that hashes them and writes them, compressed or
// not, to a temporary file.
type part struct {
	n       int
	section string // the name of its section, with Options.SectionOf
	single  bool   // the only part of its section
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

// openFile starts writing a file of the set, to a temporary file in the
// output's directory that stands for base: what goes to its chunks is
// hashed, gzipped with Options.Gzip and stored by a goroutine of its own.
// done, when set, counts it once it is stored.
func (s *Set) openFile(base string, done *atomic.Int64) (*part, error) {
	s.open <- struct{}{}
	f, err := atomicfile.CreateTemp(s.dir, base)
	if err != nil {
		<-s.open
		return nil, err
	}
	size := plainChunkSize
	if s.opts.Gzip {
		size = chunkSize
	}
	p := &part{tmp: f.Name(), file: f, chunks: newChunker(size), done: make(chan error, 1)}
	s.slots <- struct{}{}
	go p.store(p.chunks.out, s.opts.Gzip, s.slots, s.open, done)
	return p, nil
}

// maxOpen bounds the files of a set open at once: a file whose content is
// stored gives its slot (Set.slots) to the next while it is synced, so
// that the writing goes on while the system puts it on disk.
const maxOpen = 16

// newPart starts the next part, and its document.
func (s *Set) newPart() error {
	p, err := s.openFile(s.stem+"-part", &s.written)
	if err != nil {
		return err
	}
	p.n = len(s.parts) + 1
	if s.sections != nil {
		p.section, p.n = s.secName, p.n-s.secFirst
	}
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
		s.startIndex()
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

// startIndex makes the Encoder that measures the index's entries, and
// counts the index's header and footer, once.
func (s *Set) startIndex() {
	if s.indexEnc == nil {
		s.indexEnc = s.index.NewEncoder(s.indexOptions())
		s.scratch = s.indexEnc.AppendFooter(s.indexEnc.AppendHeader(s.scratch[:0]))
		s.indexBytes = int64(len(s.scratch))
	}
}
