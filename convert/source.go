package convert

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/internal/strblock"
)

// ReadOptions configure how Open reads the inputs, and Follow the
// children of their indexes.
type ReadOptions struct {
	// From names the format of the inputs; empty detects it per input.
	// The children of a followed index are always recognized by content.
	From string
	// Strict reads strictly (formats.ReadOptions.Strict): what validate
	// rates as an error ends the reading; a feed's warnings stay warnings,
	// as validate's feed-item (feed2sitemap convert --strict fails on
	// them through validate's rules).
	Strict bool
	// NewsName, when set, makes the feed items of the last two days news
	// entries of this publication (see formats.ReadOptions.NewsName).
	NewsName string
	// Splits says the output is not held to one file's limits: split at
	// them (a set of parts and an index), or a plain list with none. An
	// input holding more entries than one file may is then no news, and
	// is not warned about (Strict still fails).
	Splits bool
	// MaxURLsTotal stops the reading with an error wrapping
	// ErrTooManyURLs once more entries than this were read over all
	// inputs; 0 means no cap.
	MaxURLsTotal int
	// SkipTexts says the output holds no titles and summaries, so that
	// the readers need not make them (see formats.ReadOptions.SkipTexts).
	SkipTexts bool
}

// Source is the first step: it gives the entries of its inputs, input
// after input, each from start to end, with the input each came from
// (Item.Input, the index of its account in Inputs), keeping the account
// of what each input gave. Follow reads it with the children of its
// indexes in their place.
type Source struct {
	opts ReadOptions
	obs  Observer
	// mu guards the list of accounts, which grows as children are read
	// while another goroutine (Run's deduplicating one) updates earlier
	// ones.
	mu      sync.RWMutex
	list    []*InputStats
	tops    []*frame // the top-level inputs, opened
	next    int      // the next of tops to read
	top     *frame   // the top-level input being read
	read    int
	closers []io.Closer
	// used is the union of the kinds of extension data of the entries
	// read (a formats.ExtensionSet), read by the writing goroutine.
	used atomic.Uint32
	// head are the document-level elements the output takes (see
	// Stats.HeadDropped), once taken at the first entry; seen counts those
	// of every input read to its end. headMu guards them: the writing
	// goroutine reads what the reading one set.
	headMu    sync.Mutex
	head      []string
	headTaken bool
	seen      int
	// inStep reads every input on the goroutine that reads the Source,
	// none ahead (see readAhead): for tests, to compare.
	inStep bool
}

// frame is an input being read, an index or a sitemap; when following, the
// inputs being read form a stack, each frame a child of the one below.
type frame struct {
	r       formats.Reader
	account int         // its account in Source.list
	st      *InputStats // that account, which never moves
	depth   int         // 1 for a top-level input
	in      Input       // the input, handed to OpenChild as the parent
	key     string      // its key in the visited set
	closer  io.Closer
	route   *warnRoute   // where its reader's warnings go
	parse   *parsedAhead // its reader run ahead, once it is being read (see readAhead)
	rel     *released    // a top-level input released until its turn (see release)

	ahead    []*item // entries read ahead: children being opened, and an entry after them
	end      error   // io.EOF or the error that ended the reader, once read ahead
	children int     // children listed
}

// Open opens every input, in order, and recognizes its format (or reads it
// as ReadOptions.From), so that an input that is not a sitemap, feed, URL
// list or robots.txt fails before any entry is read. obs, when not nil, is
// told of the warnings and the progress of the reading. When an input
// cannot be opened Open returns its error with a Source that holds the
// accounts so far; Close the Source in every case. A local input that
// waits for its turn holds nothing meanwhile (see Input.Path), so that
// the memory taken does not grow with the number of inputs.
func Open(inputs []Input, opts ReadOptions, obs Observer) (*Source, error) {
	s := &Source{opts: opts, obs: observer(obs)}
	for _, in := range inputs {
		if err := s.open(in); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Inputs returns a copy of the accounts of the inputs read so far: the
// top-level inputs, in order, each followed by the children read in its
// place when following. They hold what the reading saw (Format, Read,
// Skipped, Warnings, Children, Err); Run adds what its later steps left
// out (Filtered, Duplicates).
func (s *Source) Inputs() []InputStats {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]InputStats, len(s.list))
	for i, st := range s.list {
		out[i] = *st
	}
	return out
}

// Uses returns the extensions the entries read so far use.
func (s *Source) Uses() formats.ExtensionSet { return formats.ExtensionSet(s.used.Load()) }

// Next returns the next entry.
func (s *Source) Next() (formats.Entry, error) {
	it, err := s.NextItem()
	return it.Entry, err
}

// NextItem returns the next entry with its input, moving on to the next
// input at the end of one.
func (s *Source) NextItem() (Item, error) {
	var it Item
	err := s.nextInto(&it)
	return it, err
}

func (s *Source) nextInto(it *Item) error {
	for {
		f := s.top
		if f == nil {
			var err error
			if f, err = s.nextTop(); f == nil {
				return err
			}
		}
		err := f.next(&it.Entry)
		if err == nil {
			it.Input = f.account
			it.strs, it.batch = f.strings()
			it.forgetKey()
			f.normalForm(it)
			return s.count(f, &it.Entry)
		}
		if err = s.end(f, err); err != nil {
			return err
		}
		s.top = nil
	}
}

// nextTop moves on to the next top-level input, opening it again if it
// was released; nil with io.EOF after the last, or with the error of its
// opening.
func (s *Source) nextTop() (*frame, error) {
	if s.next == len(s.tops) {
		return nil, io.EOF
	}
	f := s.tops[s.next]
	s.next++
	if f.rel != nil {
		if err := s.reopen(f); err != nil {
			return nil, err
		}
	}
	s.top = f
	s.readAhead(f)
	return f, nil
}

// readAhead starts running f's reader ahead of its reading, when it may.
func (s *Source) readAhead(f *frame) {
	if f.parse == nil && f.route.mayRunAhead && !s.inStep {
		f.parse = readAhead(f.r, f.route)
		f.r = f.parse
	}
}

// reader returns f's reader itself, once read to its end.
func (f *frame) reader() formats.Reader {
	if f.parse != nil {
		return f.parse.ended()
	}
	return f.r
}

// next reads f's next entry into *e: in place from its batch when f's
// reader runs ahead (the entry is copied once), else as the reader gives
// it. What *e holds on an error is not to be used.
func (f *frame) next(e *formats.Entry) (err error) {
	if p, ok := f.r.(*parsedAhead); ok {
		return p.nextInto(e)
	}
	*e, err = f.r.Next()
	return err
}

// strings returns the recycler of the strings of the entry f's reader gave
// last and the batch it came in, when its reader runs ahead and cuts its
// strings from blocks it uses again (see stringsDone); nil otherwise.
func (f *frame) strings() (*strblock.Recycler, uint64) {
	if f.parse == nil {
		return nil, 0
	}
	return f.parse.strings()
}

// stopReading stops f's reader running ahead, if it does, and waits for
// it.
func (f *frame) stopReading() {
	if f.parse != nil {
		f.parse.close()
	}
}

// entry counts the entry e read from f and returns it with its input.
func (s *Source) entry(f *frame, e formats.Entry) (Item, error) {
	if err := s.count(f, &e); err != nil {
		return Item{}, err
	}
	it := Item{Entry: e, Input: f.account} // not tagged (strings): e may have been read ahead of the last
	f.normalForm(&it)
	return it, nil
}

// normalForms is an observer of an input's reading
// (formats.ReadOptions.Observer) that computes the normal form of each
// loc it reads under the always-on rules alone, as package validate's
// checks do: NormalForm returns (*normalize.Options)(nil).URLScope(loc)
// when it computed them for loc last (ok false otherwise), so that
// Rewrite need not compute them again.
type normalForms interface {
	NormalForm(loc string) (key string, scope int, ok bool)
}

// normalForm gives the item it read from f its normal form under the
// always-on rules (Item.key with a nil norm), when the observer of f's
// reading computed it (on the goroutine that parses ahead, when f's
// reader runs so, which keeps it with the entry), or the reader itself
// found the loc normal as it read it (a text list's, parsed ahead: see
// normalScoper).
func (f *frame) normalForm(it *Item) {
	if f.parse != nil && f.parse.scope >= 0 {
		// The reader found the loc normal as it read it.
		it.key, it.scope = it.Entry.Loc, int(f.parse.scope)
		return
	}
	forms := f.route.forms
	if forms == nil {
		return
	}
	if f.parse != nil {
		forms = f.parse
	}
	if key, scope, ok := forms.NormalForm(it.Entry.Loc); ok {
		it.key, it.scope = key, scope
	}
}

// count counts the entry e read from f; an error ends the reading.
func (s *Source) count(f *frame, e *formats.Entry) error {
	st := f.st
	if st.Read++; st.Read == formats.MaxURLs+1 {
		if err := s.tooMany(st); err != nil {
			return err
		}
	}
	if e.Ext != nil {
		s.used.Or(uint32(e.Ext.Kinds()))
	}
	if s.read++; s.read%ProgressEvery == 0 {
		s.obs.Progressed(s.read)
	}
	if s.opts.MaxURLsTotal > 0 && s.read > s.opts.MaxURLsTotal {
		return fmt.Errorf("%w: more than %d read over all inputs (the cap on the total), at %s", ErrTooManyURLs, s.opts.MaxURLsTotal, st.Name)
	}
	return nil
}

// end ends the reading of f, whose reader returned err: nil when the
// reading goes on (the input ended, or a top-level input was damaged
// after some entries, in lenient mode, or a child's failure was
// recorded), else the error that ends it. It records in f's account the
// entries its reader left out (formats.ExtraReader).
func (s *Source) end(f *frame, err error) error {
	r := f.reader()
	if lo, ok := r.(formats.ExtraReader); ok {
		f.st.LeftOut = lo.LeftOut()
	}
	if err != io.EOF {
		if err = s.damaged(f.st, err); err != nil {
			if f.depth == 1 || s.opts.Strict || errors.Is(err, ErrTooManyURLs) {
				return err
			}
			// A child whose reading failed: recorded, and the others
			// are read.
			f.st.Err = err
		}
	}
	if h := headOf(r); len(h) > 0 {
		s.headMu.Lock()
		s.seen += len(h)
		s.headMu.Unlock()
	}
	if f.closer != nil {
		// Once its goroutine has ended: closing ends the check of an
		// observed input, whose last reports are then made at once.
		f.stopReading()
		f.closer.Close()
		f.closer = nil
	}
	// Its reader, and the buffers of its opening, go: the frame of a
	// top-level input stays listed to the end. The buffers serve the
	// inputs opened after it, unless the reading was observed (its
	// observer may still hold what it was told).
	if f.route != nil && !f.route.observed {
		formats.Release(r)
	}
	f.r, f.parse, f.route = nil, nil, nil
	return nil
}

// headOf returns the document-level elements r read so far, if it keeps
// them.
func headOf(r formats.Reader) []string {
	if h, ok := r.(formats.ExtraReader); ok {
		return h.Head()
	}
	return nil
}

// takeHead takes, at the first entry, the document-level elements of the
// top-level input being read, read so far.
func (s *Source) takeHead() {
	s.headMu.Lock()
	defer s.headMu.Unlock()
	if !s.headTaken {
		s.head, s.headTaken = slices.Clone(headOf(s.top.r)), true
	}
}

// takenHead returns the document-level elements the output takes.
func (s *Source) takenHead() []string {
	s.headMu.Lock()
	defer s.headMu.Unlock()
	return s.head
}

// headSeen returns how many document-level elements the inputs read to
// their end held.
func (s *Source) headSeen() int {
	s.headMu.Lock()
	defer s.headMu.Unlock()
	return s.seen
}

// account returns the account of input i.
func (s *Source) account(i int) *InputStats {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.list[i]
}

// addAccount starts the account of an input and returns its index.
func (s *Source) addAccount(name string, depth, parent int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list = append(s.list, &InputStats{Name: name, Depth: depth, Parent: parent})
	return len(s.list) - 1
}

// open opens a top-level input; it fails the run when it cannot be.
func (s *Source) open(in Input) error {
	i := s.addAccount(in.Name, 0, 0)
	rc, err := in.Open()
	if err != nil {
		return err
	}
	r, route, err := s.reader(i, in, rc, s.opts.From)
	if err != nil {
		s.closers = append(s.closers, rc)
		return err
	}
	st := s.account(i)
	f := &frame{r: r, account: i, st: st, depth: 1, in: in, key: inputKey(in, rc), route: route}
	if !s.release(f, rc, st.Warnings > 0) {
		s.closers = append(s.closers, rc)
	}
	s.tops = append(s.tops, f)
	return nil
}

// reader recognizes the content rc of input in, whose account is i, or
// reads it as the format from names, and returns a reader of its entries
// with the route of its warnings.
func (s *Source) reader(i int, in Input, rc io.Reader, from string) (formats.Reader, *warnRoute, error) {
	st := s.account(i)
	route := &warnRoute{mayRunAhead: !s.opts.Strict, deliver: func(pe *formats.ParseError) {
		st.Warnings++
		if pe.Skipped {
			st.Skipped++
		}
		s.obs.Warning(pe)
	}}
	ro := formats.ReadOptions{
		Source:    in.Name,
		Strict:    s.opts.Strict,
		NewsName:  s.opts.NewsName,
		SkipTexts: s.opts.SkipTexts,
		Warn:      route.warn,
	}
	if l, ok := rc.(Located); ok {
		ro.Base = l.Location()
	}
	if o, ok := rc.(interface{ ReadObserver() any }); ok {
		// The content asks for its reading to be observed, by a check
		// that shares it (feed2sitemap convert --strict). Its reader runs
		// ahead only when the check can run behind it (see readcheck.go),
		// strict or not: what the check reports, what the reader warns
		// and the error that ends a strict reading come in their order;
		// the normal forms the check computes go with the entries (see
		// normalForm).
		ro.Observer = o.ReadObserver()
		route.observed = ro.Observer != nil
		if ro.Observer != nil {
			route.check, route.mayRunAhead = rc.(deferredCheck)
			route.forms, _ = ro.Observer.(normalForms)
		}
	}
	r, f, err := formats.Open(rc, formats.OpenOptions{ReadOptions: ro, From: from, MaxBytes: in.MaxBytes})
	if err != nil {
		return nil, nil, err
	}
	switch st.Format {
	case "":
		st.Format = f.Name
	case f.Name:
		// Opened again (see reopen): the account is not written, as the
		// goroutine that runs the conversion may be reading it.
	default:
		return nil, nil, fmt.Errorf("%s: %w (read as %s, then as %s)", in.Name, errInputChanged, st.Format, f.Name)
	}
	return r, route, nil
}

// inputKey identifies an input in the visited set when following: its
// location after redirects, or the absolute path of a local file, or its
// name.
func inputKey(in Input, rc io.Reader) string {
	if l, ok := rc.(Located); ok && l.Location() != nil {
		if loc, err := formats.ParseLoc(l.Location().String(), nil); err == nil {
			return loc
		}
		return l.Location().String()
	}
	if in.Path != "" {
		if abs, err := filepath.Abs(in.Path); err == nil {
			return "file:" + abs
		}
		return "file:" + in.Path
	}
	return in.Name
}

// failed returns an error wrapping ErrInputsFailed when an input failed,
// else nil.
func (s *Source) failed() error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var n int
	var first *InputStats
	for _, st := range s.list {
		if st.Err != nil {
			if n++; first == nil {
				first = st
			}
		}
	}
	switch n {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w: %v", ErrInputsFailed, first.Err)
	}
	return fmt.Errorf("%w: %d inputs could not be read, the first: %v", ErrInputsFailed, n, first.Err)
}

// warn reports a warning about the input of account st: an error with
// Strict.
func (s *Source) warn(st *InputStats, err error) error {
	pe := &formats.ParseError{Source: st.Name, Err: err}
	if s.opts.Strict {
		return pe
	}
	st.Warnings++
	s.obs.Warning(pe)
	return nil
}

// tooMany reports an input holding more entries than the protocol allows
// in one file: a warning, or in strict mode the reading's error.
func (s *Source) tooMany(st *InputStats) error {
	err := reason.Of(formats.ErrTooManyURLs)
	if s.opts.Splits && !s.opts.Strict {
		return nil // the output holds them in parts: no news
	}
	return s.warn(st, err)
}

// damaged decides what an error part-way through an input means: when a
// top-level input is damaged (formats.ErrDamaged) after some entries, in
// lenient mode, a warning, and the entries read are kept; otherwise the
// reading's error, or for a child sitemap (cut short on its way, most
// often) its failure (see Follower.failed).
func (s *Source) damaged(st *InputStats, err error) error {
	var pe *formats.ParseError
	if s.opts.Strict || st.Read == 0 || st.Depth > 0 || !errors.Is(err, formats.ErrDamaged) || !errors.As(err, &pe) {
		return err
	}
	st.Warnings++
	s.obs.Warning(&formats.ParseError{Source: pe.Source, Line: pe.Line, Column: pe.Column,
		Err: fmt.Errorf("%w; kept the %d entries read before it", pe.Err, st.Read)})
	return nil
}

// Close stops the reading and closes the inputs.
func (s *Source) Close() error {
	for _, f := range s.tops {
		f.stopReading()
		if f.closer != nil {
			f.closer.Close()
		}
	}
	for _, c := range s.closers {
		c.Close()
	}
	return nil
}
