// Package atomicfile replaces files atomically: what is written goes to a
// temporary file in the same directory, which is synced and renamed over
// the destination only when everything was written. Readers of the file
// see the old content or the new, never a mix; a failed write leaves the
// old file as it was.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces the file at path with what fill writes. An existing file
// keeps its permission bits; a new one gets perm. Nothing is changed when
// fill or any step of the write fails. When path is a symbolic link, the
// file it points at is replaced.
func Write(path string, perm fs.FileMode, fill func(w io.Writer) error) (err error) {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		path = p // replace the file a link points at, not the link
	}
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return &fs.PathError{Op: "write", Path: path, Err: errors.New("not a regular file")}
		}
		perm = fi.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
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
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// WriteFile replaces the file at path with data, as Write does.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
