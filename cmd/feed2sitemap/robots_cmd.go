package main

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"

	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
	"github.com/feed2sitemap/feed2sitemap/output"
	"github.com/feed2sitemap/feed2sitemap/robotsfile"
)

// robotsCmd writes the robots.txt Sitemap: lines of the sitemaps written,
// or puts them in an existing robots.txt.
type robotsCmd struct {
	Sitemaps []string `arg:"" name:"sitemap" help:"A sitemap file written for the site: the index of a split set, or a single sitemap. Its file name (with .gz when gzipped) is joined to --base-url."`
	BaseURL  *url.URL `name:"base-url" required:"" placeholder:"URL" help:"Where the sitemap files are served, as for convert: their directory (https://example.com/sitemaps/) or the URL of the index."`
	Output   string   `short:"o" placeholder:"FILE" xor:"dest" help:"Write the lines to FILE, replacing it atomically, instead of standard output."`
	Update   string   `placeholder:"FILE" xor:"dest" help:"Put the lines in the existing robots.txt FILE: replace the Sitemap: lines of these sitemaps (the same URLs, or files of the same set in the same directory), or append them; every other byte stays as it was. Idempotent."`
}

// Run prints or writes the lines.
func (c *robotsCmd) Run(e *env) error {
	locs, err := c.locs()
	if err != nil {
		return err
	}
	switch {
	case c.Update != "":
		changed, err := robotsfile.UpdateFile(c.Update, locs)
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
	if c.Output != "" && c.Output != "-" {
		return atomicfile.WriteFile(c.Output, lines, 0o644)
	}
	_, err = e.Stdout.Write(lines)
	return err
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
