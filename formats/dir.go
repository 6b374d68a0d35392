package formats

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// A directory is an input too: a static site's build output, a tree of
// HTML pages, read by the format whose Format.ReadDir reads directories.
// The caller opens it with OpenDir and hands the *Dir to Open in place of
// an input's content (what convert.Input's Open returns), so that a
// directory goes through the same conversion as any other input.

// errIsDir is what reading a *Dir as content gives: only Open knows it.
var errIsDir = errors.New("is a directory, read only by a format that reads directories")

// DirLastMod is where a directory reader takes each page's lastmod from.
type DirLastMod uint8

const (
	// LastModPage takes it from the page itself: its meta dates
	// (article:modified_time and the like) and JSON-LD. The default.
	LastModPage DirLastMod = iota
	// LastModGit takes the date of the last commit that touched the
	// file, for sites whose built pages are committed; a file git has no
	// commit for keeps the page's own date.
	LastModGit
	// LastModMtime takes the file's modification time. Build tools
	// rewrite every file on each build, so that every page gets the time
	// of the build: only for trees whose files keep their times.
	LastModMtime
)

// DirOptions configure the reading of a directory of pages.
type DirOptions struct {
	// Site is the URL the directory is served at, an absolute http(s)
	// URL: a page's URL is Site plus its path in the directory. Its path
	// is taken as a directory (a slash is added when missing).
	Site *url.URL
	// CleanURLs drops the .html (or .htm) that ends a page's file name
	// from its URL, as hosts that serve /about for about.html do.
	CleanURLs bool
	// LastMod is where each page's lastmod is taken from.
	LastMod DirLastMod
	// Images gives each page's images (<img src> and og:image) as image
	// entries of its URL.
	Images bool
}

// Dir is a directory opened as an input (OpenDir). Reading it as content
// fails: Open gives it to the format that reads directories.
type Dir struct {
	// Root is the directory, opened so that nothing outside it is
	// reached: a symbolic link that leads out of it cannot be opened.
	Root *os.Root
	// Path is the directory as it was named, for messages: a page's
	// warnings name Path joined with the page's path in it.
	Path string
	// Options say how its pages are read.
	Options DirOptions
}

// OpenDir opens the directory at path for reading as an input. It fails
// with an error wrapping ErrNoSiteURL when opts.Site is nil, and when
// opts.Site is not an absolute http(s) URL without query or fragment.
func OpenDir(path string, opts DirOptions) (*Dir, error) {
	site, err := siteURL(opts.Site)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	opts.Site = site
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &Dir{Root: root, Path: path, Options: opts}, nil
}

// siteURL checks the URL a directory is served at and returns it with a
// path that ends in a slash.
func siteURL(u *url.URL) (*url.URL, error) {
	switch {
	case u == nil:
		return nil, ErrNoSiteURL
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return nil, fmt.Errorf("the site's URL %q is not an absolute http(s) URL", u)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, fmt.Errorf("the site's URL %q has a query or fragment: it names a directory", u)
	}
	s := *u
	if !strings.HasSuffix(s.Path, "/") {
		s.Path += "/"
		if s.RawPath != "" {
			s.RawPath += "/"
		}
	}
	return &s, nil
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

// LeftOutReader is a Reader that leaves out, without a warning, entries
// its source says are no pages to list: a crawler export's rows marked
// non-indexable, a page that asks not to be indexed. They are no problem
// of the document, but the account counts them (convert.InputStats).
type LeftOutReader interface {
	Reader
	// LeftOut returns how many entries were left out so far.
	LeftOut() int
}
