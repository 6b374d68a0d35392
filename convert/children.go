package convert

import (
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// ChildSelection chooses which children of a sitemap index (or of a
// robots.txt) are followed; the others are not opened at all (nor
// fetched).
type ChildSelection struct {
	// Include, when not empty, follows only the children whose loc's
	// path matches one of these globs; Exclude leaves out those whose
	// path matches one of them. The globs are those of
	// FilterOptions.Include, matched the same way.
	Include, Exclude []string
	// Since, when not zero, leaves out the children whose lastmod in
	// the index is before it; a child without lastmod is followed
	// (nothing says it did not change).
	Since time.Time
}

// Selector returns the FollowOptions.Select function of the selection:
// it returns why a child is left out (RuleInclude, RuleExclude or
// RuleSince), or "" to follow it. It returns nil when the selection
// leaves nothing out, and fails when a glob is malformed.
func (c ChildSelection) Selector() (func(formats.Entry) string, error) {
	f, err := (&FilterOptions{Include: c.Include, Exclude: c.Exclude}).compile()
	if err != nil {
		return nil, err
	}
	since := c.Since
	if f.keepsAll() && since.IsZero() {
		return nil, nil
	}
	return func(e formats.Entry) string {
		if rule := f.check(&e); rule != "" {
			return rule
		}
		if !since.IsZero() && !e.LastMod.IsZero() && e.LastMod.Time().Before(since) {
			return RuleSince
		}
		return ""
	}, nil
}
