package html

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"golang.org/x/net/html/charset"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/source"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
	"github.com/feed2sitemap/feed2sitemap/internal/vocab"
)

// SiteReader reads a directory of built HTML pages (OpenDir), a
// static site's output (Hugo, Jekyll, Eleventy, Astro, Docusaurus), as the
// entries of its pages.
//
// Every .html or .htm file is a page, in any directory but those whose
// name starts with a dot (.git, .well-known); other files are ignored. A
// page's URL is the site's URL plus its path, percent-encoded once (a '%'
// in a file name is %25); index.html is its directory's URL (/blog/post/),
// and DirOptions.CleanURLs drops the .html of other names. Symbolic links
// are followed only to files inside the directory (one that leads out, or
// a loop, is warned about), never into directories.
//
// Pages that are no pages to list are left out without a warning, and
// counted (LeftOut): a page whose robots or googlebot meta says noindex
// or none (in any case, among any other values), a page whose canonical
// link names another URL (with a warning when no page read has that URL:
// the site's URL may be wrong, or the site may serve clean URLs), and at
// the top of the directory the error page hosts serve for a missing URL
// (404.html) and search engines' verification files (google….html,
// yandex_….html). Anything else is listed: --exclude leaves out more.
//
// A page is read with the HTML tokenizer, a token at a time, up to the end
// of its head, and no further unless DirOptions.Images asks for the <img>
// elements of its body; what the head says is taken from the head only.
// A page not in UTF-8 is decoded from the charset its first 1024 bytes
// declare (<meta charset>), as browsers decode it, else as windows-1252.
// The lastmod is, by DirOptions.LastMod, the first date of article:
// modified_time, og:updated_time, JSON-LD dateModified,
// article:published_time and JSON-LD datePublished (of the script's
// top-level objects or its @graph) that is one; the last commit's date; or
// the file's modification time. Language alternates (<link
// rel="alternate" hreflang>) are made reciprocal: the pages linked by
// them form a group, and every page of a group lists the alternates of
// the whole group, itself included, even when a page forgot some links.
// Images (og:image, <img src>) resolve against the page's URL or its
// <base href>, once each; data: URIs are left out.
//
// It reads every page before it gives the first entry (a page's
// alternates are known only once every page of its group was read), then
// gives them in the order of their URLs, holding what it keeps of each:
// its URL, lastmod, alternates and images. Each page is read within a cap
// (see NewSiteReader) and MaxTokenBytes.
type SiteReader struct {
	dir     *formats.Dir
	o       DirOptions // the directory's options, checked
	opts    formats.ReadOptions
	maxPage int64 // the cap on one page's size

	pages   []*sitePage
	next    int
	read    bool
	err     error
	leftOut int
}

// sitePage is a page of the site, as kept once read.
type sitePage struct {
	file       string // its path in the directory, slash-separated
	loc        string
	canonical  string // its canonical URL when another than loc
	lastmod    formats.LastMod
	alternates []formats.Alternate
	images     []formats.Image
}

// NewSiteReader returns the reader of the pages of d, opened by OpenDir.
// Each page is read up to opts.MaxBytes, or formats.MaxBytes when that is
// 0 or more: a page is held to the size of one document. A d whose Options
// are not DirOptions with a site URL gives that error at the first Next.
func NewSiteReader(d *formats.Dir, opts formats.OpenOptions) *SiteReader {
	limit := opts.MaxBytes
	if limit <= 0 || limit > formats.MaxBytes {
		limit = formats.MaxBytes
	}
	r := &SiteReader{dir: d, opts: opts.ReadOptions, maxPage: limit}
	var err error
	if r.o, err = dirOptions(d); err != nil {
		r.read, r.err = true, &formats.ParseError{Source: opts.Source, Err: err}
	}
	return r
}

// Next returns the entry of the next page, in the order of their URLs.
// The first call reads the whole directory; an error of that reading (a
// warning, in strict mode) comes before any entry.
func (r *SiteReader) Next() (formats.Entry, error) {
	if !r.read {
		r.read = true
		r.err = r.readAll()
	}
	if r.err != nil {
		return formats.Entry{}, r.err
	}
	if r.next == len(r.pages) {
		return formats.Entry{}, io.EOF
	}
	p := r.pages[r.next]
	r.pages[r.next] = nil
	r.next++
	e := formats.Entry{Loc: p.loc, LastMod: p.lastmod}
	if len(p.alternates) > 0 || len(p.images) > 0 {
		e.Ext = &formats.Extensions{Alternates: p.alternates, Images: p.images}
	}
	return e, nil
}

// Head returns nil: a site has no document-level elements
// (formats.ExtraReader).
func (r *SiteReader) Head() []string { return nil }

// LeftOut returns how many pages were left out as no pages to list: those
// that ask not to be indexed (robots noindex), those whose canonical URL
// is another, and the error and verification pages (see the package
// documentation). It is complete once Next has returned the first entry.
func (r *SiteReader) LeftOut() int { return r.leftOut }

// readAll walks the directory in the order of the paths, reads its pages
// and makes the language groups reciprocal.
func (r *SiteReader) readAll() error {
	var gitDates map[string]time.Time
	if r.o.LastMod == LastModGit {
		var err error
		if gitDates, err = commitDates(r.dir.Path); err != nil {
			return &formats.ParseError{Source: r.opts.Source, Err: err}
		}
	}
	err := fs.WalkDir(r.dir.Root.FS(), ".", func(file string, de fs.DirEntry, err error) error {
		if err != nil {
			if file == "." {
				return err
			}
			return r.warn(file, false, err)
		}
		if file != "." && strings.HasPrefix(de.Name(), ".") {
			// .git, .well-known, editors' files: not pages.
			if de.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if de.IsDir() || !isPageName(de.Name()) {
			return nil
		}
		if !de.Type().IsRegular() {
			if de.Type()&fs.ModeSymlink == 0 {
				return nil // a device, a pipe: no page
			}
			// Followed only within the directory: os.Root refuses a
			// link that leads out, and a loop.
			fi, err := r.dir.Root.Stat(filepath.FromSlash(file))
			switch {
			case err != nil:
				return r.warn(file, false, fmt.Errorf("symbolic link not followed: %w", linkError(err)))
			case !fi.Mode().IsRegular():
				return nil
			}
		}
		if notAPage(file) {
			r.leftOut++
			return nil
		}
		return r.page(file, gitDates)
	})
	if err != nil {
		return err
	}
	return r.finish()
}

// linkError says why a symbolic link could not be followed.
func linkError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
		return errors.New("it leads out of the directory")
	}
	return err
}

// isPageName reports whether a file name is an HTML page's: .html or
// .htm, in any case.
func isPageName(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".html" || ext == ".htm"
}

// verification matches the names of the files search engines have site
// owners put at the top of a site to prove they own it: no pages.
var verification = regexp.MustCompile(`^(google[0-9a-f]{6,}|yandex_[0-9a-f]{6,})\.html?$`)

// notAPage reports whether a file at the top of the directory is an HTML
// file that is no page to list: the error page hosts serve for a missing
// URL (404.html), and search engines' verification files.
func notAPage(file string) bool {
	if strings.Contains(file, "/") {
		return false
	}
	name := strings.ToLower(file)
	return name == "404.html" || name == "404.htm" || verification.MatchString(name)
}

// warn reports a problem of the page at file: a warning (an error in
// strict mode, which stops the walk).
func (r *SiteReader) warn(file string, skipped bool, err error) error {
	o := r.opts
	o.Source = r.name(file)
	return o.Warning(0, 0, skipped, err)
}

// name names the page at file in messages: the directory as it was named,
// joined with the page's path in it.
func (r *SiteReader) name(file string) string {
	return filepath.Join(r.dir.Path, filepath.FromSlash(file))
}

// page reads the page at file and keeps it, unless it asks not to be
// indexed.
func (r *SiteReader) page(file string, gitDates map[string]time.Time) error {
	loc, err := pageLoc(r.o, file)
	if err != nil {
		return r.warn(file, true, err)
	}
	h, modTime, err := r.parse(file)
	if err != nil {
		return err
	}
	if h == nil {
		return nil // skipped, with a warning
	}
	if h.noindex {
		r.leftOut++
		return nil
	}
	p := &sitePage{file: file, loc: loc}
	base, _ := url.Parse(loc)
	if h.base != "" {
		// A <base href> changes what relative URLs of the page resolve
		// against.
		if b, err := formats.ParseLoc(h.base, base); err == nil {
			base, _ = url.Parse(b)
		}
	}
	if h.canonical != "" {
		c, err := formats.ParseLoc(h.canonical, base)
		switch {
		case err != nil:
			if werr := r.warn(file, false, fmt.Errorf("its canonical link ignored: %w", err)); werr != nil {
				return werr
			}
		case stripFragment(c) != loc:
			p.canonical = stripFragment(c)
		}
	}
	for _, a := range h.alternates {
		href, err := formats.ParseLoc(a.href, base)
		if err == nil && !vocab.IsLanguage(a.hreflang) {
			err = errors.New("not a language tag (en, en-GB, x-default)")
		}
		if err != nil {
			if werr := r.warn(file, false, fmt.Errorf("hreflang %q alternate ignored: %w", a.hreflang, err)); werr != nil {
				return werr
			}
			continue
		}
		p.alternates = append(p.alternates, formats.Alternate{Hreflang: a.hreflang, Href: href})
	}
	if r.o.Images {
		p.images = pageImages(h.images, base)
	}
	switch r.o.LastMod {
	case LastModMtime:
		p.lastmod = formats.NewLastMod(modTime.UTC().Truncate(time.Second), formats.PrecisionSecond)
	case LastModGit:
		if t, ok := gitDates[file]; ok {
			p.lastmod = formats.NewLastMod(t, formats.PrecisionSecond)
			break
		}
		fallthrough
	default:
		if p.lastmod, err = r.pageDate(file, h); err != nil {
			return err
		}
	}
	r.pages = append(r.pages, p)
	return nil
}

// parse reads the head of the page at file (and its body's images, with
// DirOptions.Images) and returns it with the file's modification time; a
// nil head for a page skipped with a warning.
func (r *SiteReader) parse(file string) (*head, time.Time, error) {
	f, err := r.dir.Root.Open(filepath.FromSlash(file))
	if err != nil {
		return nil, time.Time{}, r.warn(file, true, err)
	}
	defer f.Close()
	var modTime time.Time
	if fi, err := f.Stat(); err == nil {
		modTime = fi.ModTime()
	}
	o := r.opts
	o.Source = r.name(file)
	src, err := source.Open(f, source.Options{MaxBytes: r.maxPage, Text: textenc.Options{Charset: declaredCharset(f), Report: func(p *textenc.Problem) {
		o.Note(p.Line, p.Column, p.Err)
	}}})
	if err != nil {
		return nil, modTime, r.warn(file, true, err)
	}
	if src.Binary() {
		return nil, modTime, r.warn(file, true, errors.New("binary data, not an HTML page: skipped"))
	}
	h, err := parseHead(src, r.o.Images)
	switch {
	case err == nil:
	case errors.Is(err, errTokenTooLong), errors.Is(err, formats.ErrTooLarge):
		if werr := r.warn(file, false, err); werr != nil {
			return nil, modTime, werr
		}
	default:
		return nil, modTime, r.warn(file, true, err)
	}
	return &h, modTime, nil
}

// declaredCharset returns the charset a page declares in its first 1024
// bytes (<meta charset>, or the Content-Type of <meta http-equiv>), found
// as browsers find it before they parse the page: the page is decoded
// from it (Shift_JIS, ISO-8859-15), so that its URLs and dates are read
// as written. It returns "" for none, and for UTF-8 and windows-1252,
// what a page is read as without a declaration.
func declaredCharset(f io.ReaderAt) string {
	head := make([]byte, 1024)
	n, _ := f.ReadAt(head, 0)
	_, name, _ := charset.DetermineEncoding(head[:n], "text/html")
	if name == "utf-8" || name == "windows-1252" {
		return ""
	}
	return name
}

// pageDate returns the page's own date: the first of its meta dates, in
// the order of dateNames, that is a date.
func (r *SiteReader) pageDate(file string, h *head) (formats.LastMod, error) {
	for kind, v := range h.dates {
		if v == "" {
			continue
		}
		l, err := formats.ParseLastMod(v)
		if err == nil {
			return l, nil
		}
		if d, ok := vocab.DateOfZoneless(v); ok {
			return d, r.warn(file, false, fmt.Errorf("%s %q has no time zone: its date kept", dateNames[kind], v))
		}
		if werr := r.warn(file, false, fmt.Errorf("%s ignored: %w", dateNames[kind], err)); werr != nil {
			return formats.LastMod{}, werr
		}
	}
	return formats.LastMod{}, nil
}

// pageImages returns the images of a page, resolved against its base,
// once each, at most formats.MaxImages; what is not an http(s) URL (a
// data: URI) is no image of a sitemap.
func pageImages(srcs []string, base *url.URL) []formats.Image {
	var images []formats.Image
	seen := map[string]bool{}
	for _, s := range srcs {
		loc, err := formats.ParseLoc(s, base)
		if err != nil || seen[loc] {
			continue
		}
		seen[loc] = true
		images = append(images, formats.Image{Loc: loc})
		if len(images) == formats.MaxImages {
			break
		}
	}
	return images
}

// pageLoc returns the URL of the page at file: the site's URL plus its
// path, percent-encoded once; index.html is its directory's URL, and
// CleanURLs drops the .html of other names.
func pageLoc(o DirOptions, file string) (string, error) {
	dir, name := path.Split(file)
	lower := strings.ToLower(name)
	switch {
	case lower == "index.html" || lower == "index.htm":
		name = ""
	case o.CleanURLs:
		name = name[:len(name)-len(path.Ext(name))]
	}
	// Joined as text, not resolved: a first segment with a colon stays a
	// path.
	return formats.ParseLoc(o.Site.String()+(&url.URL{Path: dir + name}).EscapedPath(), nil)
}

// stripFragment returns loc without its fragment.
func stripFragment(loc string) string {
	loc, _, _ = strings.Cut(loc, "#")
	return loc
}

// finish leaves out the pages whose canonical URL is another, warning
// about those whose canonical URL is no page read, and gives every page
// of a language group the alternates of the whole group; the pages are
// then in the order of their URLs.
func (r *SiteReader) finish() error {
	listed := make(map[string]bool, len(r.pages))
	for _, p := range r.pages {
		if p.canonical == "" {
			listed[p.loc] = true
		}
	}
	kept := r.pages[:0]
	for _, p := range r.pages {
		if p.canonical == "" {
			kept = append(kept, p)
			continue
		}
		r.leftOut++
		if !listed[p.canonical] {
			err := fmt.Errorf("left out: its canonical URL %s is no page read from this directory (is the site's URL right, and does the site serve clean URLs?)", p.canonical)
			if werr := r.warn(p.file, false, err); werr != nil {
				return werr
			}
		}
	}
	clear(r.pages[len(kept):])
	r.pages = kept
	slices.SortStableFunc(r.pages, func(a, b *sitePage) int { return strings.Compare(a.loc, b.loc) })
	reciprocal(r.pages)
	return nil
}
