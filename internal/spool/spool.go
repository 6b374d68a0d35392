// Package spool keeps entries in a temporary file, in a compact binary
// form, so that a run can hold tens of millions of them while its memory
// holds only their offsets. Records are appended, read back by offset at any
// time, and scanned in order.
//
// The file is removed from its directory as soon as it is created, so it
// goes away with the process however the process ends.
package spool

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// bufSize is how many bytes of records are kept in memory before they are
// written to the file.
const bufSize = 1 << 20

// firstRead is how many bytes ReadAt reads of a record in the file at
// first.
const firstRead = 512

// Record is an entry as the spool holds it, with what the caller keeps
// beside it.
type Record struct {
	Off   int64 // where the record starts; what Append returned
	Flags uint8
	Hash  uint64
	Input int   // the input the entry came from
	Link  int64 // the offset of a related record, for the caller
	Entry formats.Entry
}

// File is a spool. It is not safe for concurrent use.
type File struct {
	log
	dec decoder
}

// log is the file of a spool: bytes appended through a buffer and read
// back by offset.
type log struct {
	f       *os.File
	buf     []byte // bytes not yet written to f
	flushed int64  // bytes written to f
	scratch []byte
}

// newLog creates the file of a spool in dir, removed at once, with a
// buffer of size bytes.
func newLog(dir string, size int) (log, error) {
	f, err := os.CreateTemp(dir, "feed2sitemap-spool-*")
	if err != nil {
		return log{}, fmt.Errorf("spool: %w", err)
	}
	os.Remove(f.Name())
	return log{f: f, buf: make([]byte, 0, size)}, nil
}

// New creates a spool in dir (the system's temporary directory when dir is
// "").
func New(dir string) (*File, error) { return NewSize(dir, bufSize) }

// NewSize creates a spool in dir that keeps size bytes of records in
// memory before it writes them (New: 1 MiB), for many spools open at once.
func NewSize(dir string, size int) (*File, error) {
	l, err := newLog(dir, size)
	if err != nil {
		return nil, err
	}
	return &File{log: l}, nil
}

// Close removes the spool.
func (s *log) Close() error { return s.f.Close() }

// Size returns the number of bytes the records take.
func (s *log) Size() int64 { return s.flushed + int64(len(s.buf)) }

// Append adds a record (its Off is ignored) and returns its offset.
func (s *File) Append(r *Record) (int64, error) {
	body := appendBody(s.scratch[:0], r)
	s.scratch = body
	off, err := s.frame(len(body))
	s.buf = append(s.buf, body...)
	return off, err
}

// A log holds frames: a body's length, then the body. Records (File) and
// keys (Keys) are the bodies of frames, so that one way of writing, reading
// back by offset and scanning serves both.

// frame starts a frame for a body of n bytes, writing the buffer out first
// when the frame would not fit in it, and returns the frame's offset: the
// caller appends the body to s.buf.
func (s *log) frame(n int) (int64, error) {
	if len(s.buf)+n+binary.MaxVarintLen64 > cap(s.buf) {
		if err := s.flush(); err != nil {
			return 0, err
		}
	}
	off := s.Size()
	s.buf = binary.AppendUvarint(s.buf, uint64(n))
	return off, nil
}

// frameBody returns the body of the frame at the start of b and the
// frame's length, or nil and 0 when b does not hold a whole frame.
func frameBody(b []byte) ([]byte, int) {
	size, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < size {
		return nil, 0
	}
	return b[k : k+int(size)], k + int(size)
}

// frameAt returns the body of the frame at off, an offset frame returned,
// valid until the next call.
func (s *log) frameAt(off int64) ([]byte, error) {
	var b []byte
	if off >= s.flushed {
		b = s.buf[min(off-s.flushed, int64(len(s.buf))):]
	} else {
		// Most frames are a URL and a few fields, a few hundred bytes:
		// read that much, then the rest if it is longer (a record with
		// extension data), rather than a page for every frame.
		b = s.read(off, int(min(firstRead, s.Size()-off)))
		if b == nil {
			return nil, fmt.Errorf("spool: read at %d failed", off)
		}
		if size, k := binary.Uvarint(b); k > 0 && uint64(len(b)-k) < size && size <= uint64(s.Size()-off) {
			b = s.read(off, k+int(size))
		}
	}
	body, n := frameBody(b)
	if n == 0 {
		return nil, errCorrupt
	}
	return body, nil
}

// appendBody appends the body of the record r (what follows its length).
func appendBody(b []byte, r *Record) []byte {
	b = append(b, r.Flags)
	b = binary.LittleEndian.AppendUint64(b, r.Hash)
	b = binary.AppendUvarint(b, uint64(r.Input))
	b = binary.AppendUvarint(b, uint64(r.Link))
	return appendEntry(b, &r.Entry)
}

// Encode appends the record r (its Off is ignored) to b as Append writes
// it, its length first, for AppendEncoded to write later.
func Encode(b []byte, r *Record) []byte {
	start := len(b)
	b = append(b, 0) // the length, when it takes one byte
	b = appendBody(b, r)
	size := len(b) - start - 1
	if size < 0x80 {
		b[start] = byte(size)
		return b
	}
	k := uvarintLen(uint64(size))
	b = append(b, make([]byte, k-1)...)
	copy(b[start+k:], b[start+1:start+1+size])
	binary.PutUvarint(b[start:], uint64(size))
	return b
}

// EncodedLen returns the length of the record Encode wrote at the start of
// b, or 0 when b does not start with one.
func EncodedLen(b []byte) int {
	size, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < size {
		return 0
	}
	return k + int(size)
}

// EncodedLoc returns where the loc of the record Encode wrote at the start
// of b starts in b, and its length; 0, 0 when b does not start with one.
func EncodedLoc(b []byte) (at, n int) {
	at, n, _ = EncodedInputLoc(b)
	return at, n
}

// EncodedInputLoc is EncodedLoc, also returning the input of the record.
func EncodedInputLoc(b []byte) (at, n, input int) {
	_, k := binary.Uvarint(b)
	if k <= 0 || len(b) < k+9 {
		return 0, 0, 0
	}
	at = k + 9
	for i := range 3 { // the input, the link and the loc's length
		v, k := binary.Uvarint(b[at:])
		if k <= 0 {
			return 0, 0, 0
		}
		if i == 0 {
			input = int(v)
		}
		at, n = at+k, int(v)
	}
	if n > len(b)-at {
		return 0, 0, 0
	}
	return at, n, input
}

// EncodedTime returns the instant of the lastmod of the record Encode
// wrote at the start of b, whose loc ends at locEnd (EncodedLoc): its Unix
// seconds and nanoseconds; false when it has none.
func EncodedTime(b []byte, locEnd int) (sec int64, nsec uint64, ok bool) {
	d := decoder{b: b[locEnd:]}
	if formats.Precision(d.byte()) == formats.PrecisionUnknown {
		return 0, 0, false
	}
	sec, nsec = d.varint(), d.uvarint()
	return sec, nsec, d.err == nil
}

// AppendEncoded appends records as Encode wrote them, one after another,
// and returns the offset of the first.
func (s *File) AppendEncoded(recs []byte) (int64, error) {
	off := s.Size()
	if len(s.buf)+len(recs) > cap(s.buf) {
		if err := s.flush(); err != nil {
			return 0, err
		}
	}
	if len(recs) > cap(s.buf) {
		if _, err := s.f.WriteAt(recs, s.flushed); err != nil {
			return 0, fmt.Errorf("spool: %w", err)
		}
		s.flushed += int64(len(recs))
		return off, nil
	}
	s.buf = append(s.buf, recs...)
	return off, nil
}

// Flush writes the records held in memory to the file. While nothing is
// appended after it, ReadEncoded and ScanRange may then be called from
// several goroutines at once.
func (s *File) Flush() error { return s.flush() }

// ReadEncoded appends to b the bytes from offset start to end, records
// as Encode wrote them when start and end are where records start (what
// AppendEncoded returned, or Size), and returns the extended slice.
func (s *File) ReadEncoded(b []byte, start, end int64) ([]byte, error) {
	return s.appendRange(b, start, end)
}

// Decoder decodes records Encode wrote, outside a spool file. Its strings
// are cut from blocks of memory it allocates, a few records to one.
type Decoder struct{ dec decoder }

// Decode decodes the record at the start of b into *r (its Off is 0) and
// returns its length.
func (d *Decoder) Decode(b []byte, r *Record) (int, error) {
	size, k := binary.Uvarint(b)
	if k <= 0 || uint64(len(b)-k) < size {
		*r = Record{}
		return 0, errCorrupt
	}
	return k + int(size), d.dec.recordInto(b[k:k+int(size)], r)
}

func (s *log) flush() error {
	if len(s.buf) == 0 {
		return nil
	}
	if _, err := s.f.WriteAt(s.buf, s.flushed); err != nil {
		return fmt.Errorf("spool: %w", err)
	}
	s.flushed += int64(len(s.buf))
	s.buf = s.buf[:0]
	return nil
}

// ReadAt returns the record at off, an offset Append returned.
func (s *File) ReadAt(off int64) (Record, error) {
	body, err := s.frameAt(off)
	if err == nil && len(body) < 9 {
		err = errCorrupt
	}
	if err != nil {
		return Record{}, err
	}
	r, err := s.dec.record(body)
	r.Off = off
	return r, err
}

// read returns n bytes at off, valid until the next call, or nil when
// they cannot be read.
func (s *log) read(off int64, n int) []byte {
	b, err := s.appendRange(s.scratch[:0], off, off+int64(n))
	if err != nil {
		return nil
	}
	s.scratch = b
	return b
}

// appendRange appends to b the bytes from offset start to end: what was
// written to the file with one read, then what is still in the buffer.
func (s *log) appendRange(b []byte, start, end int64) ([]byte, error) {
	if start < 0 || end < start || end > s.Size() {
		return b, fmt.Errorf("spool: no bytes from %d to %d", start, end)
	}
	n := len(b)
	b = slices.Grow(b, int(end-start))[:n+int(end-start)]
	if fromFile := min(end, s.flushed) - start; fromFile > 0 {
		if _, err := s.f.ReadAt(b[n:n+int(fromFile)], start); err != nil {
			return b[:n], fmt.Errorf("spool: %w", err)
		}
		n += int(fromFile)
		start += fromFile
	}
	if end > start {
		copy(b[n:], s.buf[start-s.flushed:end-s.flushed])
	}
	return b, nil
}

// Scanner reads the records of a spool in order.
type Scanner struct {
	frames
	dec decoder
}

// frames reads the frames of a log in order.
type frames struct {
	r   *bufio.Reader
	off int64 // of the next frame
	buf []byte
}

// scan returns a reader of the frames from offset start to end (-1: the
// end of the log), reading ahead bufSize bytes at a time.
func (s *log) scan(start, end int64, bufSize int) (frames, error) {
	if err := s.flush(); err != nil {
		return frames{}, err
	}
	if end < 0 {
		end = s.flushed
	}
	return frames{r: bufio.NewReaderSize(io.NewSectionReader(s.f, start, end-start), bufSize), off: start}, nil
}

// next returns the next frame, whole, valid until the next call, and the
// length of its length; io.EOF after the last. A body shorter than least
// is corrupt.
func (fr *frames) next(least uint64) ([]byte, int, error) {
	size, err := binary.ReadUvarint(fr.r)
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil || size < least {
		return nil, 0, errCorrupt
	}
	k := uvarintLen(size)
	if uint64(cap(fr.buf)) < uint64(k)+size {
		fr.buf = make([]byte, uint64(k)+size)
	}
	rec := binary.AppendUvarint(fr.buf[:0], size)[:uint64(k)+size]
	if _, err := io.ReadFull(fr.r, rec[k:]); err != nil {
		return nil, 0, errCorrupt
	}
	fr.buf = rec
	fr.off += int64(len(rec))
	return rec, k, nil
}

// Scan returns a scanner of every record appended so far. The spool may be
// read by offset while it scans, but not appended to.
func (s *File) Scan() (*Scanner, error) {
	return s.ScanRange(0, -1, 1<<20)
}

// ScanRange returns a scanner of the records from offset start (one Append
// returned) to end (the offset of the record after the last, or -1 for the
// end of the spool), reading ahead bufSize bytes at a time.
func (s *File) ScanRange(start, end int64, bufSize int) (*Scanner, error) {
	fr, err := s.scan(start, end, bufSize)
	if err != nil {
		return nil, err
	}
	return &Scanner{frames: fr}, nil
}

// Next returns the next record, or io.EOF after the last.
func (sc *Scanner) Next() (Record, error) {
	var r Record
	err := sc.NextInto(&r)
	return r, err
}

// NextInto reads the next record into *r, or returns io.EOF after the
// last: a record is large, and a scan of millions copies less so.
func (sc *Scanner) NextInto(r *Record) error {
	rec, k, err := sc.next(9)
	if err != nil {
		*r = Record{}
		return err
	}
	err = sc.dec.recordInto(rec[k:], r)
	r.Off = sc.off - int64(len(rec))
	return err
}

// NextRaw returns the next record as Encode wrote it, without decoding it,
// valid until the next call; io.EOF after the last.
func (sc *Scanner) NextRaw() ([]byte, error) {
	rec, _, err := sc.next(9)
	return rec, err
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}
