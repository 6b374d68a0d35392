package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats/html"
)

// siteFlags are the flags of a directory input, a static site's built
// pages (html.OpenDir), read by the format that reads directories. The
// site's URL is --base-url.
type siteFlags struct {
	CleanURLs   bool   `name:"clean-urls" group:"Static site (a directory input)" help:"Drop the .html (or .htm) of a page's file name from its URL (/about for about.html), for hosts that serve clean URLs; an index.html is always its directory's URL (/blog/post/)."`
	LastModFrom string `name:"lastmod-from" group:"Static site (a directory input)" enum:"page,git,mtime" default:"page" placeholder:"page|git|mtime" help:"Where a page's lastmod comes from: page, the page's own dates (article:modified_time, og:updated_time, JSON-LD dateModified, else article:published_time, JSON-LD datePublished); git, the last commit that touched the file, for built pages that are committed (one git log for the whole tree; a file without a commit keeps its page's date); mtime, the file's modification time, which build tools reset, so that every page gets the time of the build (default: ${default})."`
	Images      bool   `name:"images" group:"Static site (a directory input)" help:"List each page's images, <img src> and og:image, as image entries of its URL (once each)."`
}

// lastModFrom maps --lastmod-from to where the reader takes dates from.
var lastModFrom = map[string]html.LastModFrom{"page": html.LastModPage, "git": html.LastModGit, "mtime": html.LastModMtime}

// given reports whether a flag of directory inputs was given.
func (s *siteFlags) given() bool {
	return s.CleanURLs || s.Images || s.LastModFrom != "" && s.LastModFrom != "page"
}

// isDir reports whether an input named on the command line is a
// directory.
func isDir(name string) bool {
	if name == "-" || isRemote(name) {
		return false
	}
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// dirInput reports whether an input of the command is a directory.
func (c *convertCmd) dirInput() bool {
	for _, name := range c.Inputs {
		if isDir(name) {
			return true
		}
	}
	return false
}

// inputs returns the inputs the command line names (sourceFlags.inputs),
// a directory read as a static site's pages, served at --base-url.
func (s *siteFlags) inputs(c *convertCmd, e *env) ([]convert.Input, error) {
	inputs, err := c.Sources.inputs(e, c.Inputs)
	if err != nil {
		return nil, err
	}
	opts := html.DirOptions{Site: c.BaseURL, CleanURLs: s.CleanURLs, LastMod: lastModFrom[s.LastModFrom], Images: s.Images}
	dirs := 0
	for i, in := range inputs {
		if in.Path == "" || !isDir(in.Path) {
			continue
		}
		dirs++
		path := in.Path
		inputs[i].Open = func() (io.ReadCloser, error) {
			d, err := html.OpenDir(path, opts)
			if err != nil {
				return nil, hinted(err)
			}
			return d, nil
		}
	}
	if dirs == 0 && s.given() {
		return nil, usageError{errors.New("--clean-urls, --lastmod-from and --images apply to a directory input (a static site's built pages)")}
	}
	return inputs, nil
}

// outputBase returns where the output is served (output.Options.BaseURL).
// For a directory input, --base-url is the URL of the directory; an
// output written inside it (-o public/sitemap.xml) is served at its place
// in it: at the top, the site's URL, and in a subdirectory
// (public/sitemaps/), the URL of that subdirectory, whose sitemap covers
// only the pages under it (the protocol's scope rule). Any other output
// is served at --base-url, as for other inputs.
func (c *convertCmd) outputBase() *url.URL {
	if c.BaseURL == nil || isStdout(c.Output) {
		return c.BaseURL
	}
	out, err := filepath.Abs(filepath.Dir(c.Output))
	if err != nil {
		return c.BaseURL
	}
	for _, name := range c.Inputs {
		if !isDir(name) {
			continue
		}
		dir, err := filepath.Abs(name)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(dir, out)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if rel == "." {
			return c.BaseURL
		}
		u := c.BaseURL.JoinPath(strings.Split(filepath.ToSlash(rel), "/")...)
		if !strings.HasSuffix(u.Path, "/") {
			u.Path, u.RawPath = u.Path+"/", ""
		}
		return u
	}
	return c.BaseURL
}

// leftOutText is the part of the summary about the entries the readers
// left out as no pages to list (formats.ExtraReader); "" for none.
func leftOutText(s *convert.Stats) string {
	n := s.LeftOut()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", left out %d %s not to be indexed", n, plural(n, "page", "pages"))
}

// inputLeftOut is the part of an input's account about the entries its
// reader left out; "" for none.
func inputLeftOut(in convert.InputStats) string {
	if in.LeftOut == 0 {
		return ""
	}
	return fmt.Sprintf(", %d left out", in.LeftOut)
}
