package convert

import (
	"io"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/spool"
)

// spooler reads its source whole into a spool file on its first call, then
// returns the entries in the same order: what comes after it sees the
// whole input before the first entry (the extensions used, say), in
// bounded memory.
type spooler struct {
	src     Stream
	tempDir string
	sp      *spool.File
	sc      *spool.Scanner
	err     error
}

func newSpooler(src Stream, tempDir string) *spooler {
	return &spooler{src: src, tempDir: tempDir}
}

func (s *spooler) Next() (formats.Entry, error) {
	it, err := s.NextItem()
	return it.Entry, err
}

func (s *spooler) NextItem() (Item, error) {
	if s.err != nil {
		return Item{}, s.err
	}
	if s.sc == nil {
		if s.err = s.fill(); s.err != nil {
			return Item{}, s.err
		}
	}
	r, err := s.sc.Next()
	if err != nil {
		s.err = err
		return Item{}, err
	}
	return Item{Entry: r.Entry, Input: r.Input}, nil
}

// fill reads the source into the spool.
func (s *spooler) fill() error {
	sp, err := spool.New(s.tempDir)
	if err != nil {
		return err
	}
	s.sp = sp
	for {
		it, err := s.src.NextItem()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if _, err := sp.Append(&spool.Record{Input: it.Input, Entry: it.Entry}); err != nil {
			return err
		}
	}
	s.sc, err = sp.Scan()
	return err
}

// Close removes the spool file.
func (s *spooler) Close() error {
	if s.sp != nil {
		return s.sp.Close()
	}
	return nil
}
