package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/textenc"
	"github.com/feed2sitemap/feed2sitemap/validate"
)

// strictCheck checks every input a strict conversion reads, children
// included, with the rules of feed2sitemap validate, as the converter
// reads it: the XML rules are given the tokens of the converter's XML
// reader (validate.Observation), and the bytes read are handed to the
// rules of the bytes (and of the other formats). Every finding fails the
// conversion, warnings included; so does every warning about the output
// (output warns).
type strictCheck struct {
	mu       sync.Mutex
	errors   []validate.Finding
	warnings []validate.Finding
	open     []*checkedInput // the inputs opened, whose checks finish reports
	// held are the readers' warnings, printed at the end (print) unless
	// a finding says the same; warn prints them.
	held []*formats.ParseError
	warn func(*formats.ParseError)
	// broken counts every finding, kept or not: errors and warnings keep
	// at most strictKept of them, so that a huge input with a finding on
	// every line holds bounded memory.
	broken int
	// output are the warnings about the output: what its writers said,
	// and what the command says of the whole (outputWarning).
	output []string
}

// hold returns the handler of the readers' warnings, which keeps them
// for print instead of handing them to warn: the reader's warning about
// an item with no link is validate's feed-item finding too, and is
// printed once, as the finding, which names the rule.
func (s *strictCheck) hold(warn func(*formats.ParseError)) func(*formats.ParseError) {
	s.warn = warn
	return func(pe *formats.ParseError) {
		s.mu.Lock()
		if len(s.held) < strictKept {
			s.held = append(s.held, pe)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		warn(pe) // past the cap, said at once (a finding may say it again)
	}
}

// strictKept is how many findings, and how many readers' warnings, a
// strict conversion keeps to print at its end; the others are counted
// (findings) or printed as they come (warnings).
const strictKept = 10_000

// print reports, once the run is over with err, the readers' warnings
// (through the warn given to hold) and then the findings of the rules.
// What a finding says at the place of a reader's warning, or in its words
// (a warning with no line: a JSON Feed item's), or at the place of the
// reader's error, is said once: the warning is left out for the finding,
// and the finding for the error, which the run returns.
func (s *strictCheck) print(rep *reporter, err error) {
	type place struct {
		source       string
		line, column int
	}
	type words struct{ source, message string }
	s.mu.Lock()
	findings := append(s.warnings[:len(s.warnings):len(s.warnings)], s.errors...)
	held := s.held
	s.mu.Unlock()
	found := make(map[place]bool, len(findings))
	said := make(map[words]bool, len(findings))
	for _, f := range findings {
		if f.Line > 0 {
			found[place{f.Source, f.Line, f.Column}] = true
		}
		said[words{f.Source, f.Message}] = true
	}
	for _, pe := range held {
		if found[place{pe.Source, pe.Line, pe.Column}] || pe.Err != nil && said[words{pe.Source, pe.Err.Error()}] {
			continue
		}
		if s.warn != nil {
			s.warn(pe)
		}
	}
	var pe *formats.ParseError
	errors.As(err, &pe)
	for _, f := range findings {
		if pe != nil && f.Source == pe.Source && f.Line == pe.Line && f.Column == pe.Column {
			continue // the reader's error says it already
		}
		rep.finding(f)
	}
	if more := s.broken - len(findings); more > 0 {
		rep.notice(fmt.Sprintf("%d more %s of the rules not shown (at most %d are kept)", more, plural(more, "finding", "findings"), strictKept))
	}
}

// warns returns say, which also records each warning about the output.
func (s *strictCheck) warns(say func(string)) func(string) {
	return func(msg string) {
		s.outputWarning(msg)
		say(msg)
	}
}

// outputWarning records a warning about the output.
func (s *strictCheck) outputWarning(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.output = append(s.output, msg)
}

// outputErr returns the error of a conversion whose output was written
// with warnings: how many, and the first. Nothing is then committed.
func (s *strictCheck) outputErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.output) == 0 {
		return nil
	}
	return fmt.Errorf("--strict: the output has %d %s, the first: %s; nothing was written",
		len(s.output), plural(len(s.output), "warning", "warnings"), s.output[0])
}

// wrap returns in, whose content is checked as it is read.
func (s *strictCheck) wrap(in convert.Input) convert.Input {
	open := in.Open
	in.Open = func() (io.ReadCloser, error) {
		rc, err := open()
		if err != nil {
			return nil, err
		}
		if d, ok := rc.(*formats.Dir); ok {
			return d, nil // a directory's pages: its reader is strict itself
		}
		src := validate.Source{Name: in.Name}
		if l, ok := rc.(convert.Located); ok {
			src.URL = l.Location()
		}
		if c, ok := rc.(contentCharset); ok {
			src.Charset = c.ContentCharset()
		}
		// One validator per input: children are read concurrently, and
		// pages merged across inputs are no duplicates here.
		v := validate.New(validate.Options{NoFollow: true, Independent: true})
		obs := v.Observe(src, s.report)
		c := &checkedInput{Reader: io.TeeReader(rc, obs), rc: rc, check: obs, report: s.report}
		s.mu.Lock()
		s.open = append(s.open, c)
		s.mu.Unlock()
		return c, nil
	}
	return in
}

// wrapChildren makes the children the conversion opens checked too.
func (s *strictCheck) wrapChildren(opts *convert.Options) {
	open := opts.Follow.OpenChild
	if open == nil {
		open = convert.LocalChild
	}
	opts.Follow.OpenChild = func(ctx context.Context, parent convert.Input, loc string) (convert.Input, error) {
		in, err := open(ctx, parent, loc)
		if err != nil {
			return in, err
		}
		return s.wrap(in), nil
	}
}

func (s *strictCheck) report(f validate.Finding) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broken++
	switch {
	case len(s.errors)+len(s.warnings) >= strictKept:
		if f.Severity() == validate.Error && len(s.errors) == 0 {
			s.errors = append(s.errors, f) // the first error is said first
		}
	case f.Severity() == validate.Error:
		s.errors = append(s.errors, f)
	default:
		s.warnings = append(s.warnings, f)
	}
}

// finish ends the checks of every input opened, all of which has been
// read, and returns err.
func (s *strictCheck) finish() error {
	s.mu.Lock()
	open := s.open
	s.mu.Unlock()
	for _, c := range open {
		// A check that could not read its input has the reader's own
		// error to tell, which the conversion reports.
		c.endCheck()
	}
	return s.err()
}

// err returns the error of a conversion whose inputs broke rules, of
// errors or of warnings: how many, and the first (an error's, if any).
func (s *strictCheck) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	all := append(s.errors[:len(s.errors):len(s.errors)], s.warnings...)
	if len(all) == 0 {
		return nil
	}
	return fmt.Errorf("--strict: the inputs break %d %s of feed2sitemap validate (warnings included), the first: %v",
		s.broken, plural(s.broken, "rule", "rules"), all[0])
}

// checkedInput is the content of an input read through the rule engine.
type checkedInput struct {
	io.Reader
	rc     io.ReadCloser
	check  *validate.Observation // closing again returns the first Close's error
	report func(validate.Finding)
}

// DeferCheck has the XML rules check what the conversion's reader gives
// them behind the reader, on a goroutine of the conversion's, instead of
// in step with it (validate.Observation.Defer): their findings are made
// through route, which makes each when the conversion reaches the entry
// it came before, so that a conversion that stops early reports what it
// read, as when checked in step.
func (c *checkedInput) DeferCheck(route func(report func())) interface {
	Mark()
	Bytes() int
	Cut() func(onMark func())
} {
	report := c.report
	return c.check.Defer(func(f validate.Finding) { route(func() { report(f) }) })
}

// ReadObserver returns the observer of the input's XML reader: the rules
// of validate, which share the converter's reading.
func (c *checkedInput) ReadObserver() any { return c.check.XML() }

// endCheck ends the check, once what was read has been checked, and
// returns the check's error: the input could not be read through.
func (c *checkedInput) endCheck() error { return c.check.Close() }

// Close ends the check and closes the input.
func (c *checkedInput) Close() error {
	c.endCheck()
	return c.rc.Close()
}

// TextShared gives the conversion's decoding of the input what the check
// of its bytes shares with it (source.SharedReader): the text either
// finds valid is checked once.
func (c *checkedInput) TextShared() *textenc.Shared { return c.check.TextShared() }

// contentCharset is an input that knows the charset its transport gave
// (fetch's answers: the Content-Type's).
type contentCharset interface{ ContentCharset() string }

// ContentCharset passes on the charset the input's transport gave, so that
// the conversion decodes it as it would unchecked; "" when none.
func (c *checkedInput) ContentCharset() string {
	if cc, ok := c.rc.(contentCharset); ok {
		return cc.ContentCharset()
	}
	return ""
}

// Location passes on where the input came from, when it knows.
func (c *checkedInput) Location() *url.URL {
	if l, ok := c.rc.(convert.Located); ok {
		return l.Location()
	}
	return nil
}
