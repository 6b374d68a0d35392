package spool

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keySets are the keys TestKeys stores, the i-th of n: URLs of one site,
// and of many hosts (more than the dictionary of prefixes holds, in
// runs and alternating) with keys that are not URLs, that end with their
// host, whose host is longer than a prefix may be, or is empty.
var keySets = map[string]func(i int) string{
	"one site": func(i int) string {
		k := fmt.Sprintf("https://www.example.com/page/%d", i)
		if i%97 == 0 {
			k += "?" + strings.Repeat("q", 700+i%300) // longer than firstRead
		}
		return k
	},
	"many hosts": func(i int) string {
		switch i % 11 {
		case 0:
			return fmt.Sprintf("not a URL %d", i)
		case 1:
			return fmt.Sprintf("http://host-%d.example", i) // no path
		case 2:
			return fmt.Sprintf("https://%s-%d.example/p", strings.Repeat("h", 300), i%5) // too long a prefix
		case 3:
			return fmt.Sprintf("file:///srv/%d", i) // an empty host
		case 4, 5:
			return fmt.Sprintf("https://u:p@h%d.example:8080/a/%d", i%9, i) // alternating
		case 6:
			return ""
		case 7:
			return fmt.Sprintf("https://h%d.example?q=%d#f", i/3, i) // a query, no path
		}
		return fmt.Sprintf("https://h%d.example/%d", i/3, i) // 6,000 hosts, in runs
	},
}

// TestKeys appends keys, short and longer than a first read, kept in
// memory, in the file, and moving from one to the other part-way (when
// memory is full, or told to), and reads each back by offset, while
// appending and after, and all in order: the same keys, inputs and
// offsets every way.
func TestKeys(t *testing.T) {
	for name, key := range keySets {
		t.Run(name, func(t *testing.T) { testKeys(t, key) })
	}
}

func testKeys(t *testing.T, key func(int) string) {
	const n = 20000
	for _, c := range []struct {
		name     string
		inMemory int
		toFileAt int // the key before which ToFile is called; -1: never
	}{
		{"memory", 4 << 20, -1},
		{"file", 0, -1},
		{"memory full part-way", 200 << 10, -1},
		{"moved part-way", 4 << 20, n / 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			k, err := NewKeys(t.TempDir(), c.inMemory)
			require.NoError(t, err)
			defer k.Close()
			offs := make([]int64, n)
			for i := range n {
				if i == c.toFileAt {
					require.NoError(t, k.ToFile())
					assert.Zero(t, k.MemBytes(), "none in memory once moved")
				}
				offs[i], err = k.Append(key(i), i%7)
				require.NoError(t, err)
				if i%13 == 0 {
					// Reading back while appending: near and far.
					for _, j := range []int{i, i / 2, 0} {
						got, input, err := k.At(offs[j])
						require.NoError(t, err)
						require.Equal(t, key(j), string(got), "key %d read at key %d", j, i)
						require.Equal(t, j%7, input)
					}
				}
			}
			if c.inMemory >= 4<<20 && c.toFileAt < 0 {
				assert.Equal(t, k.Size(), k.MemBytes(), "all in memory")
			}
			for i := n - 1; i >= 0; i -= 7 {
				got, input, err := k.At(offs[i])
				require.NoError(t, err)
				require.Equal(t, key(i), string(got))
				require.Equal(t, i%7, input)
			}
			i := 0
			require.NoError(t, k.Each(func(off int64, got []byte, input int) error {
				require.Equal(t, offs[i], off)
				require.Equal(t, key(i), string(got))
				require.Equal(t, i%7, input)
				i++
				return nil
			}))
			assert.Equal(t, n, i)
		})
	}
}

// The keys of one site are stored without their scheme and host.
func TestKeysOfOneSiteAreStoredWithoutTheirHost(t *testing.T) {
	k, err := NewKeys(t.TempDir(), 4<<20)
	require.NoError(t, err)
	defer k.Close()
	whole := 0
	for i := range 1000 {
		key := fmt.Sprintf("https://www.example.com/page/%d", i)
		whole += len(key)
		_, err := k.Append(key, 0)
		require.NoError(t, err)
	}
	// Each key: its rest, after its frame's length, its input and its prefix's number.
	assert.LessOrEqual(t, k.Size(), int64(whole-1000*len("https://www.example.com")+1000*3), "the host once, not in each key")
}

// A damaged offset gives an error, never a panic.
func TestKeysBadOffset(t *testing.T) {
	for _, inMemory := range []int{1 << 20, 0} {
		k, err := NewKeys(t.TempDir(), inMemory)
		require.NoError(t, err)
		for i := range 100 {
			_, err := k.Append(fmt.Sprintf("key %d", i), i)
			require.NoError(t, err)
		}
		_, _, err = k.At(k.Size())
		assert.Error(t, err, "in memory %d: past the end", inMemory)
		k.Close()
	}
}

// FuzzKeys appends the lines of its input as keys, in memory and in the
// file, and reads each back by offset and in order: the same key and input
// every way, whatever the keys hold (hosts, paths, none of them).
func FuzzKeys(f *testing.F) {
	f.Add("https://www.example.com/a\nhttps://www.example.com\nhttps://www.example.com?q\nhttp://x/\n\nnot a url\nhttps://www.example.com/b")
	f.Add("a://b\na://b/c\na://\n://\nhttps://h.example#f\nhttps://h.example/#f")
	f.Fuzz(func(t *testing.T, in string) {
		keys := strings.Split(in, "\n")
		for _, inMemory := range []int{1 << 20, 0} {
			k, err := NewKeys(t.TempDir(), inMemory)
			require.NoError(t, err)
			offs := make([]int64, len(keys))
			for i, key := range keys {
				offs[i], err = k.Append(key, i)
				require.NoError(t, err)
			}
			for i, key := range keys {
				got, input, err := k.At(offs[i])
				require.NoError(t, err)
				require.Equal(t, key, string(got))
				require.Equal(t, i, input)
			}
			i := 0
			require.NoError(t, k.Each(func(off int64, got []byte, input int) error {
				require.Equal(t, offs[i], off)
				require.Equal(t, keys[i], string(got))
				i++
				return nil
			}))
			require.Equal(t, len(keys), i)
			k.Close()
		}
	})
}
