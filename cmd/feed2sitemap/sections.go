package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// sectionFlags are convert's flag of section sitemaps: one child sitemap
// per section of the site, listed by the index (output.Options.SectionOf).
type sectionFlags struct {
	SplitBy string `group:"Splitting" name:"split-by" placeholder:"path|path:N|host" help:"Write one child sitemap per section of the site, all listed by the index at -o (needs --base-url), so that search consoles report on each: path, the first directory of the URL's path (sitemap-blog-HASH.xml; the pages at the top, such as / and /about, are in root); path:N, the first N directories, joined with - (sitemap-shop-shoes-HASH.xml); host, one per host (sitemap-shop.example.com-HASH.xml), for pages of several hosts: with --allow-cross-host or --host, and a Sitemap: line naming the index in each host's robots.txt (cross-submission). Names are lower-case, other characters -; a section over the limits is split (sitemap-shop-1-HASH.xml, sitemap-shop-2-HASH.xml). Not for standard output, --one-file or feeds."`
}

// maxSectionDepth is the most directories path:N takes.
const maxSectionDepth = 16

// sectionOf returns the section function --split-by asks for (nil
// without it), checking first that the output is a set with an index:
// a file (-o), split, with --base-url, in a format written in parts.
func (f *sectionFlags) sectionOf(c *convertCmd, out *formats.Format) (output.SectionFunc, error) {
	if f.SplitBy == "" {
		return nil, nil
	}
	var of output.SectionFunc
	switch v := f.SplitBy; {
	case v == "path":
		of = output.ByPath(1)
	case v == "host":
		of = output.ByHost()
	case strings.HasPrefix(v, "path:"):
		n, err := strconv.Atoi(v[len("path:"):])
		if err != nil || n < 1 || n > maxSectionDepth {
			return nil, usageError{fmt.Errorf("--split-by %s: path:N takes N directories, 1 to %d", v, maxSectionDepth)}
		}
		of = output.ByPath(n)
	default:
		return nil, usageError{fmt.Errorf("--split-by %s: give path (the first directory of each URL's path), path:N (the first N) or host", v)}
	}
	indexed := func(f *formats.Format) bool { return f.CanWrite() && f.Index != "" && f.NewEncoder != nil }
	switch {
	case isStdout(c.Output):
		return nil, usageError{errors.New("--split-by writes files, an index and a sitemap per section: give the index's path (-o sitemap.xml) and --base-url")}
	case c.OneFile:
		return nil, usageError{errors.New("--split-by writes a sitemap per section, and --one-file one file: give one or the other")}
	case !indexed(out):
		return nil, usageError{fmt.Errorf("--split-by writes sitemaps in parts listed by an index (%s), and %s is written as one document",
			namesWhere(indexed, "--to ", "or"), out.Name)}
	case c.BaseURL == nil:
		return nil, usageError{fmt.Errorf("--split-by writes an index of the sections' sitemaps, which needs to know where they will be served: " +
			"give --base-url (--base-url https://example.com/, where the index and its parts will be served: the site's root, " +
			"for a sitemap covers only the URLs under the directory it is served from, the protocol's scope rule)")}
	}
	return of, nil
}
