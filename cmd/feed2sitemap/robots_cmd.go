package main

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
	"github.com/feed2sitemap/feed2sitemap/internal/filelock"
	"github.com/feed2sitemap/feed2sitemap/output"
	"github.com/feed2sitemap/feed2sitemap/robotsfile"
)

// robotsCmd writes the robots.txt Sitemap: lines of the sitemaps written,
// or puts them in an existing robots.txt.
type robotsCmd struct {
	Sitemaps []string `arg:"" name:"sitemap" help:"A sitemap file written for the site: the index of a split set, or a single sitemap. Its file name (with .gz when gzipped) is joined to --base-url."`
	BaseURL  *url.URL `name:"base-url" required:"" placeholder:"URL" help:"Where the sitemap files are served, as for convert: their directory (https://example.com/sitemaps/) or the URL of the index."`
	Output   string   `short:"o" placeholder:"FILE" xor:"dest" help:"Write the lines to FILE, replacing it atomically (through a symbolic link), instead of standard output."`
	Update   string   `placeholder:"FILE" xor:"dest" help:"Put the lines in the existing robots.txt FILE: replace the Sitemap: lines of these sitemaps (the same URLs, or files of the same set in the same directory), or append them; every other byte stays as it was. Idempotent. A file that is not a robots.txt (markup, binary content, no robots.txt field) is refused; a missing or empty one is created."`

	LockTimeout time.Duration `name:"lock-timeout" placeholder:"DURATION" default:"30s" help:"With --update, wait at most DURATION for another run updating the same file to finish, then fail (0: do not wait; default: ${default})."`
}

// Run prints or writes the lines.
func (c *robotsCmd) Run(e *env) error {
	if err := c.checkFiles(); err != nil {
		return err
	}
	locs, err := c.locs()
	if err != nil {
		return err
	}
	switch {
	case c.Update != "":
		// Two updates at once would each add their lines to what they
		// read, and the last would drop the other's.
		target, _ := atomicfile.Target(c.Update)
		lock, err := filelock.Acquire(filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".lock"), max(c.LockTimeout, 0))
		if errors.Is(err, filelock.ErrLocked) {
			return fmt.Errorf("--update %s: another run is updating it: %w (--lock-timeout sets how long to wait)", c.Update, err)
		}
		if err != nil {
			return fmt.Errorf("--update %s: %w", c.Update, err)
		}
		defer lock.Release()
		changed, err := robotsfile.UpdateFile(c.Update, locs)
		if errors.Is(err, robotsfile.ErrNotRobots) {
			return fmt.Errorf("--update: %w; it was left as it was (--update edits the site's robots.txt only)", err)
		}
		if err != nil {
			return err
		}
		what := "already declares"
		if changed {
			what = "updated: declares"
		}
		fmt.Fprintf(e.Stderr, "feed2sitemap: %s %s %d %s\n", c.Update, what, len(locs), plural(len(locs), "sitemap", "sitemaps"))
		return nil
	}
	lines, err := robotsfile.Lines(locs)
	if err != nil {
		return err
	}
	if !isStdout(c.Output) {
		return atomicfile.WriteFile(c.Output, lines, 0o644)
	}
	_, err = e.Stdout.Write(lines)
	return err
}

// checkFiles refuses, before anything is read, a file to write that is
// not a file (a directory, a FIFO, a device) or that is one of the
// sitemaps named.
func (c *robotsCmd) checkFiles() error {
	if c.LockTimeout < 0 {
		return usageError{errors.New("--lock-timeout cannot be negative")}
	}
	if c.Update != "" && isStdout(c.Update) {
		return usageError{fmt.Errorf("--update %s: name the robots.txt file to update", c.Update)}
	}
	for flag, path := range map[string]string{"-o": c.Output, "--update": c.Update} {
		if isStdout(path) {
			continue
		}
		if err := checkOutput(flag, path); err != nil {
			return err
		}
		for _, s := range c.Sitemaps {
			if atomicfile.Same(path, s) {
				return sameFileError(flag, path, "the sitemap "+s)
			}
		}
	}
	return nil
}

// locs returns the URL of each sitemap, once each, in the order given.
func (c *robotsCmd) locs() ([]string, error) {
	var locs []string
	for _, path := range c.Sitemaps {
		fi, err := os.Stat(path)
		if err != nil {
			return nil, fmt.Errorf("%w (name the files convert wrote)", err)
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a file (name the files convert wrote)", path)
		}
		loc, err := output.FileURL(c.BaseURL, filepath.Base(path))
		if err != nil {
			return nil, usageError{fmt.Errorf("--base-url: %w", err)}
		}
		if !slices.Contains(locs, loc) {
			locs = append(locs, loc)
		}
	}
	if len(locs) == 0 {
		return nil, usageError{errors.New("no sitemap named")}
	}
	return locs, nil
}
