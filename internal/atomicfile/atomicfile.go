// Package atomicfile replaces files atomically: what is written goes to a
// temporary file in the same directory, which is synced and renamed over
// the destination only when everything was written. Readers of the file
// see the old content or the new, never a mix; a failed write leaves the
// old file as it was.
//
// It is the one place that decides what writing to a path means, for every
// file the project writes:
//
//   - A symbolic link is written through: the file it points at (following
//     every link) is replaced, in its own directory, and the link stays a
//     link. A dangling link creates the file it points at when that file's
//     directory exists.
//   - A directory, a named pipe (FIFO), a device or a socket is refused
//     with ErrNotRegular, before anything is written: Target says so up
//     front, so that a command can refuse before it reads its inputs.
//   - A path whose directory does not exist is refused.
package atomicfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// ErrNotRegular is matched (with errors.Is) by the errors of Target,
// Write and Place for a path that names something other than a regular
// file or a link to one.
var ErrNotRegular = errors.New("atomicfile: not a regular file")

// maxLinks is how many symbolic links Target follows, as the kernel's
// ELOOP limit.
const maxLinks = 40

// Target returns the file that writing path replaces: path itself, or, when
// path is a symbolic link, the file the chain of links ends at, whether or
// not that file exists yet. It returns an error naming path for a directory,
// a named pipe, a device or a socket (matching ErrNotRegular), for a link
// chain too long, and for a file whose directory does not exist.
func Target(path string) (string, error) {
	target := path
	for links := 0; ; links++ {
		fi, err := os.Lstat(target)
		if errors.Is(err, fs.ErrNotExist) {
			dir := filepath.Dir(target)
			if di, err := os.Stat(dir); err != nil || !di.IsDir() {
				return "", fmt.Errorf("%s: the directory %s does not exist", describe(path, target), dir)
			}
			return target, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if what := kind(fi.Mode()); what != "" {
				return "", notRegularError(describe(path, target) + " is " + what + ", not a regular file")
			}
			return target, nil
		}
		if links == maxLinks {
			return "", fmt.Errorf("%s: more than %d symbolic links in a row", path, maxLinks)
		}
		dest, err := os.Readlink(target)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			// Relative to the link's directory as the kernel sees it:
			// ".." after a linked directory is its real parent.
			dir := filepath.Dir(target)
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real
			}
			dest = filepath.Join(dir, dest)
		}
		target = dest
	}
}

// notRegularError describes a path that is not a regular file; it matches
// ErrNotRegular.
type notRegularError string

func (e notRegularError) Error() string        { return string(e) }
func (e notRegularError) Is(target error) bool { return target == ErrNotRegular }

// describe names path in messages, and the file it leads to when it is a
// link.
func describe(path, target string) string {
	if target == path {
		return path
	}
	return path + " (a link to " + target + ")"
}

// kind describes a file mode that is not a regular file's, or returns "".
func kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// permOf returns the permission bits of the regular file at target, or def
// when there is none.
func permOf(target string, def fs.FileMode) fs.FileMode {
	if fi, err := os.Stat(target); err == nil {
		return fi.Mode().Perm()
	}
	return def
}

// Write replaces the file at path with what fill writes. An existing file
// keeps its permission bits; a new one gets perm. Nothing is changed when
// fill or any step of the write fails. A link is written through, and
// what is not a regular file refused, as Target says.
func Write(path string, perm fs.FileMode, fill func(w io.Writer) error) (err error) {
	target, err := Target(path)
	if err != nil {
		return err
	}
	return write(target, perm, fill)
}

// write replaces target, which Target returned.
func write(target string, def fs.FileMode, fill func(w io.Writer) error) (err error) {
	f, err := CreateTemp(filepath.Dir(target), filepath.Base(target))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err = fill(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Chmod(permOf(target, def)); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), target)
}

// WriteFile replaces the file at path with data, as Write does.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Place puts the complete file tmp at path, as Write would have written
// it: through links, keeping the permission bits of the file it replaces
// (a new file gets perm). tmp is renamed; when the file path leads to is on
// another file system, tmp is copied beside it first and then removed. On
// failure tmp is removed and the file at path is as it was. Place returns
// the file replaced.
func Place(tmp, path string, perm fs.FileMode) (string, error) {
	target, err := Target(path)
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Chmod(tmp, permOf(target, perm)); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, target); err != nil {
		// Across file systems (a link to another disk): copied.
		cerr := write(target, perm, func(w io.Writer) error {
			f, err := os.Open(tmp)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(w, f)
			return err
		})
		os.Remove(tmp)
		if cerr != nil {
			return "", cerr
		}
	}
	return target, nil
}

// PlaceChanged puts tmp at path as Place does, unless the file path leads
// to already holds the same bytes: then tmp is removed and that file is
// kept as it is, modification time and all, so that a file rewritten
// unchanged does not look new. It returns the file path leads to, and
// whether it was replaced.
func PlaceChanged(tmp, path string, perm fs.FileMode) (target string, replaced bool, err error) {
	if same, err := sameContent(tmp, path); err == nil && same {
		if target, err = Target(path); err != nil {
			os.Remove(tmp)
			return "", false, err
		}
		return target, false, os.Remove(tmp)
	}
	target, err = Place(tmp, path, perm)
	return target, err == nil, err
}

// sameContent reports whether the files a and b hold the same bytes; b
// must be a regular file, or a link to one.
func sameContent(a, b string) (bool, error) {
	// b first: it is missing whenever a set is written for the first
	// time, and then a need not be opened.
	fb, err := os.Open(b)
	if err != nil {
		return false, err
	}
	defer fb.Close()
	fa, err := os.Open(a)
	if err != nil {
		return false, err
	}
	defer fa.Close()
	sa, err := fa.Stat()
	if err != nil {
		return false, err
	}
	sb, err := fb.Stat()
	if err != nil || !sb.Mode().IsRegular() || sa.Size() != sb.Size() {
		return false, err
	}
	ba, bb := make([]byte, 256<<10), make([]byte, 256<<10)
	for {
		na, erra := io.ReadFull(fa, ba)
		nb, errb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false, nil
		}
		if erra == io.EOF || erra == io.ErrUnexpectedEOF {
			return errb == erra, nil
		}
		if erra != nil {
			return false, erra
		}
		if errb != nil {
			return false, errb
		}
	}
}

// TempPrefix returns the start of the names of the temporary files that
// stand for the file named base while it is written: "." + base +
// ".tmp-PID-", where PID is the writing process's id. Others' temporary
// files are told apart from one's own by it.
func TempPrefix(base string) string {
	return "." + base + ".tmp-" + strconv.Itoa(os.Getpid()) + "-"
}

// CreateTemp creates a temporary file in dir for the file named base, named
// TempPrefix(base) and random digits, and opens it for writing.
func CreateTemp(dir, base string) (*os.File, error) {
	return os.CreateTemp(dir, TempPrefix(base)+"*")
}

// Same reports whether the paths a and b lead to the same file: the same
// absolute path once links are followed (in the last element, as Target
// does, and in the directories), or, for files that exist, the same file
// (os.SameFile: hard links too).
func Same(a, b string) bool {
	ra, rb := resolve(a), resolve(b)
	if ra == rb {
		return true
	}
	fa, errA := os.Stat(ra)
	fb, errB := os.Stat(rb)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// resolve returns the absolute path of the file path leads to, with links
// followed as far as they go.
func resolve(path string) string {
	if t, err := Target(path); err == nil {
		path = t
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		path = filepath.Join(dir, filepath.Base(path))
	}
	return path
}
