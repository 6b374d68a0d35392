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
	src     formats.Reader
	tempDir string
	sp      *spool.File
	sc      *spool.Scanner
	err     error
}

func newSpooler(src formats.Reader, tempDir string) *spooler {
	return &spooler{src: src, tempDir: tempDir}
}

func (s *spooler) Next() (formats.Entry, error) {
	if s.err != nil {
		return formats.Entry{}, s.err
	}
	if s.sc == nil {
		if s.err = s.fill(); s.err != nil {
			return formats.Entry{}, s.err
		}
	}
	r, err := s.sc.Next()
	if err != nil {
		s.err = err
		return formats.Entry{}, err
	}
	return r.Entry, nil
}

// fill reads the source into the spool.
func (s *spooler) fill() error {
	sp, err := spool.New(s.tempDir)
	if err != nil {
		return err
	}
	s.sp = sp
	for {
		e, err := s.src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if _, err := sp.Append(&spool.Record{Entry: e}); err != nil {
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
