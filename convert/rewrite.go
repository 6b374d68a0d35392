package convert

import (
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// RuleTooLong is the rule of a Drop of an entry whose loc grew over the
// protocol's length when rewritten to its normal form.
const RuleTooLong = "too-long"

// RewriteOptions say which form of its URL each entry is compared in and
// written in.
type RewriteOptions struct {
	// Normalize holds the optional URL rules: pages are the same when
	// their locs have the same normal form under them (nil: the always-on
	// rules of package normalize).
	Normalize *normalize.Options
	// Normal writes each loc in its normal form instead of as the input
	// gave it.
	Normal bool
	// Tidy, without Normal, writes each loc with only the rules that
	// never change the page it names (normalize.Safe: no fragment, no
	// default port, no dot segments, no empty query), the rest as the
	// input gave it.
	Tidy bool
}

// rewriter is the step that rewrites each loc.
type rewriter struct {
	src  into
	opts RewriteOptions
	obs  Observer
	zero bool // opts.Normalize applies the always-on rules alone
}

// Rewrite returns the entries of r with their locs rewritten as opts say.
// Each entry carries on its normal form under opts.Normalize, computed
// once here, to a Dedupe with the same rules. An entry whose loc grows
// over formats.MaxLocLength in its normal form is left out: obs, when not
// nil, is told of it (RuleTooLong).
func Rewrite(r formats.Reader, opts RewriteOptions, obs Observer) Stream {
	return &rewriter{src: intoOf(stream(r)), opts: opts, obs: observer(obs), zero: opts.Normalize.IsZero()}
}

func (w *rewriter) Next() (formats.Entry, error) {
	it, err := w.NextItem()
	return it.Entry, err
}

func (w *rewriter) NextItem() (Item, error) {
	var it Item
	err := w.nextInto(&it)
	return it, err
}

func (w *rewriter) nextInto(it *Item) error {
	for {
		if err := w.src.nextInto(it); err != nil {
			return err
		}
		loc := it.Entry.Loc
		switch {
		case w.opts.Normal:
			key, scope := w.keyScope(it)
			if len(key) > formats.MaxLocLength {
				w.obs.Dropped(Drop{From: it.Input, Loc: key, Rule: RuleTooLong})
				continue
			}
			// The normal form is normal: it is its own key. A scope
			// comes only with a loc that is its own normal form.
			it.Entry.Loc, it.key, it.norm, it.scope = key, key, w.opts.Normalize, scope
		case w.opts.Tidy:
			// A loc in normal form needs no tidying (the normal form
			// has no fragment, default port, dot segment nor empty
			// query): one computation serves both, for most locs.
			key, scope := w.keyScope(it)
			if key != loc {
				if tidy := normalize.Safe(loc); tidy != loc { // never longer
					it.Entry.Loc, key = tidy, w.opts.Normalize.URL(tidy)
				}
			}
			it.key, it.norm, it.scope = key, w.opts.Normalize, scope
		}
		return nil
	}
}

// keyScope returns the normal form of the item's loc under the rules and
// the length of its scope prefix (normalize's URLScope), taken from the
// item when the step that read it computed them under the same rules.
func (w *rewriter) keyScope(it *Item) (string, int) {
	if it.key != "" && it.norm == nil && w.zero {
		return it.key, it.scope
	}
	return w.opts.Normalize.URLScope(it.Entry.Loc)
}

// tooLong returns the warning about an entry left out because its loc,
// loc in its normal form, is too long.
func tooLong(loc string) error {
	return fmt.Errorf("%w once normalized: %.60s…", reason.Of(formats.ErrLocTooLong), loc)
}
