package formats

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// A directory is an input too: a static site's build output, a tree of
// HTML pages, read by the format whose Format.ReadDir reads directories.
// The caller opens it with that format's own function (html.OpenDir) and
// hands the *Dir to Open in place of an input's content (what
// convert.Input's Open returns), so that a directory goes through the same
// conversion as any other input.

// errIsDir is what reading a *Dir as content gives: only Open knows it.
var errIsDir = errors.New("is a directory, read only by a format that reads directories")

// Dir is a directory opened as an input, with the options of the format
// that reads it: what that format's opening function returns (html.OpenDir
// for a static site's pages). Reading it as content fails: Open gives it
// to the format that reads directories (Format.ReadDir), which takes its
// own options from Options.
type Dir struct {
	// Root is the directory, opened so that nothing outside it is
	// reached: a symbolic link that leads out of it cannot be opened.
	Root *os.Root
	// Path is the directory as it was named, for messages: a page's
	// warnings name Path joined with the page's path in it.
	Path string
	// Options are the reading format's own options (html.DirOptions).
	Options any
}

// Read fails: a directory has no content of its own.
func (d *Dir) Read([]byte) (int, error) { return 0, fmt.Errorf("%s %w", d.Path, errIsDir) }

// Close closes the directory.
func (d *Dir) Close() error { return d.Root.Close() }

// openDir returns the reader of the directory d, by the format opts.From
// names or else the one format that reads directories.
func openDir(d *Dir, opts OpenOptions) (Reader, *Format, error) {
	fail := func(err error) (Reader, *Format, error) {
		return nil, nil, &ParseError{Source: opts.Source, Err: err}
	}
	var found []*Format
	if opts.From != "" {
		f, err := Lookup(opts.From)
		if err != nil {
			return fail(err)
		}
		if f.ReadDir == nil {
			return fail(fmt.Errorf("a directory, which format %q does not read", f.Name))
		}
		found = append(found, f)
	} else {
		for _, f := range Formats() {
			if f.ReadDir != nil {
				found = append(found, f)
			}
		}
	}
	switch len(found) {
	case 0:
		return fail(fmt.Errorf("%w (a directory, and no format that reads directories is registered)", ErrUnknownFormat))
	case 1:
		return found[0].ReadDir(d, opts), found[0], nil
	}
	names := make([]string, len(found))
	for i, f := range found {
		names[i] = f.Name
	}
	return fail(fmt.Errorf("%w (%s read directories)", ErrAmbiguous, strings.Join(names, ", ")))
}
