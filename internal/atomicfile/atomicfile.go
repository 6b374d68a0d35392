// Package atomicfile writes a file so that readers only ever see the old
// content or the complete new content: the data goes to a temporary file in
// the same directory, which replaces the target with one rename when, and
// only when, the writer commits.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// File is a file being written in place of another. Write to it, then call
// Commit to put it in place or Abort to throw it away.
type File struct {
	*os.File
	path string
	mode fs.FileMode
	done bool
}

// Create starts writing path. The target is untouched until Commit. The new
// file gets the mode of the file it replaces, or 0644 for a new file.
func Create(path string) (*File, error) {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, &fs.PathError{Op: "write", Path: path, Err: errors.New("not a regular file")}
		}
		mode = fi.Mode().Perm()
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{File: f, path: path, mode: mode}, nil
}

// Commit flushes the file to disk and renames it over the target. After a
// failed Commit the temporary file is removed and the target is unchanged.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: Commit after Commit or Abort")
	}
	f.done = true
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), f.mode)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Abort removes the temporary file and leaves the target as it was. It does
// nothing after Commit, so it can be deferred.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}
