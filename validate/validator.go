package validate

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	_ "github.com/feed2sitemap/feed2sitemap/formats/feed"   // recognizes feeds for Detect
	_ "github.com/feed2sitemap/feed2sitemap/formats/robots" // recognizes robots.txt for Detect
	_ "github.com/feed2sitemap/feed2sitemap/formats/text"   // recognizes text sitemaps for Detect
	_ "github.com/feed2sitemap/feed2sitemap/formats/xml"    // recognizes sitemaps for Detect
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
	"github.com/feed2sitemap/feed2sitemap/internal/uri"
)

// maxChildren is how many children of one index or robots.txt are followed.
const maxChildren = formats.MaxURLs

// Source names a document and says where it is served.
type Source struct {
	// Name names the document in findings: a file path, "<stdin>" or a URL.
	Name string
	// URL is where the document is served, against which the host and
	// directory rules check its URLs; nil when unknown, and then those rules
	// are skipped.
	URL *url.URL
	// Dir is the local directory the document was read from, where
	// OpenLocal looks for the children of an index; "" when none.
	Dir string
	// Charset is the charset the transport gave for the document (an HTTP
	// Content-Type's), which decides over its XML declaration as it does
	// for the readers; "" when none. A reader passed to Check that knows
	// its transport's charset needs none here.
	Charset string
}

// Finding is one problem found in a document.
type Finding struct {
	// Rule is the rule broken.
	Rule *Rule
	// Source is the name of the document (Source.Name).
	Source string
	// Line and Column are 1-based; Column counts bytes. Zero when the
	// finding is about the whole document.
	Line, Column int
	// Message says what is wrong at this place, in one line.
	Message string
}

// Severity returns the severity of the finding's rule.
func (f Finding) Severity() Severity { return f.Rule.Severity }

// String returns the finding as "source:line:col: severity: message [rule-id]".
func (f Finding) String() string {
	pos := f.Source
	switch {
	case f.Line > 0 && f.Column > 0:
		pos = fmt.Sprintf("%s:%d:%d", f.Source, f.Line, f.Column)
	case f.Line > 0:
		pos = fmt.Sprintf("%s:%d", f.Source, f.Line)
	}
	return fmt.Sprintf("%s: %s: %s [%s]", pos, f.Rule.Severity, f.Message, f.Rule.ID)
}

// Document is what the validator tells about a document it has checked.
type Document struct {
	// Source is the document's name.
	Source string
	// Format is how the document was read: "xml" (a sitemap), "index",
	// "text", "feed", "robots", or "" when it could not be recognized.
	Format string
	// Parent is the name of the index or robots.txt that listed the
	// document; "" for an input.
	Parent string
	// URLs is how many entries (URLs, child sitemaps) it holds.
	URLs int
	// Bytes is its size uncompressed (up to formats.MaxBytes+1).
	Bytes int64
	// ScopeKnown is false when the document's location was unknown, so the
	// host and directory rules were skipped.
	ScopeKnown bool
}

// Options configure a Validator.
type Options struct {
	// Now is the time lastmod-future and news-age measure from; zero means
	// the time New is called.
	Now time.Time
	// OpenChild opens a child sitemap that an index or robots.txt lists, by
	// its loc, and returns it with its source (its name, and the URL it is
	// served from). Nil means OpenLocal.
	OpenChild func(parent Source, loc string) (io.ReadCloser, Source, error)
	// NoFollow checks indexes and robots.txt files without checking the
	// sitemaps they list.
	NoFollow bool
	// Independent makes each Check its own run for the duplicate-url and
	// url-twins rules: URLs are compared within a document and an index's
	// children, never with the documents of other Check calls.
	Independent bool
	// OnDocument, when set, is called after each document (an input or a
	// child) has been checked.
	OnDocument func(Document)
	// MaxRemembered bounds the URLs the duplicate-url and url-twins rules
	// remember (16 to 64 bytes each); past it, later URLs are still
	// compared with those remembered but not remembered themselves, and
	// Forgotten counts them. Zero means DefaultMaxRemembered.
	MaxRemembered int
	// Expect is how many URLs the run is expected to remember (a guess,
	// such as convert.PagesHint's; 0 when unknown): the table of URLs is
	// made that large at once, rather than grown to it, each growth a
	// copy into fresh memory. At most MaxRemembered count.
	Expect int
}

// DefaultMaxRemembered is the number of URLs a run remembers for the
// duplicate-url and url-twins rules unless Options.MaxRemembered says
// otherwise: a table of 32 MiB, so that checking a set of any size
// stays in bounded memory.
const DefaultMaxRemembered = 1_000_000

// Validator checks documents. It holds the state of one run: the URLs seen
// so far (for duplicate-url and url-twins across files) and the children
// already checked. A Validator is not safe for concurrent use.
type Validator struct {
	opts      Options
	seed      maphash.Seed    // of the page ids of http(s) URLs (pageID)
	otherSeed maphash.Seed    // of the page ids of other strings
	docs      []string        // names of the documents checked, by id
	seen      *seenTable      // the URLs remembered, by page id
	visited   map[string]bool // children checked
	forgot    int             // URLs not remembered once seen was full
	// xmlElsewhere says the XML rules are given the tokens of the
	// caller's reader (Observe): an XML document is only read through.
	xmlElsewhere bool
	// shared is what the decoding of the document checked (not of its
	// children) shares with the caller's (Observe); nil otherwise.
	shared *textenc.Shared
	// future is when a date-time, and a date, are in the future (see
	// futureFrom).
	future [2]time.Time
}

// futureFrom returns the instant after which a date-time (dateTime), or
// else a date, is in the future: when the date's day has begun nowhere
// yet (UTC+14); a date-time, when it is more than a minute away.
func (v *Validator) futureFrom(dateTime bool) time.Time {
	if dateTime {
		return v.future[0]
	}
	return v.future[1]
}

// New returns a Validator for one run.
func New(opts Options) *Validator {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	if opts.OpenChild == nil {
		opts.OpenChild = OpenLocal
	}
	if opts.MaxRemembered <= 0 {
		opts.MaxRemembered = DefaultMaxRemembered
	}
	v := &Validator{opts: opts, seed: maphash.MakeSeed(), otherSeed: maphash.MakeSeed(), visited: map[string]bool{},
		seen: &seenTable{}, future: [2]time.Time{opts.Now.Add(minuteSlack), opts.Now.Add(14 * hour)}}
	v.seen.reserve(min(opts.Expect, opts.MaxRemembered))
	runtime.AddCleanup(v, (*seenTable).release, v.seen)
	return v
}

// Forgotten returns how many URLs the run checked without remembering
// them for the duplicate-url and url-twins rules, because it already
// remembered Options.MaxRemembered: a duplicate of one of those is not
// reported.
func (v *Validator) Forgotten() int { return v.forgot }

func (v *Validator) reset() { v.seen.release() }

// ErrNotFollowed is returned by OpenLocal for a child it cannot look for.
var ErrNotFollowed = errors.New("validate: the index was not read from a directory, so its children cannot be found")

// OpenLocal opens a child sitemap next to its parent: the file named by
// the last segment of loc's path (percent-decoded) in parent.Dir, the rule
// the converter's local children follow too. The child is served at loc.
func OpenLocal(parent Source, loc string) (io.ReadCloser, Source, error) {
	if parent.Dir == "" {
		return nil, Source{}, ErrNotFollowed
	}
	base, err := uri.ChildFileName(loc)
	if err != nil {
		return nil, Source{}, fmt.Errorf("validate: %w to look for", err)
	}
	u, _ := url.Parse(strings.TrimSpace(loc))
	name := filepath.Join(parent.Dir, base)
	f, err := os.Open(name)
	if err != nil {
		return nil, Source{}, err
	}
	src := Source{Name: name, Dir: parent.Dir}
	if u.IsAbs() {
		src.URL = u
	}
	return f, src, nil
}

// Check validates one document, read from r, calling report for each
// finding as it is found, and, when the document is a sitemap index or a
// robots.txt, checks the sitemaps it lists too (see Options.OpenChild). It
// returns an error only when r fails to read (not for a corrupt gzip
// stream, which is a finding); findings are never errors.
func (v *Validator) Check(r io.Reader, src Source, report func(Finding)) error {
	if v.opts.Independent {
		v.reset()
	}
	return v.check(r, src, "", parentNone, report)
}

type parentKind uint8

const (
	parentNone parentKind = iota
	parentIndex
	parentRobots
)

// check validates one document; parent names the index or robots.txt that
// listed it.
func (v *Validator) check(r io.Reader, src Source, parent string, pk parentKind, report func(Finding)) error {
	d := v.newDoc(src, report)
	d.info.Parent = parent
	d.parentKind = pk
	err := d.run(r)
	if v.opts.OnDocument != nil {
		d.info.ScopeKnown = d.scope != nil
		v.opts.OnDocument(d.info)
	}
	return err
}

// readError wraps a read error with the source's name.
func (d *doc) readError(err error) error {
	return fmt.Errorf("validate: reading %s: %w", d.src.Name, err)
}

// followChild checks a child sitemap an index or robots.txt lists.
func (d *doc) followChild(loc string, line, col int) {
	v := d.v
	if v.opts.NoFollow || d.followed >= maxChildren {
		return
	}
	if d.parentKind == parentIndex {
		return // an index listed by an index: reported as index-nested, not followed
	}
	d.followed++
	rc, src, err := v.opts.OpenChild(d.src, loc)
	if err != nil {
		d.reportAt(ruleChildUnreadable, line, col, "cannot read the sitemap %s: %v", loc, err)
		return
	}
	defer rc.Close()
	if v.visited[src.Name] || src.Name == d.src.Name {
		return
	}
	v.visited[src.Name] = true
	if err := v.check(rc, src, d.src.Name, d.check.parent, d.report); err != nil {
		d.reportAt(ruleChildUnreadable, line, col, "cannot read the sitemap %s: %v", loc, err)
	}
}

// Writer returns a writer that checks what is written to it as one
// document, for a caller that reads the input itself: tee its raw bytes
// (gzip included) into the writer, then Close it, which waits for the check
// to end and returns what Check would. Writes never fail because of the
// check, even once it has stopped (a document too large, say). The check
// runs on another goroutine, which calls report; the Validator must not be
// used otherwise until Close returns.
func (v *Validator) Writer(src Source, report func(Finding)) io.WriteCloser {
	pr, pw := io.Pipe()
	cw := &checkWriter{pw: pw, done: make(chan error, 1)}
	go func() {
		err := v.Check(pr, src, report)
		io.Copy(io.Discard, pr) // what the check did not read
		cw.done <- err
	}()
	return cw
}

// checkWriter is the writer Writer returns.
type checkWriter struct {
	pw    *io.PipeWriter
	done  chan error
	close sync.Once
	err   error
}

func (w *checkWriter) Write(p []byte) (int, error) { return w.pw.Write(p) }

// Close ends the document and returns the check's error; closing again
// returns the same.
func (w *checkWriter) Close() error {
	w.close.Do(func() {
		w.pw.Close()
		w.err = <-w.done
	})
	return w.err
}
