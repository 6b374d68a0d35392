package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
	"github.com/feed2sitemap/feed2sitemap/normalize"
	"github.com/feed2sitemap/feed2sitemap/output"
	"github.com/feed2sitemap/feed2sitemap/validate"
)

// convertCmd converts inputs into one sitemap.
type convertCmd struct {
	Inputs         []string `arg:"" optional:"" name:"input" help:"A feed, sitemap, sitemap index, URL list or robots.txt: a file path, an http(s) URL, or - for standard input (the default when none is named and standard input is not a terminal); or a directory of built HTML pages, a static site served at --base-url. Several are read in order into one output. Gzip is recognized by content."`
	Output         string   `group:"Input and output" short:"o" placeholder:"PATH" help:"Write to PATH instead of standard output. When the entries exceed the limits of one file, PATH becomes a sitemap index and the entries go to numbered parts beside it (needs --base-url). Files are replaced only when everything succeeded; a symbolic link is written through; - or /dev/stdout is standard output."`
	To             string   `group:"Input and output" placeholder:"FORMAT" enum:"${to_enum}" default:"" help:"Output format: ${writers} (default: from the output file's extension, else xml)."`
	From           string   `group:"Input and output" placeholder:"FORMAT" enum:"${from_enum}" default:"" help:"Read every input as FORMAT: ${readers} (default: recognized from each input's content)."`
	BaseURL        *url.URL `group:"Splitting" name:"base-url" placeholder:"URL" help:"Where the output files will be served (their directory, or the URL of the index itself): the index lists the parts under it. For a directory input, the URL the directory is served at; an output inside the directory is served at its place in it."`
	Gzip           bool     `group:"Input and output" help:"Gzip every file written, adding .gz to its name (an output name ending in .gz does the same)."`
	MaxURLs        int      `group:"Splitting" name:"max-urls" placeholder:"N" default:"${max_urls}" help:"At most N entries per file (1 to ${max_urls_text})."`
	OneFile        bool     `group:"Splitting" name:"one-file" help:"Write one file whatever its size, never split (text output only): a plain list of URLs for tools, with no protocol limit, not a sitemap for search engines."`
	MaxBytes       int64    `group:"Splitting" name:"max-bytes" placeholder:"N" default:"${max_bytes}" help:"At most N bytes per file, uncompressed, header and footer counted (1 to ${max_bytes_text})."`
	KeepDuplicates bool     `group:"Merging and URLs" help:"Keep every entry, even the same URL twice (by default a URL appears once, with its newest lastmod)."`
	Accumulate     bool     `group:"Merging and URLs" help:"Read the existing output (-o: a sitemap, or an index and its parts) first and merge the inputs into it, so that URLs never vanish because a feed dropped them. A previous output that does not read cleanly is refused."`
	MaxAge         string   `group:"Filters" name:"max-age" placeholder:"AGE" help:"Drop entries whose lastmod is older than AGE: a number of days (30d), weeks (8w) or a Go duration (36h). Entries without lastmod are kept."`

	AccumulateRepair bool          `group:"Merging and URLs" name:"accumulate-repair" help:"As --accumulate, over a previous output that does not read cleanly (cut short, corrupt, a part missing): keep what can be read of it, with a warning that counts what was lost."`
	LockTimeout      time.Duration `group:"Input and output" name:"lock-timeout" placeholder:"DURATION" default:"30s" help:"Wait at most DURATION for another run writing the same output (-o) to finish, then fail (0: do not wait; default: ${default})."`

	StripParams     []string `group:"Merging and URLs" name:"strip-params" sep:"," placeholder:"NAMES" help:"Remove these query parameters (comma-separated, case-insensitive; name* matches a prefix)."`
	StripSessionIDs bool     `group:"Merging and URLs" name:"strip-session-ids" help:"Remove session ids: jsessionid, phpsessid, sid, sessionid and others, as query or ;path parameters."`
	StripUTM        bool     `group:"Merging and URLs" name:"strip-utm" help:"Remove utm_* and click-id tracking parameters (gclid, fbclid, msclkid, ...)."`
	HTTPS           bool     `group:"Merging and URLs" name:"https" help:"Write https for http URLs."`
	WWW             bool     `group:"Merging and URLs" name:"www" xor:"www" help:"Add www. to bare registrable hosts."`
	NoWWW           bool     `group:"Merging and URLs" name:"no-www" xor:"www" help:"Remove www. from hosts."`
	TrailingSlash   string   `group:"Merging and URLs" name:"trailing-slash" enum:"add,remove,keep" default:"keep" placeholder:"add|remove|keep" help:"Add or remove the slash that ends a path (add leaves file names like /a.html alone)."`
	SortQuery       bool     `group:"Merging and URLs" name:"sort-query" help:"Sort query parameters by name."`
	Normalize       bool     `group:"Merging and URLs" help:"Write every URL in normal form (lower-case scheme and host, punycode, normalized escapes, and what is always done: no default port, fragment, dot segments or empty query); implied by the rewrite flags above."`

	Host           []string `group:"Filters" placeholder:"HOST" help:"Keep only URLs on HOST (repeatable; *.example.com matches its subdomains)."`
	AllowCrossHost bool     `group:"Filters" name:"allow-cross-host" help:"With --base-url and no --host, keep URLs outside the sitemap's host and directory (when robots.txt cross-submission is set up)."`
	Include        []string `group:"Filters" sep:"none" placeholder:"GLOB" help:"Keep only URLs whose path matches GLOB (repeatable). A glob matches the whole path, which starts with /: * stays within a /-segment, ** spans segments (/**/*.html: any directory, the top too), ? is one character, [ab] [a-z] [!a] a class, {html,php} alternatives."`
	Exclude        []string `group:"Filters" sep:"none" placeholder:"GLOB" help:"Drop URLs whose path matches GLOB (repeatable)."`
	Since          string   `group:"Filters" placeholder:"DATE" help:"Keep only entries with a lastmod on or after DATE (2024-05-01, or a W3C date-time); entries without lastmod are dropped. Child sitemaps whose lastmod in their index is before DATE are not read (those without one are)."`
	ChildInclude   []string `group:"Filters" name:"include-sitemaps" sep:"none" placeholder:"GLOB" help:"Follow only the child sitemaps of an index (or robots.txt) whose path matches GLOB (repeatable; globs as in --include); the others are not fetched."`
	ChildExclude   []string `group:"Filters" name:"exclude-sitemaps" sep:"none" placeholder:"GLOB" help:"Do not follow (nor fetch) the child sitemaps whose path matches GLOB (repeatable)."`
	Sort           string   `group:"Merging and URLs" enum:"none,loc,lastmod" default:"none" placeholder:"none|loc|lastmod" help:"Order of the output: none keeps input order; loc sorts by URL; lastmod puts the newest first."`
	Limit          int      `group:"Merging and URLs" placeholder:"N" help:"Write only the first N entries in the output's order (with rss and atom: the newest N)."`
	News           string   `group:"Merging and URLs" placeholder:"NAME" help:"Make the feed items published in the last two days news entries (news:news) of the publication NAME, in the feed's language."`
	Stylesheet     string   `group:"Input and output" placeholder:"URL" help:"Name the XSL stylesheet at URL in every XML sitemap and index written (<?xml-stylesheet?>), so that browsers show a table: a path or URL on the sitemap's own host (feed2sitemap stylesheet -o writes the file; a warning says when it is not beside the sitemap), or the data: URL feed2sitemap stylesheet --data-url prints, which needs no file. A stylesheet that cannot load (missing, on another host, not XSL, named by path from a file:// URL) leaves Chromium's page blank, which no sitemap can prevent."`
	Title          string   `group:"Feed output" placeholder:"TEXT" help:"The feed's title (default: the site's host name)."`
	Link           *url.URL `group:"Feed output" placeholder:"URL" help:"The site the feed is about (default: the site of --base-url, else of the first entry)."`
	Description    string   `group:"Feed output" placeholder:"TEXT" help:"What the feed is about (default: the title)."`
	Report         string   `group:"Input and output" placeholder:"FILE" help:"Write the account of the run (per input: read, invalid, filtered by rule, duplicates, written; the files written; with -o, the pages added, removed and changed since the set it replaced) to FILE as JSON (- or /dev/stdout: standard output, when -o names a file)."`
	Strict         bool     `help:"Treat every warning as an error, and write nothing then: the readers' warnings, every finding of the rules of feed2sitemap validate on each input read (warnings such as a duplicate URL or a future lastmod included), and every warning about the output (more than 1,000 news entries or over a size limit in one file that cannot be split, data left out, news over two days old)."`
	Quiet          bool     `short:"q" xor:"verbosity" help:"Print only errors: no warnings, no summary, no progress."`
	Verbose        bool     `short:"v" xor:"verbosity" help:"Print every warning and an account of each input (and each child sitemap read)."`

	Sources  sourceFlags  `embed:""`
	Site     siteFlags    `embed:""`
	Sections sectionFlags `embed:""`
	Memory   memoryFlags  `embed:""`
}

// Run converts the inputs and reports what it did on standard error.
func (c *convertCmd) Run(e *env, now clock, net network) error {
	c.Sources.net = net
	var err error
	if c.Inputs, err = e.stdinByDefault(c.Inputs); err != nil {
		return err
	}
	out, err := c.outputFormat()
	if err != nil {
		return err
	}
	inputs, err := c.Site.inputs(c, e)
	if err != nil {
		return err
	}
	dest, err := c.destination(e, out)
	if err != nil {
		return err
	}
	defer dest.abort()
	if err := c.checkReport(dest); err != nil {
		return err
	}
	if dest.set == nil {
		// A child that fails, or a rule --strict checks, is known only at
		// the end: standard output gets the output then, or nothing.
		hold := !c.Sources.NoFollow && !c.Sources.KeepGoing || c.Strict
		if dest.stream, err = output.NewStream(e.Stdout, output.StreamOptions{Format: out, Gzip: c.Gzip, Hold: hold}); err != nil {
			return err
		}
	}
	opts, err := c.options(out, now)
	if err != nil {
		return err
	}
	if dest.write, err = c.writeOptions(out); err != nil {
		return err
	}
	if dest.set != nil && !c.Quiet {
		for _, w := range stylesheetWarnings(c.Stylesheet, dest.set.BaseURL(), dest.set.Path()) {
			fmt.Fprintf(e.Stderr, "feed2sitemap: warning: %s\n", w)
		}
	}
	if dest.set != nil && dest.set.BaseURL() != nil && len(c.Host) == 0 && !c.AllowCrossHost && out.Scoped {
		// The protocol's scope rule is a sitemap's; a feed links anywhere.
		opts.Filter.Scope = dest.set.BaseURL()
	}
	opts.Read.Splits = dest.set != nil && (dest.set.BaseURL() != nil && out.Index != "" || c.OneFile)
	if c.Accumulate || c.AccumulateRepair {
		if dest.set == nil {
			return usageError{errors.New("--accumulate needs the output file (-o) to read and update")}
		}
		pre, cleanup, err := c.previousInputs(dest, func(msg string) {
			if !c.Quiet {
				fmt.Fprintf(e.Stderr, "feed2sitemap: warning: %s\n", msg)
			}
		})
		defer cleanup()
		if err != nil {
			return err
		}
		inputs = append(pre, inputs...)
	}

	// Quiet when all is well: the summary is for a terminal, -v, or a
	// run that left something out; cron mails every line.
	onTerminal := e.isTerminal(e.Stderr)
	rep := &reporter{w: e.Stderr, quiet: c.Quiet, verbose: c.Verbose, always: onTerminal}
	prog := newProgress(e.Stderr, onTerminal && !c.Quiet, dest, &rep.mu)
	prog.track(inputs)
	observe := convert.Observe{Warn: prog.clearing(rep.warn), Progress: prog.update}
	dest.write.Warn = rep.notice // what a writer had to make up (an undated Atom entry's date)
	if c.Verbose {
		observe.Drop = rep.dropped
	}
	opts.Observer = observe
	c.Sources.apply(&opts)
	var strict *strictCheck
	if c.Strict {
		strict = &strictCheck{}
		for i := range inputs {
			inputs[i] = strict.wrap(inputs[i])
		}
		strict.wrapChildren(&opts)
		observe.Warn = strict.hold(observe.Warn)
		opts.Observer = observe
		opts.Output.Verify = strict.finish
		dest.write.Warn = strict.warns(dest.write.Warn)
	}
	// What --report says changed is measured against the set the run
	// replaces: read before the run places the new one.
	previous := c.previousForReport(dest)
	stats, err := convert.Run(inputs, dest.create, opts)
	if strict != nil {
		strict.print(rep, err)
		if errors.Is(err, convert.ErrInputsFailed) {
			if serr := strict.err(); serr != nil {
				err = serr
			}
		}
		if err == nil {
			// The output is checked too: what would be said of it
			// after the commit fails the run before.
			if msg := overLimit(dest, stats); msg != "" {
				strict.outputWarning(msg)
			}
			if len(stats.ExtDropped) > 0 {
				strict.outputWarning(fmt.Sprintf("left out what %s cannot hold: %s", out.Name, droppedText(stats.ExtDropped)))
			}
			if n := stats.HeadDropped; n > 0 {
				strict.outputWarning(fmt.Sprintf("left out %d document-level %s", n, plural(n, "element", "elements")))
			}
			err = strict.outputErr()
		}
	}
	var changes *reportChanges
	if err == nil || c.Sources.KeepGoing && errors.Is(err, convert.ErrInputsFailed) {
		if cerr := dest.commit(); cerr != nil {
			err = cerr
		}
		if previous != nil && (err == nil || errors.Is(err, convert.ErrInputsFailed)) {
			changes = c.changesSince(dest, previous)
		}
	}
	if previous != nil {
		previous.Close()
	}
	prog.clear()
	if errors.Is(err, convert.ErrNoEntries) {
		err = errors.New("nothing to write: the inputs hold no entries (an empty sitemap is not valid)")
		if f := stats.Filtered(); f > 0 && f == stats.Read()-stats.Duplicates {
			err = fmt.Errorf("nothing to write: all %d entries were filtered out (%s)%s", f, filteredRules(stats), scopeHint(stats))
		}
	}
	if errors.Is(err, convert.ErrInputsFailed) {
		n := len(stats.Failures())
		err = fmt.Errorf("%d %s could not be read: %s", n, plural(n, "input", "inputs"), failureLine(stats, stats.Failures()[0]))
		if c.Sources.KeepGoing {
			err = fmt.Errorf("%w; the output was written without %s (--keep-going)", err, plural(n, "it", "them"))
		} else {
			err = fmt.Errorf("%w; nothing was written (--keep-going writes what was read)", err)
		}
	}
	err = hinted(err)
	if errors.Is(err, output.ErrNeedBaseURL) {
		err = fmt.Errorf("%w %s", err, splitHint(err))
		if out.OneFile {
			err = fmt.Errorf("%w; or, for tools rather than search engines, --one-file writes one plain list with no limit", err)
		}
	}
	if msg := overLimit(dest, stats); err == nil && msg != "" {
		rep.notice(msg + "; search engines may reject it (write to a file with -o and --base-url to split it into an index and parts)")
	}
	if err == nil && dest.set != nil {
		for _, p := range dest.set.Stale() {
			how := "with"
			if strings.HasSuffix(dest.set.Path(), ".gz") {
				how = "without"
			}
			rep.warning(fmt.Sprintf("%s is an earlier output written %s --gzip, which this run does not update: "+
				"remove it (and its parts), and name %s instead wherever it is named (robots.txt, search consoles)", p, how, dest.set.Path()))
		}
	}
	if len(stats.ExtDropped) > 0 {
		rep.notice(fmt.Sprintf("left out what %s cannot hold: %s", out.Name, droppedText(stats.ExtDropped)))
	}
	if n := stats.HeadDropped; n > 0 {
		rep.notice(fmt.Sprintf("left out %d document-level %s (such as ResourceSync's rs:md and rs:ln): "+
			"the output keeps those of the input its first entry comes from, and %s keeps them only in XML",
			n, plural(n, "element", "elements"), out.Name))
	}
	if err == nil {
		if n := filteredBy(stats, convert.RuleScope); n > 0 && !c.Verbose {
			rep.notice(fmt.Sprintf("left out %d %s outside %s, where --base-url says the sitemap is: the protocol's scope rule%s",
				n, plural(n, "URL", "URLs"), dest.set.BaseURL(), scopeHint(stats)))
		}
	}
	rep.finish(stats, dest, err)
	if c.Report != "" {
		if rerr := writeReport(c.Report, e.Stdout, stats, dest, changes, err); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// droppedText says what extension data was left out, from counts of
// entries by extension name.
func droppedText(counts map[string]int) string {
	var parts []string
	for _, name := range formats.ExtensionSet(0xff).Names() {
		if n := counts[name]; n > 0 {
			parts = append(parts, fmt.Sprintf("the %s of %d %s", extensionNoun[name], n, plural(n, "entry", "entries")))
		}
	}
	return strings.Join(parts, ", ")
}

// extensionNoun names the data of each extension in messages.
var extensionNoun = map[string]string{
	"image": "images", "video": "videos", "news": "news data", "alternates": "language alternates",
	"mobile": "mobile marker", "foreign": "foreign elements (PageMap…)",
}

// feedWriter reports whether f writes feeds.
func feedWriter(f *formats.Format) bool { return f.CanWrite() && f.Feed }

// namesWhere lists the names of the registered formats keep accepts, each
// after prefix, in a sentence: "a", "a and b", "a, b and c" (conj "and").
func namesWhere(keep func(*formats.Format) bool, prefix, conj string) string {
	var names []string
	for _, f := range formats.Formats() {
		if keep(f) {
			names = append(names, prefix+f.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// writeOptions returns what the flags say about the documents to write:
// the stylesheet, and what a feed says about itself.
func (c *convertCmd) writeOptions(out *formats.Format) (formats.WriteOptions, error) {
	var o formats.WriteOptions
	if c.Stylesheet != "" {
		if out.Feed {
			return o, usageError{errors.New("--stylesheet applies to XML sitemaps and indexes, not to feeds")}
		}
		if err := checkStylesheet(c.Stylesheet, c.BaseURL); err != nil {
			return o, err
		}
		o.Stylesheet = c.Stylesheet
	}
	if (c.Title != "" || c.Link != nil || c.Description != "") && !out.Feed {
		return o, usageError{fmt.Errorf("--title, --link and --description apply to %s output", namesWhere(feedWriter, "", "and"))}
	}
	o.Feed = formats.FeedInfo{Title: c.Title, Description: c.Description}
	if c.Link != nil {
		if !c.Link.IsAbs() || c.Link.Scheme != "http" && c.Link.Scheme != "https" {
			return o, usageError{fmt.Errorf("--link %s: not an absolute http(s) URL", c.Link)}
		}
		o.Feed.Link = c.Link.String()
	}
	if c.BaseURL != nil && out.Feed {
		// The feed's id is where it is served.
		o.Feed.ID = c.BaseURL.String()
		if !isStdout(c.Output) {
			id, err := output.FileURL(c.BaseURL, filepath.Base(c.Output))
			if err != nil {
				return o, usageError{err}
			}
			o.Feed.ID = id
		}
	}
	return o, nil
}

// overLimit says how standard output, which is not split, is over the
// protocol's limits of one file; "" when it is not, or the output is files.
func overLimit(d *destination, stats *convert.Stats) string {
	if d.stream == nil || stats == nil || stats.Written <= formats.MaxURLs && d.stream.Bytes() <= formats.MaxBytes {
		return ""
	}
	return fmt.Sprintf("%s holds %d entries and %d bytes: over the protocol's limit of %d per file or %d bytes uncompressed",
		d.name(), stats.Written, d.stream.Bytes(), formats.MaxURLs, formats.MaxBytes)
}

// options returns the options of the conversion the flags ask for, writing
// format out at the time now tells.
func (c *convertCmd) options(out *formats.Format, now clock) (convert.Options, error) {
	opts := convert.Options{
		Read:           convert.ReadOptions{From: c.From, Strict: c.Strict, NewsName: c.News, SkipTexts: !out.HoldsTexts()},
		KeepDuplicates: c.KeepDuplicates,
		Filter:         convert.FilterOptions{Hosts: c.Host, Include: c.Include, Exclude: c.Exclude},
		Output:         convert.OutputOptions{Carries: out.Carries},
		MaxMemory:      c.Memory.capMemory(),
	}
	if c.Limit < 0 {
		return opts, usageError{errors.New("--limit must be at least 1 (or 0 for no limit)")}
	}
	opts.Limit = c.Limit
	n := &normalize.Options{
		StripParams:     c.StripParams,
		StripSessionIDs: c.StripSessionIDs,
		StripUTM:        c.StripUTM,
		HTTPS:           c.HTTPS,
		SortQuery:       c.SortQuery,
	}
	switch {
	case c.WWW:
		n.WWW = normalize.HostAddWWW
	case c.NoWWW:
		n.WWW = normalize.HostRemoveWWW
	}
	var err error
	if n.TrailingSlash, err = normalize.ParseSlash(c.TrailingSlash); err != nil {
		return opts, usageError{err}
	}
	opts.URLs.Normalize = n
	// What never changes the page: no fragment, default port, dot segment
	// or empty query. A feed's links keep their fragments: an item may
	// link to its place on a page.
	opts.URLs.Tidy = out.Tidy
	opts.URLs.Normal = c.Normalize || len(n.StripParams) > 0 || n.StripSessionIDs || n.StripUTM || n.HTTPS ||
		n.WWW != normalize.HostKeep || n.TrailingSlash != normalize.SlashKeep || n.SortQuery
	if err := opts.Filter.Validate(); err != nil {
		return opts, usageError{hinted(err)}
	}
	if opts.Sort, err = convert.ParseSort(c.Sort); err != nil {
		return opts, usageError{err}
	}
	if out.NewestFirst {
		if opts.Sort == convert.SortLoc {
			return opts, usageError{errors.New("--sort loc: feeds list their items newest first")}
		}
		opts.Sort = convert.SortLastMod
	}
	if c.Since != "" {
		l, err := formats.ParseLastMod(c.Since)
		if err != nil {
			return opts, usageError{fmt.Errorf("--since: %w", err)}
		}
		opts.Filter.Since = l.Time()
	}
	if opts.Follow.Select, err = c.childSelection(opts.Filter.Since); err != nil {
		return opts, err
	}
	if c.MaxAge != "" {
		age, err := parseAge(c.MaxAge)
		if err != nil {
			return opts, usageError{fmt.Errorf("--max-age: %w", err)}
		}
		opts.Filter.NotBefore = now().Add(-age)
	}
	return opts, nil
}

// parseAge parses an age: a number of days (30d) or weeks (8w), or a Go
// duration (36h, 90m).
func parseAge(s string) (time.Duration, error) {
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[len(s)-1]]
	if unit != 0 {
		n, err := strconv.Atoi(s[:len(s)-1])
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not an age like 30d, 8w or 36h", s)
		}
		return time.Duration(n) * unit, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q is not an age like 30d, 8w or 36h", s)
	}
	return d, nil
}

// outputFormat returns the format --to names, or the one the output file's
// extension selects, or xml.
func (c *convertCmd) outputFormat() (*formats.Format, error) {
	name := c.To
	if name == "" {
		if f := formats.ForFileName(c.Output); f != nil {
			return f, nil
		}
		name = "xml"
	}
	f, err := formats.Lookup(name)
	if err != nil {
		return nil, usageError{err}
	}
	if !f.CanWrite() {
		return nil, usageError{fmt.Errorf("format %q can be read but not written", name)}
	}
	return f, nil
}

// destination returns where the output goes, checking the output flags
// before anything is read.
func (c *convertCmd) destination(e *env, f *formats.Format) (*destination, error) {
	d := &destination{format: f}
	if c.LockTimeout < 0 {
		return nil, usageError{errors.New("--lock-timeout cannot be negative")}
	}
	sectionOf, err := c.Sections.sectionOf(c, f)
	if err != nil {
		return nil, err
	}
	if isStdout(c.Output) {
		if c.OneFile {
			return nil, usageError{errors.New("--one-file applies to an output file (-o): standard output is never split")}
		}
		if c.BaseURL != nil && !f.Feed && !c.dirInput() || c.MaxURLs != formats.MaxURLs || c.MaxBytes != formats.MaxBytes {
			return nil, usageError{errors.New("--base-url, --max-urls and --max-bytes need an output file (-o): standard output cannot be split")}
		}
		if c.Gzip && e.isTerminal(e.Stdout) {
			return nil, usageError{errors.New("--gzip: standard output is a terminal, which would get binary: give -o FILE, or redirect (> sitemap.xml.gz)")}
		}
		return d, nil
	}
	if c.MaxURLs < 1 || c.MaxBytes < 1 {
		return nil, usageError{errors.New("--max-urls and --max-bytes must be at least 1")}
	}
	opts := output.Options{Path: c.Output, Format: f, Gzip: c.Gzip, BaseURL: c.outputBase(), MaxURLs: c.MaxURLs, MaxBytes: c.MaxBytes,
		LockTimeout: c.lockTimeout(), SectionOf: sectionOf}
	if c.OneFile {
		if !f.OneFile {
			return nil, usageError{fmt.Errorf("--one-file writes a plain list of URLs (%s), not %s: a sitemap over the protocol's limits is rejected by search engines",
				namesWhere(func(f *formats.Format) bool { return f.CanWrite() && f.OneFile }, "--to ", "or"), f.Name)}
		}
		if c.BaseURL != nil || c.MaxURLs != formats.MaxURLs || c.MaxBytes != formats.MaxBytes {
			return nil, usageError{errors.New("--one-file never splits: --base-url, --max-urls and --max-bytes do not apply")}
		}
		opts.OneFile, opts.MaxURLs, opts.MaxBytes = true, 0, 0
	}
	set, err := output.New(opts)
	if errors.Is(err, atomicfile.ErrNotRegular) {
		return nil, outputError("-o", err)
	}
	if err != nil {
		return nil, usageError{err}
	}
	d.set = set
	return d, nil
}

// lockTimeout returns how long to wait for another run's lock, as
// output.Options.LockTimeout takes it: --lock-timeout 0 is not at all.
func (c *convertCmd) lockTimeout() time.Duration {
	if c.LockTimeout == 0 {
		return -1
	}
	return c.LockTimeout
}

// destination is where the output goes: standard output, or a sitemap set
// (one file, or an index and its parts); either gets the output only when
// the run succeeded.
type destination struct {
	format *formats.Format
	write  formats.WriteOptions // what the flags say: stylesheet, feed information

	set    *output.Set
	stream *output.Stream // standard output
}

func (d *destination) create(opts formats.WriteOptions) (formats.Writer, error) {
	opts.Stylesheet, opts.Feed, opts.Warn = d.write.Stylesheet, d.write.Feed, d.write.Warn
	if d.set != nil {
		return d.set, d.set.SetWriteOptions(opts)
	}
	return d.stream, d.stream.SetWriteOptions(opts)
}

// commit hands standard output what was held for it; a set's files were
// put in place by its Close.
func (d *destination) commit() error {
	if d.stream != nil {
		return d.stream.Commit()
	}
	return nil
}

// abort throws away what was not committed.
func (d *destination) abort() {
	if d.set != nil {
		d.set.Abort()
	}
	if d.stream != nil {
		d.stream.Abort()
	}
}

// name describes the destination in the summary.
func (d *destination) name() string {
	if d.set == nil {
		return "standard output"
	}
	files := d.set.Files()
	if len(files) > 1 {
		return fmt.Sprintf("%s, an index of %d parts", d.set.Path(), len(files)-1)
	}
	return d.set.Path()
}

// maxWarnings is how many warnings per input are printed without -v.
const maxWarnings = 10

// reporter prints warnings and the closing summary on standard error.
// Warnings come from the goroutine that reads and dropped duplicates from
// the one that dedupes, so everything it prints goes through mu.
type reporter struct {
	mu             sync.Mutex
	w              io.Writer
	quiet, verbose bool
	always         bool // print the summary even when nothing was unusual
	shown          map[string]int
	hidden         int
}

func (r *reporter) warn(pe *formats.ParseError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.quiet {
		return
	}
	if r.shown == nil {
		r.shown = map[string]int{}
	}
	if !r.verbose && r.shown[pe.Source] >= maxWarnings {
		r.hidden++
		return
	}
	r.shown[pe.Source]++
	fmt.Fprintf(r.w, "feed2sitemap: warning: %v\n", pe)
}

// finding prints a finding of the rules of validate: errors always,
// warnings unless quiet.
func (r *reporter) finding(f validate.Finding) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.quiet && f.Severity() != validate.Error {
		return
	}
	fmt.Fprintf(r.w, "feed2sitemap: %v\n", f)
}

// warning prints a warning about the output, even with -q: it calls
// for action.
func (r *reporter) warning(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "feed2sitemap: warning: %s\n", msg)
}

// notice prints a warning about the output, unless quiet.
func (r *reporter) notice(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.quiet {
		fmt.Fprintf(r.w, "feed2sitemap: warning: %s\n", msg)
	}
}

// finish prints the account of the run: one summary line, and with -v a
// line per input before it.
func (r *reporter) finish(s *convert.Stats, d *destination, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.quiet || s == nil {
		return
	}
	unusual := r.hidden > 0 || s.Skipped() > 0 || s.Warnings() > 0 || s.Filtered() > 0 || s.Duplicates > 0 ||
		len(s.Failures()) > 0 || s.Limited > 0 || len(s.ExtDropped) > 0 || s.LeftOut() > 0 || err != nil
	if !unusual && !r.always && !r.verbose {
		return
	}
	if r.hidden > 0 {
		fmt.Fprintf(r.w, "feed2sitemap: %d more warnings not shown (-v shows all)\n", r.hidden)
	}
	tops, children := 0, 0
	for _, in := range s.Inputs {
		if in.Depth == 0 {
			tops++
		} else {
			children++
		}
	}
	if r.verbose || tops > 1 || s.Filtered() > 0 {
		for _, in := range s.Inputs {
			if in.Depth == 0 || r.verbose {
				fmt.Fprintf(r.w, "feed2sitemap:   %s%s\n", strings.Repeat("  ", in.Depth), inputLine(in))
			}
		}
	}
	for _, in := range s.Failures() {
		fmt.Fprintf(r.w, "feed2sitemap: failed: %s\n", failureLine(s, in))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "read %d %s from %d %s", s.Read(), plural(s.Read(), "entry", "entries"),
		tops, plural(tops, "input", "inputs"))
	if children > 0 {
		fmt.Fprintf(&b, " and %d child %s", children, plural(children, "sitemap", "sitemaps"))
		if n := len(s.Failures()); n > 0 {
			fmt.Fprintf(&b, " (%d failed)", n)
		}
	}
	if n, why := notFollowed(s); n > 0 {
		fmt.Fprintf(&b, ", %d child %s not followed (%s)", n, plural(n, "sitemap", "sitemaps"), rulesText(why))
	}
	if sk, w := s.Skipped(), s.Warnings(); sk > 0 || w > 0 {
		fmt.Fprintf(&b, " (%d invalid, %d %s)", sk, w, plural(w, "warning", "warnings"))
	}
	b.WriteString(leftOutText(s))
	if f := s.Filtered(); f > 0 {
		fmt.Fprintf(&b, ", filtered %d", f)
	}
	if s.Duplicates > 0 {
		fmt.Fprintf(&b, ", merged %d %s", s.Duplicates, plural(s.Duplicates, "duplicate", "duplicates"))
	}
	switch {
	case err != nil && d.set != nil:
		fmt.Fprintf(&b, "; %s not written", d.set.Path())
	case err != nil:
		b.WriteString("; stopped")
	default:
		fmt.Fprintf(&b, ", wrote %d to %s", s.Written, d.name())
	}
	fmt.Fprintf(r.w, "feed2sitemap: %s\n", b.String())
}

// filteredBy returns how many entries the rule dropped over all inputs.
func filteredBy(s *convert.Stats, rule string) int {
	n := 0
	for _, in := range s.Inputs {
		n += in.Filtered[rule]
	}
	return n
}

// filteredRules lists the rules that dropped entries, with their counts:
// "host 3, scope 2".
func filteredRules(s *convert.Stats) string {
	all := map[string]int{}
	for _, in := range s.Inputs {
		for rule, n := range in.Filtered {
			all[rule] += n
		}
	}
	return rulesText(all)
}

// rulesText lists counts by rule, in the order of the rules' names.
func rulesText(counts map[string]int) string {
	var parts []string
	for _, rule := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%s %d", rule, counts[rule]))
	}
	return strings.Join(parts, ", ")
}

// scopeHint says how to keep URLs the scope rule dropped, when it did.
func scopeHint(s *convert.Stats) string {
	if filteredBy(s, convert.RuleScope) == 0 {
		return ""
	}
	return "; serve the sitemap from the site's root, or give --allow-cross-host when the other hosts' robots.txt name the sitemap (-v lists every URL left out)"
}

// splitHint says which --base-url to give when the output must be split:
// the root of the site of the entries, for a sitemap covers only the URLs
// under the directory it is served from.
func splitHint(err error) string {
	root := "https://example.com/"
	var nb *output.NeedBaseURLError
	if errors.As(err, &nb) {
		if u, perr := url.Parse(nb.Loc); perr == nil && u.Host != "" {
			root = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/"}).String()
		}
	}
	return fmt.Sprintf("(--base-url %s, where the index and its parts will be served: the site's root, "+
		"for a sitemap covers only the URLs under the directory it is served from, the protocol's scope rule; "+
		"a directory such as %ssitemaps/ drops every URL outside it), or keep the entries within one file's limits "+
		"(--limit, or filters) to write a single file", root, root)
}

// inputLine is the account of one input: "a.rss (feed): 10 read, 1
// invalid, 2 filtered (host 2), 3 duplicates, 4 written".
func inputLine(in convert.InputStats) string {
	format := in.Format
	if format == "" {
		return in.Name + " (not read)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): ", in.Name, format)
	if in.Children > 0 {
		fmt.Fprintf(&b, "%d child %s, ", in.Children, plural(in.Children, "sitemap", "sitemaps"))
	}
	if n := skippedChildren(in); n > 0 {
		fmt.Fprintf(&b, "%d not followed (%s), ", n, rulesText(in.SkippedChildren))
	}
	fmt.Fprintf(&b, "%d read, %d invalid", in.Read, in.Skipped)
	b.WriteString(inputLeftOut(in))
	if f := in.FilteredTotal(); f > 0 {
		fmt.Fprintf(&b, ", %d filtered (%s)", f, rulesText(in.Filtered))
	}
	fmt.Fprintf(&b, ", %d %s, %d written, %d %s", in.Duplicates, plural(in.Duplicates, "duplicate", "duplicates"),
		in.Written(), in.Warnings, plural(in.Warnings, "warning", "warnings"))
	return b.String()
}

// dropped prints an entry left out of the output, with -v.
func (r *reporter) dropped(d convert.Drop) {
	r.mu.Lock()
	defer r.mu.Unlock()
	why := map[string]string{
		convert.RuleHost:    "not on a --host",
		convert.RuleScope:   "outside the sitemap's host and directory (--base-url; --allow-cross-host keeps it)",
		convert.RuleInclude: "path matches no --include",
		convert.RuleExclude: "path matches an --exclude",
		convert.RuleSince:   "lastmod before --since, or none",
		convert.RuleMaxAge:  "lastmod older than --max-age",
	}[d.Rule]
	if d.Rule == convert.RuleDuplicate {
		why = "duplicate, " + d.Detail
	}
	fmt.Fprintf(r.w, "feed2sitemap: dropped %s (%s: %s)\n", d.Loc, d.Input, why)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
