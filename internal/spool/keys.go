package spool

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/internal/offheap"
)

// Keys is a spool of keys, each with the input it came from: what a
// deduplication that gives each page as soon as it is read keeps of its
// pages, to tell two keys of one hash apart. A key is stored as it is,
// after its input, as the body of a frame (see log), as a record is.
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
	// A key is the body of a frame (see log): its input, then it.
	n := uvarintLen(uint64(input)) + len(key)
	if k.inMem {
		if len(k.mem)+n+binary.MaxVarintLen64 <= cap(k.mem) {
			off := int64(len(k.mem))
			k.mem = binary.AppendUvarint(k.mem, uint64(n))
			k.mem = appendKey(k.mem, key, input)
			return off, nil
		}
		if err := k.toFile(); err != nil {
			return 0, err
		}
	}
	off, err := k.frame(n)
	k.buf = appendKey(k.buf, key, input)
	return off, err
}

// appendKey appends the body of a key's frame.
func appendKey(b []byte, key string, input int) []byte {
	b = binary.AppendUvarint(b, uint64(input))
	return append(b, key...)
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
	key, input, ok := decodeKey(body)
	if !ok {
		return nil, 0, errCorrupt
	}
	return key, input, nil
}

// decodeKey decodes the body of a key's frame.
func decodeKey(body []byte) (key []byte, input int, ok bool) {
	in, n := binary.Uvarint(body)
	if n <= 0 {
		return nil, 0, false
	}
	return body[n:], int(in), true
}

// Each calls fn with every key in the order appended, its offset and its
// input, until fn returns an error; the key's bytes are valid during the
// call. Keys may be appended after, not during.
func (k *Keys) Each(fn func(off int64, key []byte, input int) error) error {
	if k.inMem {
		for off := 0; off < len(k.mem); {
			body, n := frameBody(k.mem[off:])
			key, input, ok := decodeKey(body)
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
		key, input, ok := decodeKey(frame[n:])
		if !ok {
			return errCorrupt
		}
		if err := fn(off, key, input); err != nil {
			return err
		}
	}
}
