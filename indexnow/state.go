package indexnow

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
)

// State remembers what was submitted: for each URL, a 64-bit hash of the
// URL and one of the URL with its lastmod, 16 bytes a URL in the file and
// a few dozen in memory. A URL is submitted again when it is new or its
// lastmod changed. (Two URLs whose hashes both collide, a chance of about
// one in 10^10 for a million URLs, would be taken for each other.)
//
// Check stages the new hash of a URL that needs submitting; Done records
// the staged hashes of a batch that was accepted and forgets those of one
// that was not, so that its URLs are submitted again next time. A State is
// not safe for concurrent use.
type State struct {
	sent    map[uint64]uint64 // hash of the URL → hash of URL and lastmod
	staged  map[uint64]uint64
	changed bool
}

// NewState returns an empty State.
func NewState() *State {
	return &State{sent: map[uint64]uint64{}, staged: map[uint64]uint64{}}
}

// Len returns how many URLs the State holds as submitted.
func (s *State) Len() int { return len(s.sent) }

// hashes returns the hash of loc, and that of loc with lastmod (the W3C
// form it is written in; "" when unknown).
func hashes(loc, lastmod string) (key, value uint64) {
	h := fnv.New64a()
	io.WriteString(h, loc)
	key = h.Sum64()
	h.Write([]byte{0})
	io.WriteString(h, lastmod)
	return key, h.Sum64()
}

// Check reports whether loc is new, or its lastmod differs from the one it
// was last submitted with. When it is, the new lastmod is staged, for Done
// to record.
func (s *State) Check(loc, lastmod string) bool {
	k, v := hashes(loc, lastmod)
	if old, ok := s.sent[k]; ok && old == v {
		return false
	}
	s.staged[k] = v
	return true
}

// Done records the staged lastmods of locs as submitted when accepted is
// true, and forgets them either way.
func (s *State) Done(locs []string, accepted bool) {
	for _, loc := range locs {
		k, _ := hashes(loc, "")
		v, ok := s.staged[k]
		if !ok {
			continue
		}
		delete(s.staged, k)
		if accepted && s.sent[k] != v {
			s.sent[k] = v
			s.changed = true
		}
	}
}

// Changed reports whether Done recorded anything since the State was read.
func (s *State) Changed() bool { return s.changed }

// stateMagic starts a state file; the number of records follows, then a
// newline, then the records: 16 bytes each, the two hashes big-endian,
// sorted.
const stateMagic = "feed2sitemap indexnow state 1 "

// maxStateRecords bounds what a state file may claim to hold.
const maxStateRecords = 1 << 31

// ErrBadState is wrapped by the errors ReadState returns for a file that is
// not a state file or is damaged.
var ErrBadState = errors.New("indexnow: not a state file written by feed2sitemap, or damaged")

// ReadState reads a State written by WriteTo; name says where it comes
// from, in errors.
func ReadState(r io.Reader, name string) (*State, error) {
	br := bufio.NewReader(r)
	head, err := br.ReadSlice('\n')
	if err != nil || !bytes.HasPrefix(head, []byte(stateMagic)) {
		return nil, fmt.Errorf("%s: %w", name, ErrBadState)
	}
	count := string(head[len(stateMagic) : len(head)-1])
	n, err := strconv.ParseUint(count, 10, 64)
	if err != nil || n > maxStateRecords || strconv.FormatUint(n, 10) != count {
		return nil, fmt.Errorf("%s: %w (bad record count)", name, ErrBadState)
	}
	s := NewState()
	s.sent = make(map[uint64]uint64, min(n, 1<<20))
	var rec [16]byte
	var prev uint64
	for i := uint64(0); i < n; i++ {
		if _, err := io.ReadFull(br, rec[:]); err != nil {
			return nil, fmt.Errorf("%s: %w (cut short after %d of %d records)", name, ErrBadState, i, n)
		}
		k := binary.BigEndian.Uint64(rec[:8])
		if i > 0 && k <= prev {
			return nil, fmt.Errorf("%s: %w (records out of order)", name, ErrBadState)
		}
		prev = k
		s.sent[k] = binary.BigEndian.Uint64(rec[8:])
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, fmt.Errorf("%s: %w (data after %d records)", name, ErrBadState, n)
	}
	return s, nil
}

// WriteTo writes the State's submitted URLs (not the staged ones) to w, in
// an order that depends only on the content.
func (s *State) WriteTo(w io.Writer) (int64, error) {
	keys := make([]uint64, 0, len(s.sent))
	for k := range s.sent {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	bw := bufio.NewWriter(w)
	n, _ := fmt.Fprintf(bw, "%s%d\n", stateMagic, len(keys))
	total := int64(n)
	var rec [16]byte
	for _, k := range keys {
		binary.BigEndian.PutUint64(rec[:8], k)
		binary.BigEndian.PutUint64(rec[8:], s.sent[k])
		bw.Write(rec[:])
		total += 16
	}
	return total, bw.Flush()
}

// LoadState reads the state file at path; a file that does not exist gives
// an empty State.
func LoadState(path string) (*State, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return NewState(), nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadState(f, path)
}

// Save replaces the state file at path atomically: readers see the old
// state or the new one, never a mix.
func (s *State) Save(path string) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := s.WriteTo(w)
		return err
	})
}
