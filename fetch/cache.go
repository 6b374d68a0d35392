package fetch

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
)

// cache keeps, per URL, the validators of the last answer and its body
// (after Content-Encoding was removed), in one file named after the
// SHA-256 of the URL: a line of JSON, then the body. A file is written
// under a temporary name and renamed into place only once the whole body
// was read, so an entry is complete or absent; an entry that does not
// read back (corrupt, cut short, another URL's) is ignored, and the
// request made without validators.
type cache struct {
	dir string
	// unusable is told that an entry could not be put in place, so that
	// the cache is left out from then on.
	unusable func(error)
}

// entry is the head of a cache file.
type entry struct {
	URL          string `json:"url"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"last_modified,omitempty"`
	Charset      string `json:"charset,omitempty"` // of the Content-Type, for the body served again on a 304
	Size         int64  `json:"size"`

	path string // the file
	head int64  // where the body starts in it
}

// maxHead bounds the line of JSON read back from a cache file.
const maxHead = 16 << 10

// validators returns the cache entry of an answer with the header h: its
// validators, and the charset its body is in.
func validators(h http.Header) *entry {
	return &entry{ETag: h.Get("ETag"), LastModified: h.Get("Last-Modified"), Charset: contentCharset(h)}
}

// contentCharset returns the charset parameter of h's Content-Type, or ""
// when it has none (or none that parses).
func contentCharset(h http.Header) string {
	_, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil {
		return ""
	}
	return params["charset"]
}

func (c *cache) path(rawURL string) string {
	sum := sha256.Sum256([]byte(rawURL))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:])+".cache")
}

// load returns the entry of rawURL, or nil when there is none that reads
// back whole.
func (c *cache) load(rawURL string) *entry {
	if c == nil {
		return nil
	}
	path := c.path(rawURL)
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	line, err := bufio.NewReaderSize(io.LimitReader(f, maxHead), maxHead).ReadSlice('\n')
	if err != nil {
		return nil
	}
	e := &entry{path: path, head: int64(len(line))}
	if json.Unmarshal(line, e) != nil || e.URL != rawURL || e.Size != fi.Size()-e.head || e.ETag == "" && e.LastModified == "" {
		return nil
	}
	return e
}

// open returns the body of the entry.
func (c *cache) open(e *entry, max int64) (*Body, error) {
	if max > 0 && e.Size > max {
		return nil, tooLarge(max)
	}
	f, err := os.Open(e.path)
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(e.head, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &Body{Status: http.StatusNotModified, Size: e.Size, Charset: e.Charset, f: f, r: io.LimitReader(f, e.Size)}, nil
}

// unusableError is the error of a cache directory that cannot be written
// to (not creatable, not writable, a file), found before anything of a
// body was read: the fetch goes on without the cache.
type unusableError struct{ err error }

func (u unusableError) Error() string { return u.err.Error() }

// usable returns an error when the cache directory cannot be created or
// written to.
func (c *cache) usable() error {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp.Close()
	return os.Remove(tmp.Name())
}

// store copies the body r into the entry of e.URL, replacing the old one
// once it is whole, and returns it open for reading. It returns an
// unusableError, having read nothing of r, when the directory cannot be
// written to.
func (c *cache) store(e *entry, r io.Reader, max int64) (*Body, error) {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, unusableError{err}
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return nil, unusableError{err}
	}
	fail := func(err error) (*Body, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	// The size is not known before the body is read: the head is written
	// with room for it, then rewritten in place.
	e.Size = 1<<62 + 1
	head, err := json.Marshal(e)
	if err != nil {
		return fail(err)
	}
	if _, err := tmp.Write(append(head, '\n')); err != nil {
		return fail(unusableError{err})
	}
	if e.Size, err = copyCapped(tmp, r, max); err != nil {
		return fail(err)
	}
	fixed, err := json.Marshal(e)
	if err != nil {
		return fail(err)
	}
	// Padded with spaces (JSON allows them) to the length written.
	for len(fixed) < len(head) {
		fixed = append(fixed, ' ')
	}
	if _, err := tmp.WriteAt(fixed, 0); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	e.path, e.head = c.path(e.URL), int64(len(head)+1)
	b := &Body{Status: http.StatusOK, Size: e.Size, Charset: e.Charset, f: tmp, r: io.LimitReader(tmp, e.Size)}
	if err := os.Rename(tmp.Name(), e.path); err != nil {
		// The body is whole in the temporary file: it is read from
		// there, and removed on Close; the cache is left out.
		b.remove = tmp.Name()
		if c.unusable != nil {
			c.unusable(err)
		}
	}
	if _, err := tmp.Seek(e.head, io.SeekStart); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}
