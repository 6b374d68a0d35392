package output

import (
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/internal/reason"
)

// split finishes the current part, checking that the set may have one more.
func (s *Set) split() error {
	switch {
	case s.kind == formats.KindSitemap:
		return fmt.Errorf("%w: the child sitemaps are more than one index may list (%d entries or %d bytes); an index never lists another index, so shard the inputs into several outputs",
			reason.Of(ErrIndexTooLarge), s.maxURLs, s.maxBytes)
	case s.base == nil:
		return reason.Of(ErrNeedBaseURL)
	case len(s.parts)+2 > maxParts:
		return fmt.Errorf("%w: more than %d parts of %d entries; an index never lists another index, so shard the inputs into several outputs, each with its own path and base URL",
			reason.Of(ErrTooManyParts), maxParts, s.maxURLs)
	}
	if err := s.finish(s.cur); err != nil {
		return err
	}
	return s.indexFits(1)
}

// indexFits checks that an index listing the parts so far, and extra more
// of the size of the last, stays within the limits.
func (s *Set) indexFits(extra int) error {
	if s.indexBytes+int64(extra*s.lastIndexEntry) > s.maxBytes {
		return fmt.Errorf("%w: an index of %d parts needs more than %d bytes; an index never lists another index, so shard the inputs into several outputs",
			reason.Of(ErrIndexTooLarge), len(s.parts)+extra, s.maxBytes)
	}
	return nil
}

// size returns the size of a part's document, uncompressed, as written
// (0 for a document written by a format's Writer, which is not measured).
func (s *Set) size(p *part) int64 {
	if s.newEnc == nil {
		return 0
	}
	return s.frame + p.bytes
}

// NeedBaseURLError is the error of a set that must be split and has no
// base URL. It matches ErrNeedBaseURL, and names the entry that did not
// fit, so that a caller can suggest a base URL on its site.
type NeedBaseURLError struct {
	Loc string // the loc of the first entry that needed another part
}

func (e *NeedBaseURLError) Error() string { return reason.Of(ErrNeedBaseURL).Error() }

// Is reports whether target is ErrNeedBaseURL.
func (e *NeedBaseURLError) Is(target error) bool { return target == ErrNeedBaseURL }
