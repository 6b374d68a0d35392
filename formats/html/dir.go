package html

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// LastModFrom is where the site reader takes each page's lastmod from.
type LastModFrom uint8

const (
	// LastModPage takes it from the page itself: its meta dates
	// (article:modified_time and the like) and JSON-LD. The default.
	LastModPage LastModFrom = iota
	// LastModGit takes the date of the last commit that touched the
	// file, for sites whose built pages are committed; a file git has no
	// commit for keeps the page's own date.
	LastModGit
	// LastModMtime takes the file's modification time. Build tools
	// rewrite every file on each build, so that every page gets the time
	// of the build: only for trees whose files keep their times.
	LastModMtime
)

// DirOptions configure the reading of a directory of pages (OpenDir).
type DirOptions struct {
	// Site is the URL the directory is served at, an absolute http(s)
	// URL: a page's URL is Site plus its path in the directory. Its path
	// is taken as a directory (a slash is added when missing).
	Site *url.URL
	// CleanURLs drops the .html (or .htm) that ends a page's file name
	// from its URL, as hosts that serve /about for about.html do.
	CleanURLs bool
	// LastMod is where each page's lastmod is taken from.
	LastMod LastModFrom
	// Images gives each page's images (<img src> and og:image) as image
	// entries of its URL.
	Images bool
}

// OpenDir opens the directory at path for reading as a static site's
// pages: formats.Open reads the *formats.Dir it returns with the
// SiteReader, as an input's content in convert. It fails with an error
// wrapping formats.ErrNoSiteURL when opts.Site is nil, and when opts.Site
// is not an absolute http(s) URL without query or fragment.
func OpenDir(path string, opts DirOptions) (*formats.Dir, error) {
	site, err := siteURL(opts.Site)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	opts.Site = site
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &formats.Dir{Root: root, Path: path, Options: opts}, nil
}

// dirOptions returns the options d was opened with, checked: a
// formats.Dir made by hand rather than by OpenDir may lack them.
func dirOptions(d *formats.Dir) (DirOptions, error) {
	o, ok := d.Options.(DirOptions)
	if !ok {
		return o, fmt.Errorf("a directory whose options are a %T, not html.DirOptions (html.OpenDir opens it)", d.Options)
	}
	site, err := siteURL(o.Site)
	o.Site = site
	return o, err
}

// siteURL checks the URL a directory is served at and returns it with a
// path that ends in a slash.
func siteURL(u *url.URL) (*url.URL, error) {
	switch {
	case u == nil:
		return nil, formats.ErrNoSiteURL
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
