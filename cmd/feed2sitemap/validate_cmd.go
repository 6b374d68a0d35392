package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/validate"
)

// validateCmd checks sitemaps, indexes, feeds, URL lists and robots.txt
// files and reports every problem found.
type validateCmd struct {
	Inputs      []string `arg:"" optional:"" name:"input" help:"A sitemap, sitemap index, feed, URL list or robots.txt: a file path, an http(s) URL, or - for standard input (the default when none is named and standard input is not a terminal). The sitemaps an index or robots.txt lists are checked too (beside a local index: the last segment of their URL)."`
	Format      string   `enum:"text,json" default:"text" placeholder:"text|json" help:"Output: text (per file, with a summary) or json (a stable schema, see docs/behaviour.md#validate)."`
	MaxFindings int      `name:"max-findings" default:"1000" placeholder:"N" help:"Show at most N findings in all (0: every one); the counts include every finding."`
	Strict      bool     `help:"Exit with status 1 on warnings too."`
	BaseURL     *url.URL `name:"base-url" placeholder:"URL" help:"Where the input files are served (their directory, or a file's URL), for the host and directory rules; without it (or a URL input) those rules are skipped."`
	NoFollow    bool     `name:"no-follow" help:"Do not check the sitemaps an index or robots.txt lists."`

	liveFlags `embed:""`
	Net       netFlags `embed:""`
}

// errFindings is the failure of a run that found errors (or, with
// --strict, warnings); the report says what they are.
var errFindings = errors.New("validation failed")

// Run validates the inputs and writes the report on standard output.
// Exit status: 0 valid, 1 errors (or warnings with --strict), 2 usage or an
// unreadable input.
func (c *validateCmd) Run(e *env, now clock, net network) error {
	var err error
	if c.Inputs, err = e.stdinByDefault(c.Inputs); err != nil {
		return err
	}
	if c.MaxFindings < 0 {
		return usageError{fmt.Errorf("--max-findings %d: must be 0 or more", c.MaxFindings)}
	}
	if c.BaseURL != nil && (c.BaseURL.Scheme != "http" && c.BaseURL.Scheme != "https" || c.BaseURL.Host == "") {
		return usageError{fmt.Errorf("--base-url %s: not an absolute http or https URL", c.BaseURL)}
	}
	// Following goes one level deep (robots.txt or an index, then its
	// sitemaps): two levels of the deadline.
	src := &sourceFlags{MaxDepth: 2, Concurrency: convert.DefaultConcurrency, netFlags: c.Net, net: net}
	if err := c.liveFlags.check(); err != nil {
		return err
	}
	inputs, err := src.inputs(e, c.Inputs)
	if err != nil {
		return err
	}
	if c.Live {
		// The inputs are read twice: standard input is kept meanwhile.
		done, err := spoolStdin(inputs)
		defer done()
		if err != nil {
			return err
		}
	}
	rep := validate.NewReport(c.MaxFindings)
	rep.Hint, rep.FixHint = reportHint, ruleFixHint
	// On a terminal, a progress line: the URLs of the documents checked,
	// and the share of the local inputs read.
	prog := newProgress(e.Stderr, e.isTerminal(e.Stderr), &destination{}, &sync.Mutex{})
	prog.track(inputs)
	checked := 0
	onDocument := func(d validate.Document) {
		rep.Document(d)
		checked += d.URLs
		prog.update(checked)
	}
	v := validate.New(validate.Options{Now: now(), NoFollow: c.NoFollow, OnDocument: onDocument, OpenChild: src.openValidateChild,
		Expect: convert.PagesHint(inputs)})
	var unreadable []string
	for _, in := range inputs {
		rc, err := in.Open()
		if err == nil {
			err = v.Check(rc, c.source(in, rc), rep.Finding)
			rc.Close()
		}
		if err != nil {
			prog.clear()
			fmt.Fprintf(e.Stderr, "feed2sitemap: error: %s: %v\n", in.Name, err)
			unreadable = append(unreadable, in.Name)
		}
	}
	prog.clear()
	if n := v.Forgotten(); n > 0 {
		fmt.Fprintf(e.Stderr, "feed2sitemap: note: duplicate-url and url-twins remembered the first %d URLs only (to keep memory bounded); %d later URLs were compared with those, not with each other\n",
			validate.DefaultMaxRemembered, n)
	}
	var liveErr error
	if c.Live {
		liveErr = c.checkLive(e, src, inputs, unreadable, rep)
	}
	if c.Format == "json" {
		err = rep.WriteJSON(e.Stdout)
	} else {
		err = rep.WriteText(e.Stdout)
	}
	switch {
	case err != nil:
		return err
	case liveErr != nil:
		return liveErr
	case len(unreadable) > 0:
		return usageError{fmt.Errorf("cannot read %s", strings.Join(unreadable, ", "))}
	case rep.Errors() > 0 || c.Strict && rep.Warnings() > 0:
		return errFindings
	}
	return nil
}

// source describes an input for the validator: a remote input is served at
// its final URL; a file, at --base-url (with the file's name joined to it
// when it names a directory).
func (c *validateCmd) source(in convert.Input, body io.Reader) validate.Source {
	src := validate.Source{Name: in.Name}
	if in.Path != "" {
		src.Dir = filepath.Dir(in.Path)
	}
	if loc, ok := body.(convert.Located); ok && loc.Location() != nil {
		src.URL = loc.Location()
		return src
	}
	if u, err := url.Parse(in.Name); err == nil && isRemote(in.Name) {
		src.URL = u
		return src
	}
	if c.BaseURL != nil {
		u := *c.BaseURL
		if last := path.Base(u.Path); strings.HasSuffix(u.Path, "/") || u.Path == "" || !strings.Contains(last, ".") {
			name := "sitemap.xml"
			if in.Path != "" {
				name = filepath.Base(in.Path)
			}
			u.Path = strings.TrimSuffix(u.Path, "/") + "/" + name
			u.RawPath = ""
		}
		src.URL = &u
	}
	return src
}

// openValidateChild opens a child sitemap: beside a local index, else
// fetched under the remote-host policy, in the scope of the input that
// led to it.
func (f *sourceFlags) openValidateChild(parent validate.Source, loc string) (io.ReadCloser, validate.Source, error) {
	if parent.Dir != "" {
		return validate.OpenLocal(parent, loc)
	}
	body, err := f.fetchChild(context.Background(), parent.Name, loc)
	if err != nil {
		return nil, validate.Source{}, err
	}
	return body, validate.Source{Name: body.URL.String(), URL: body.URL}, nil
}
