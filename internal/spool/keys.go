package spool

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/feed2sitemap/feed2sitemap/internal/offheap"
)

// Keys is a spool of keys, each with the input it came from: what a
// deduplication that gives each page as soon as it is read keeps of its
// pages, to tell two keys of one hash apart. A key is stored as it is,
// after its length and before its input.
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
	need := len(key) + 2*binary.MaxVarintLen64
	if k.inMem {
		if len(k.mem)+need <= cap(k.mem) {
			off := int64(len(k.mem))
			k.mem = appendKey(k.mem, key, input)
			return off, nil
		}
		if err := k.toFile(); err != nil {
			return 0, err
		}
	}
	off := k.log.Size()
	if len(k.buf)+need > cap(k.buf) {
		if err := k.flush(); err != nil {
			return 0, err
		}
	}
	k.buf = appendKey(k.buf, key, input)
	return off, nil
}

func appendKey(b []byte, key string, input int) []byte {
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	return binary.AppendUvarint(b, uint64(input))
}

// At returns the key at off, an offset Append returned, and its input. The
// key's bytes are valid until the next call.
func (k *Keys) At(off int64) (key []byte, input int, err error) {
	var b []byte
	switch {
	case k.inMem:
		b = k.mem[min(off, int64(len(k.mem))):]
	case off >= k.flushed:
		b = k.buf[off-k.flushed:]
	default:
		if b = k.read(off, int(min(firstRead, k.Size()-off))); b == nil {
			return nil, 0, fmt.Errorf("spool: read at %d failed", off)
		}
		if size, m := binary.Uvarint(b); m > 0 && size <= uint64(k.Size()-off) && uint64(len(b)-m) < size+binary.MaxVarintLen64 {
			// A key longer than the first read: read all of it.
			b = k.read(off, int(min(int64(m)+int64(size)+binary.MaxVarintLen64, k.Size()-off)))
		}
	}
	key, input, n := decodeKey(b)
	if n < 0 {
		return nil, 0, errCorrupt
	}
	return key, input, nil
}

// decodeKey decodes the key at the start of b, and returns its length in
// b, or -1 when b does not hold all of it.
func decodeKey(b []byte) (key []byte, input, n int) {
	size, m := binary.Uvarint(b)
	if m <= 0 || size > uint64(len(b)-m) {
		return nil, 0, -1
	}
	key = b[m : m+int(size)]
	in, j := binary.Uvarint(b[m+int(size):])
	if j <= 0 {
		return nil, 0, -1
	}
	return key, int(in), m + int(size) + j
}

// Each calls fn with every key in the order appended, its offset and its
// input, until fn returns an error; the key's bytes are valid during the
// call. Keys may be appended after, not during.
func (k *Keys) Each(fn func(off int64, key []byte, input int) error) error {
	if k.inMem {
		for off := 0; off < len(k.mem); {
			key, input, n := decodeKey(k.mem[off:])
			if n < 0 {
				return errCorrupt
			}
			if err := fn(int64(off), key, input); err != nil {
				return err
			}
			off += n
		}
		return nil
	}
	if err := k.flush(); err != nil {
		return err
	}
	r := bufio.NewReaderSize(io.NewSectionReader(k.f, 0, k.flushed), 1<<20)
	var buf []byte
	for off := int64(0); off < k.flushed; {
		size, err := binary.ReadUvarint(r)
		if err != nil || size > uint64(k.flushed-off) {
			return errCorrupt
		}
		if uint64(cap(buf)) < size {
			buf = make([]byte, size)
		}
		key := buf[:size]
		if _, err := io.ReadFull(r, key); err != nil {
			return errCorrupt
		}
		input, err := binary.ReadUvarint(r)
		if err != nil {
			return errCorrupt
		}
		if err := fn(off, key, int(input)); err != nil {
			return err
		}
		off += int64(uvarintLen(size)) + int64(size) + int64(uvarintLen(input))
	}
	return nil
}
