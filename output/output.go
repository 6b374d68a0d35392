// Package output writes entries to disk as a sitemap set: one sitemap file
// when they fit the protocol's limits, or numbered part files and a sitemap
// index that lists them when they do not.
//
// A file holds at most 50,000 entries and 52,428,800 bytes uncompressed,
// header and footer counted exactly (Options.MaxURLs and Options.MaxBytes
// set lower caps), and at most 1,000 entries with news data
// (formats.MaxNews) when the format keeps it. When the entries need more than one file, the file named
// by Options.Path becomes a sitemap index and the entries go to parts beside
// it, named after the output, their number and a short hash of their
// content: sitemap-1-3f9a2c1e.xml, sitemap-2-0b71d4aa.xml, ... Each index
// entry's loc is the part's name joined to Options.BaseURL, and its lastmod
// the newest lastmod among the part's entries. An index is never split in
// turn: entries that need more parts than one index may list are an error.
//
// Output is all or nothing, at every moment. Parts are written to temporary
// files and renamed to their content-hashed names only when every part is
// complete; a part whose content did not change keeps its name, its bytes
// and its modification time. The index (or the single sitemap) then replaces
// the old one with one rename, and only after that are the previous run's
// parts removed: files that match this output's part pattern and are not
// part of the new set, never other files. A run that fails, or is killed at
// any point, leaves the index on disk pointing at complete parts of one run,
// the old one or the new one. Every file is synced before it is renamed;
// its data is handed to the system's writeback as it is written (every
// MiB), so that the syncs wait for little at the end.
//
// Two runs on the same output are serialized by Lock: a lock file beside
// the output (".STEM.lock") that the second run waits for. Temporary files
// carry the writing process's id in their names; a run removes its own,
// and those of runs of this output that are gone, never another live
// run's.
//
// The paths written follow the rules of internal/atomicfile: a symbolic
// link at Options.Path (or at a part's name) is written through, the link
// staying a link, and a directory, a named pipe or a device there is
// refused by New before anything is read or written.
//
// With gzip, every file is gzipped and named with .gz, and parts are
// compressed in parallel.
//
// Entries are rendered once, by the format's formats.Encoder: what is
// measured against the limits is the bytes written. A format without one
// (a feed) is written by its Writer, as one document.
//
// With Options.SectionOf the entries are written by section (the first
// directory of their path, say): each section to parts of its own, named
// after it (sitemap-blog-3f9a2c1e.xml, or sitemap-shop-1-0b71d4aa.xml,
// sitemap-shop-2-5e1c07d2.xml when split at the limits), all listed by
// one index; see SectionFunc, ByPath and ByHost.
//
// Stream writes one document to a writer that is not a file (standard
// output) with the same all-or-nothing contract: held until Commit.
package output

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/atomicfile"
	"github.com/feed2sitemap/feed2sitemap/internal/filelock"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
)

// maxParts is how many parts one index may list: the protocol's limit on
// entries per file. (--max-urls caps the parts, not the index.)
var maxParts = formats.MaxURLs

// Errors that Write and Close return, wrapped with details.
var (
	// ErrNeedBaseURL: the entries need several files, and the index cannot
	// say where the parts are without Options.BaseURL.
	ErrNeedBaseURL = errors.New("output: the output must be split into several files, and the index needs to know where they will be served: give the base URL")
	// ErrTooManyParts: more parts than one sitemap index may list.
	ErrTooManyParts = errors.New("output: too many part files for one sitemap index")
	// ErrIndexTooLarge: a sitemap index over the limits; indexes are never
	// nested.
	ErrIndexTooLarge = errors.New("output: sitemap index over the protocol's limits")
	// ErrEntryTooLarge: one entry is larger than the byte limit of a file.
	ErrEntryTooLarge = errors.New("output: entry larger than the size limit of one file")
	// ErrLocked is matched by the error of Lock when another run held the
	// output's lock for the whole wait.
	ErrLocked = filelock.ErrLocked
)

// Options configure a Set.
type Options struct {
	// Path is the file to write: the sitemap, or the sitemap index when the
	// entries are split. A name ending in .gz implies Gzip.
	Path string
	// Format is the format of the sitemap and of the parts; the index is
	// in the format's Index format. A format without an Encoder or an
	// index (a feed) is written as one file, never split, and MaxURLs and
	// MaxBytes do not apply to it.
	Format *formats.Format
	// Gzip gzips every file written; ".gz" is added to Path when it lacks
	// it.
	Gzip bool
	// BaseURL is where the files will be served: the URL of their
	// directory, or of the index itself. It is needed only to split.
	BaseURL *url.URL
	// MaxURLs and MaxBytes lower the limits on one file; zero means the
	// protocol's MaxURLs and MaxBytes.
	MaxURLs  int
	MaxBytes int64
	// OneFile writes one file whatever its size, never split: the
	// protocol's limits do not apply (a list for tools, not a sitemap for
	// search engines). MaxURLs and MaxBytes must then be zero.
	OneFile bool
	// Index asks for an empty sitemap index rather than an empty urlset
	// when no entry is written.
	Index bool
	// Write holds the options every document is written with (extensions
	// used, stylesheet, feed information); Index is set per document.
	Write formats.WriteOptions
	// SectionOf, when set, writes the entries by section: the entries of
	// each key it returns go to child sitemaps of their own, named after
	// the section (SectionName, made unique: STEM-SECTION-HASH.EXT, or
	// STEM-SECTION-1-HASH.EXT, STEM-SECTION-2-HASH.EXT, ... when the
	// section is split at the limits), listed by the index at Path, which
	// is an index however few the entries: sections in the order of their
	// names, the entries of each in the order written. It needs BaseURL
	// and a format that is split (not OneFile, not a feed). Entries wait in
	// a spool file until Close, in bounded memory whatever the number of
	// sections.
	SectionOf SectionFunc
	// LockTimeout is how long Close waits for another run's lock on the
	// output when Lock was not called: zero means DefaultLockTimeout, a
	// negative value not at all.
	LockTimeout time.Duration
}

// DefaultLockTimeout is how long a run waits for another run's lock on the
// same output, unless told otherwise.
const DefaultLockTimeout = 30 * time.Second

// File describes one file a Set wrote.
type File struct {
	Path    string // where it is
	Entries int    // entries it holds
	Bytes   int64  // its size uncompressed
}

// Set writes entries as a sitemap set. It is a formats.Writer: Write each
// entry, then Close to put the files in place, or Abort to leave the old
// set as it was. A Set is not safe for concurrent use.
type Set struct {
	opts      Options
	path      string // the sitemap or index, with .gz when gzipped
	indexPath string // where the index goes when split
	dir       string
	stem, ext string         // of the part names
	partRe    *regexp.Regexp // the part names of this output
	sectionRe *regexp.Regexp // the names of the parts of its sections
	base      *url.URL
	// newEnc makes the Encoder of the format's documents; nil for a
	// format written by its Writer, as one document.
	newEnc   func(formats.WriteOptions) formats.Encoder
	index    *formats.Format // the format of the index; nil when never split
	maxURLs  int
	maxBytes int64
	maxNews  int // entries with news data per file

	started bool
	kind    formats.Kind
	// enc renders the entries, measured by their length and written as
	// rendered; frame is the size of a document's header and footer.
	// Both are set at the first entry.
	enc     formats.Encoder
	frame   int64
	e       formats.Entry // the entry being written, whose address enc takes
	entry   []byte        // the entry being written, rendered
	scratch []byte        // headers, footers and index entries, rendered
	cur     *part
	parts   []*part
	slots   chan struct{} // bounds the parts stored at once
	open    chan struct{} // bounds the files open at once: stored, or being synced
	written atomic.Int64  // parts finished, for progress
	files   []File
	// indexEnc renders the index's entries, to measure them: indexBytes is
	// the size of an index of the finished parts, and lastIndexEntry the
	// size of the last one's entry.
	indexEnc       formats.Encoder
	indexBytes     int64
	lastIndexEntry int
	created        []string // files this Set put in place, removed by Abort
	lock           *filelock.Lock
	closed         bool
	err            error
	// sections holds the entries by section until Close, with SectionOf;
	// secName and secFirst are the section being written and its first
	// part's index in parts.
	sections *sections
	secName  string
	secFirst int
	// listed are the files of this output's directory the index being
	// replaced lists, which are removed with the leftovers.
	listed map[string]bool
}

// New checks the options and returns a Set. Nothing is written before the
// first entry.
func New(opts Options) (*Set, error) {
	if opts.Format == nil || opts.Format.NewWriter == nil {
		return nil, errors.New("output: the format cannot be written")
	}
	if opts.Path == "" {
		return nil, errors.New("output: no path")
	}
	s := &Set{opts: opts, newEnc: opts.Format.NewEncoder, maxURLs: opts.MaxURLs, maxBytes: opts.MaxBytes, maxNews: math.MaxInt}
	if s.newEnc != nil && opts.Format.Index != "" {
		idx, err := formats.Lookup(opts.Format.Index)
		if err != nil || idx.NewEncoder == nil {
			return nil, fmt.Errorf("output: the index format %q of format %s cannot be written", opts.Format.Index, opts.Format.Name)
		}
		s.index = idx
	}
	split := s.index != nil
	if opts.Format.Carries&formats.ExtNews != 0 && split && !opts.OneFile {
		s.maxNews = formats.MaxNews
	}
	if !split {
		// A document that cannot be split (a feed): one file, whatever
		// its size.
		s.maxURLs, s.maxBytes = math.MaxInt, math.MaxInt64
	}
	switch {
	case s.maxURLs == 0:
		s.maxURLs = formats.MaxURLs
	case s.maxURLs < 1 || s.maxURLs > formats.MaxURLs && split:
		return nil, fmt.Errorf("output: at most %d URLs per file is a limit between 1 and %d", s.maxURLs, formats.MaxURLs)
	}
	switch {
	case s.maxBytes == 0:
		s.maxBytes = formats.MaxBytes
	case s.maxBytes < 1 || s.maxBytes > formats.MaxBytes && split:
		return nil, fmt.Errorf("output: at most %d bytes per file is a limit between 1 and %d", s.maxBytes, formats.MaxBytes)
	}
	if opts.OneFile {
		if opts.MaxURLs != 0 || opts.MaxBytes != 0 {
			return nil, errors.New("output: one file whatever its size has no limits to lower")
		}
		s.maxURLs, s.maxBytes = math.MaxInt, math.MaxInt64
	}
	s.path = opts.Path
	gz := strings.HasSuffix(strings.ToLower(s.path), ".gz")
	if opts.Gzip && !gz {
		s.path += ".gz"
	}
	s.opts.Gzip = opts.Gzip || gz
	s.dir = filepath.Dir(s.path)
	if fi, err := os.Stat(s.dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("output: the directory %s of %s does not exist", s.dir, s.path)
	}
	if _, err := atomicfile.Target(s.path); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	name := filepath.Base(s.path)
	if s.opts.Gzip {
		name = name[:len(name)-len(".gz")]
	}
	s.ext = filepath.Ext(name)
	s.stem = strings.TrimSuffix(name, s.ext)
	q := regexp.QuoteMeta
	s.partRe = regexp.MustCompile(`^` + q(s.stem) + `-[1-9][0-9]*-[0-9a-f]{8}` + q(s.ext+s.gzExt()) + `$`)
	s.sectionRe = regexp.MustCompile(`^` + q(s.stem) + `-[a-z0-9._-]+-[0-9a-f]{8}` + q(s.ext+s.gzExt()) + `$`)
	s.indexPath = s.path
	if split && opts.Format.Index != opts.Format.Name {
		// The index of parts of a format that is not its own index (text)
		// is in that index format (XML), and named by it.
		s.indexPath = filepath.Join(s.dir, s.stem+s.index.Extensions[0]+s.gzExt())
		if _, err := atomicfile.Target(s.indexPath); err != nil {
			return nil, fmt.Errorf("output: the index of a split set: %w", err)
		}
	}
	if opts.BaseURL != nil {
		base, err := baseDir(opts.BaseURL, filepath.Base(s.indexPath))
		if err != nil {
			return nil, err
		}
		s.base = base
	}
	if opts.SectionOf != nil {
		switch {
		case !split || opts.OneFile:
			return nil, fmt.Errorf("output: format %s is written as one file, which cannot be split into sections", opts.Format.Name)
		case s.base == nil:
			return nil, fmt.Errorf("output: sections: %w", reason.Of(ErrNeedBaseURL))
		}
		s.sections = newSections(opts.SectionOf)
	}
	s.slots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))
	s.open = make(chan struct{}, maxOpen)
	return s, nil
}

// SetWriteOptions sets the options the documents are written with, as
// Options.Write does, when they are known only once the entries are (the
// extensions they use, say). It must be called before the first Write.
func (s *Set) SetWriteOptions(o formats.WriteOptions) error {
	if s.started {
		return errors.New("output: SetWriteOptions after Write")
	}
	s.opts.Write = o
	return nil
}

// Path returns the path of the sitemap, or of the index when split: the
// Options' Path, with .gz added when gzipping.
func (s *Set) Path() string {
	if len(s.parts) > 1 || s.sections != nil {
		return s.indexPath
	}
	return s.path
}

// BaseURL returns the URL of the directory the files are served from, as
// the index locates the parts, or nil without Options.BaseURL.
func (s *Set) BaseURL() *url.URL { return s.base }

// PartsWritten returns how many part files are complete so far. It may be
// called from another goroutine, to show progress.
func (s *Set) PartsWritten() int { return int(s.written.Load()) }

// Files returns the files written, after a successful Close: the parts, then
// the index; or the one sitemap.
func (s *Set) Files() []File { return s.files }

// Write adds one entry, starting a new part first when the entry would take
// the current one over a limit.
func (s *Set) Write(e formats.Entry) error {
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return errors.New("output: write after Close")
	}
	if !s.started {
		s.started, s.kind = true, e.Kind
		s.startEncoder()
	}
	if s.sections != nil {
		if e.Kind == formats.KindSitemap {
			return s.fail(fmt.Errorf("output: %s is a child sitemap: sections list pages, and an index never lists another index", e.Loc))
		}
		return s.fail(s.sections.add(e))
	}
	return s.put(&e)
}

// KeepsNothing reports whether Write keeps nothing of its entry (see
// formats.KeepsNothing): true when the set renders each entry as it comes,
// with an encoder, rather than holding it for a section or handing it to
// a format's Writer.
func (s *Set) KeepsNothing() bool { return s.sections == nil && s.newEnc != nil }

// put writes e to the current part, starting a new part first when e
// would take the current one over a limit.
func (s *Set) put(in *formats.Entry) error {
	if s.enc == nil {
		// One document, written by the format's Writer: never split,
		// nothing measured.
		return s.writeWhole(*in)
	}
	// The entry is rendered once: measured by its length, and written
	// as rendered. It is rendered right after what the current part's
	// chunk holds when there is room (renderRoom), and taken in there
	// once it is known to fit the part: its bytes are not copied.
	s.e = *in
	e := &s.e
	var at *chunker
	b := s.entry[:0]
	if s.cur != nil && cap(s.cur.chunks.buf)-len(s.cur.chunks.buf) >= renderRoom {
		at, b = s.cur.chunks, s.cur.chunks.buf
	}
	start := len(b)
	b, err := s.enc.AppendEntry(b, e)
	if err != nil {
		return s.fail(err)
	}
	frame, size := s.frame, int64(len(b)-start)
	if at == nil {
		s.entry = b
	}
	if frame+size > s.maxBytes {
		return s.fail(fmt.Errorf("%w: %s needs %d bytes, the limit is %d", reason.Of(ErrEntryTooLarge), e.Loc, frame+size, s.maxBytes))
	}
	news := e.Ext != nil && e.Ext.News != nil
	if s.cur != nil && (s.cur.entries+1 > s.maxURLs || frame+s.cur.bytes+size > s.maxBytes || news && s.cur.news+1 > s.maxNews) {
		if at != nil {
			// The part ends before this entry: its bytes move out of
			// the chunk, which goes to the part's store as it is.
			s.entry = append(s.entry[:0], b[start:]...)
			b, start, at = s.entry, 0, nil
		}
		if err := s.split(); err != nil {
			if errors.Is(err, ErrNeedBaseURL) {
				err = &NeedBaseURLError{Loc: strings.Clone(e.Loc)} // outlives the entry's memory
			}
			return s.fail(err)
		}
	}
	if s.cur == nil {
		if err := s.newPart(); err != nil {
			return s.fail(err)
		}
	}
	p := s.cur
	if at != nil {
		at.took(b, start)
	} else {
		p.chunks.Write(b[start:])
	}
	p.enc.Wrote(&s.e)
	p.entries++
	p.bytes += size
	if news {
		p.news++
	}
	if e.LastMod.Newer(p.lastmod) {
		p.lastmod = e.LastMod
	}
	return nil
}

// startEncoder makes the Encoder that renders the entries, once their kind
// is known, and measures the frame of a document, for a format that has
// one.
func (s *Set) startEncoder() {
	if s.newEnc != nil && s.enc == nil {
		s.enc = s.newEnc(s.docOptions())
		s.scratch = s.enc.AppendFooter(s.enc.AppendHeader(s.scratch[:0]))
		s.frame = int64(len(s.scratch))
	}
}

// writeWhole writes e to the one document of a format without an Encoder.
func (s *Set) writeWhole(e formats.Entry) error {
	if s.cur == nil {
		if err := s.newPart(); err != nil {
			return s.fail(err)
		}
	}
	p := s.cur
	if err := p.w.Write(e); err != nil {
		return s.fail(err)
	}
	p.entries++
	if e.LastMod.Newer(p.lastmod) {
		p.lastmod = e.LastMod
	}
	return nil
}

func (s *Set) fail(err error) error {
	s.err = err
	return err
}

// Close finishes the last part and puts the set in place: the parts under
// their names, then the index or the single sitemap, then removes the
// previous run's parts, all under the output's lock (see Lock), which it
// releases when it succeeds. With no entry written it writes an empty
// document.
func (s *Set) Close() error {
	if s.err != nil {
		return s.err
	}
	if s.closed {
		return errors.New("output: Close twice")
	}
	s.closed = true
	if s.lock == nil {
		// At least the files are put in place, and the old ones removed,
		// under the lock.
		timeout := s.opts.LockTimeout
		if timeout == 0 {
			timeout = DefaultLockTimeout
		}
		if err := s.Lock(max(timeout, 0)); err != nil {
			return s.fail(err)
		}
	}
	s.listed = s.previousChildren()
	if s.sections != nil {
		if err := s.writeSections(); err != nil {
			return s.fail(err)
		}
	}
	if s.cur == nil && len(s.parts) == 0 && s.sections == nil {
		s.kind = formats.KindURL
		if s.opts.Index {
			s.kind = formats.KindSitemap
		}
		if err := s.newPart(); err != nil {
			return s.fail(err)
		}
	}
	if s.cur != nil {
		if err := s.finish(s.cur); err != nil {
			return s.fail(err)
		}
	}
	if err := s.wait(); err != nil {
		return s.fail(err)
	}
	if len(s.parts) == 1 && s.sections == nil {
		p := s.parts[0]
		if err := s.place(p.tmp, s.path); err != nil {
			return s.fail(err)
		}
		s.files = []File{{Path: s.path, Entries: p.entries, Bytes: s.size(p)}}
		if s.index != nil && s.opts.Format.Index == s.opts.Format.Name {
			// The sitemap replaced the index that listed the old parts.
			s.removeLeftovers()
		}
		s.unlock()
		return nil
	}
	if err := s.commitSplit(); err != nil {
		return s.fail(err)
	}
	s.removeLeftovers()
	s.unlock()
	return nil
}

// Abort throws away what was written and leaves the previous set as it was,
// then releases the lock. It does nothing after a successful Close, so it
// can be deferred; after a failed Close, call it.
func (s *Set) Abort() {
	if s.closed && s.err == nil {
		return
	}
	s.closed = true
	if s.err == nil {
		s.err = errors.New("output: aborted")
	}
	if s.cur != nil {
		s.cur.abort()
		s.cur = nil
	}
	s.wait()
	if s.sections != nil {
		s.sections.close()
	}
	for _, p := range s.parts {
		os.Remove(p.tmp)
	}
	// Files placed before a failure are parts the old index does not list.
	for _, path := range s.created {
		os.Remove(path)
	}
	s.unlock()
}

// wait waits for every part being compressed and returns the first error.
func (s *Set) wait() error {
	var first error
	for _, p := range s.parts {
		if err := p.wait(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
