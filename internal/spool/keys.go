package spool

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/internal/offheap"
)

// Keys is a spool of keys, each with the input it came from: what a
// deduplication that gives each page as soon as it is read keeps of its
// pages, to tell two keys of one hash apart. A key is stored after its
// input, as the body of a frame (see log), as a record is.
//
// A key that is a URL is stored without its scheme and host, which stand
// in a dictionary in memory, by number: the keys of one site repeat them
// (1M keys of www.example.com: 38 MB instead of 62). The dictionary holds
// at most maxPrefixes of them; the keys of other hosts are stored whole.
//
// The keys are kept in memory, out of the garbage-collected heap, up to
// the size given to NewKeys, and in a temporary file past it (or once
// ToFile is called): a lookup of a key in memory costs no system call. The
// offsets stay the same either way. It is not safe for concurrent use.
type Keys struct {
	log
	dir   string
	mem   []byte // the keys, while in memory; nil once in the file
	free  func() // gives mem back
	inMem bool
	// The dictionary of prefixes: prefixes[id-1] is the prefix number id.
	prefixes []string
	ids      map[string]uint64
	last     string // the prefix of the key appended last
	lastID   uint64 // and its number, 0 for none
	whole    []byte // a key put back together (At, Each)
}

// maxPrefixes bounds the dictionary of prefixes: at most 4096 of them, of
// at most maxPrefixLen bytes, 1 MiB.
const (
	maxPrefixes  = 4096
	maxPrefixLen = 255
)

// prefixOf returns the scheme and host of a URL, with its user and port if
// it has them: up to the path, query or fragment after them, or the whole
// URL; "" when key is not a URL (no "://").
func prefixOf(key string) string {
	i := strings.Index(key, "://")
	if i < 0 {
		return ""
	}
	if j := strings.IndexAny(key[i+3:], "/?#"); j >= 0 {
		return key[:i+3+j]
	}
	return key
}

// endsPrefix reports whether c, the byte after a prefix in a key, ends
// it (see prefixOf).
func endsPrefix(c byte) bool { return c == '/' || c == '?' || c == '#' }

// prefixID returns the number of key's prefix in the dictionary, adding
// it while there is room, and the prefix; 0 when the key is stored whole.
func (k *Keys) prefixID(key string) (uint64, string) {
	if l := len(k.last); l > 0 && len(key) >= l && key[:l] == k.last && (len(key) == l || endsPrefix(key[l])) {
		// The host of the key before: most often.
		return k.lastID, k.last
	}
	p := prefixOf(key)
	id, ok := k.ids[p]
	if !ok && p != "" && len(p) <= maxPrefixLen && len(k.prefixes) < maxPrefixes {
		if k.ids == nil {
			k.ids = map[string]uint64{}
		}
		p = strings.Clone(p)
		k.prefixes = append(k.prefixes, p)
		id = uint64(len(k.prefixes))
		k.ids[p] = id
	}
	if id == 0 {
		return 0, ""
	}
	k.last, k.lastID = k.prefixes[id-1], id
	return id, k.last
}

// NewKeys returns a spool of keys that keeps up to inMemory bytes of them
// in memory, then the rest in a file in dir (the system's temporary
// directory when dir is "").
func NewKeys(dir string, inMemory int) (*Keys, error) {
	k := &Keys{dir: dir}
	// The memory is reserved, not allocated: only what the keys use
	// counts. Where the system does not map it, the keys go to the file.
	mem, free, ok := offheap.Map[byte](inMemory)
	if !ok {
		return k, k.toFile()
	}
	k.mem, k.free, k.inMem = mem[:0], free, true
	return k, nil
}

// MemBytes returns the bytes of memory the keys in memory take: 0 once
// they are in the file (but for its write buffer, 1 MiB, as any spool's).
func (k *Keys) MemBytes() int64 {
	if k.inMem {
		return int64(len(k.mem))
	}
	return 0
}

// Size returns the bytes the keys take, in memory or in the file.
func (k *Keys) Size() int64 {
	if k.inMem {
		return int64(len(k.mem))
	}
	return k.log.Size()
}

// ToFile moves the keys to the file and gives their memory back; the
// keys appended after go to the file too.
func (k *Keys) ToFile() error {
	if !k.inMem {
		return nil
	}
	return k.toFile()
}

func (k *Keys) toFile() error {
	l, err := newLog(k.dir, bufSize)
	if err != nil {
		return err
	}
	if len(k.mem) > 0 {
		if _, err := l.f.WriteAt(k.mem, 0); err != nil {
			l.Close()
			return fmt.Errorf("spool: %w", err)
		}
		l.flushed = int64(len(k.mem))
	}
	k.dropMem()
	k.log = l
	return nil
}

func (k *Keys) dropMem() {
	if k.free != nil {
		k.free()
	}
	k.mem, k.free, k.inMem = nil, nil, false
}

// Close removes the spool and gives its memory back.
func (k *Keys) Close() error {
	k.dropMem()
	if k.f == nil {
		return nil
	}
	return k.log.Close()
}

// Append adds a key and its input, and returns the key's offset.
func (k *Keys) Append(key string, input int) (int64, error) {
	// A key is the body of a frame (see log): its input, the number of
	// its prefix, then the rest of it.
	id, prefix := k.prefixID(key)
	rest := key[len(prefix):]
	n := uvarintLen(uint64(input)) + uvarintLen(id) + len(rest)
	if k.inMem {
		if len(k.mem)+n+binary.MaxVarintLen64 <= cap(k.mem) {
			off := int64(len(k.mem))
			k.mem = binary.AppendUvarint(k.mem, uint64(n))
			k.mem = appendKey(k.mem, input, id, rest)
			return off, nil
		}
		if err := k.toFile(); err != nil {
			return 0, err
		}
	}
	off, err := k.frame(n)
	k.buf = appendKey(k.buf, input, id, rest)
	return off, err
}

// MaxKeyFraming is the most bytes Append keeps beside those of a key: its
// frame's length, its input and the number of its prefix, as varints.
const MaxKeyFraming = 3 * binary.MaxVarintLen64

// appendKey appends the body of a key's frame.
func appendKey(b []byte, input int, id uint64, rest string) []byte {
	b = binary.AppendUvarint(b, uint64(input))
	b = binary.AppendUvarint(b, id)
	return append(b, rest...)
}

// At returns the key at off, an offset Append returned, and its input. The
// key's bytes are valid until the next call.
func (k *Keys) At(off int64) (key []byte, input int, err error) {
	var body []byte
	if k.inMem {
		body, _ = frameBody(k.mem[min(off, int64(len(k.mem))):])
	} else if body, err = k.frameAt(off); err != nil {
		return nil, 0, err
	}
	key, input, ok := k.decodeKey(body)
	if !ok {
		return nil, 0, errCorrupt
	}
	return key, input, nil
}

// decodeKey decodes the body of a key's frame: the key, in k.whole when
// it was stored after a prefix.
func (k *Keys) decodeKey(body []byte) (key []byte, input int, ok bool) {
	in, n := binary.Uvarint(body)
	if n <= 0 {
		return nil, 0, false
	}
	id, m := binary.Uvarint(body[n:])
	if m <= 0 || id > uint64(len(k.prefixes)) {
		return nil, 0, false
	}
	rest := body[n+m:]
	if id == 0 {
		return rest, int(in), true
	}
	k.whole = append(append(k.whole[:0], k.prefixes[id-1]...), rest...)
	return k.whole, int(in), true
}

// Each calls fn with every key in the order appended, its offset and its
// input, until fn returns an error; the key's bytes are valid during the
// call. Keys may be appended after, not during.
func (k *Keys) Each(fn func(off int64, key []byte, input int) error) error {
	if k.inMem {
		for off := 0; off < len(k.mem); {
			body, n := frameBody(k.mem[off:])
			key, input, ok := k.decodeKey(body)
			if n == 0 || !ok {
				return errCorrupt
			}
			if err := fn(int64(off), key, input); err != nil {
				return err
			}
			off += n
		}
		return nil
	}
	fr, err := k.scan(0, -1, 1<<20)
	if err != nil {
		return err
	}
	for {
		off := fr.off
		frame, n, err := fr.next(1)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		key, input, ok := k.decodeKey(frame[n:])
		if !ok {
			return errCorrupt
		}
		if err := fn(off, key, input); err != nil {
			return err
		}
	}
}
