package main

import (
	"fmt"
	"time"

	"github.com/feed2sitemap/feed2sitemap/convert"
	"github.com/feed2sitemap/feed2sitemap/formats"
)

// childSelection returns which children of an index are followed, as
// --include-sitemaps, --exclude-sitemaps and --since (whose date is since)
// say: nil when all are.
func (c *convertCmd) childSelection(since time.Time) (func(formats.Entry) string, error) {
	sel, err := convert.ChildSelection{Include: c.ChildInclude, Exclude: c.ChildExclude, Since: since}.Selector()
	if err != nil {
		return nil, usageError{fmt.Errorf("--include-sitemaps/--exclude-sitemaps: %w", err)}
	}
	return sel, nil
}

// skippedChildren returns how many children of the index in was told not
// to follow.
func skippedChildren(in convert.InputStats) int {
	n := 0
	for _, v := range in.SkippedChildren {
		n += v
	}
	return n
}

// notFollowed returns how many children of all indexes were left out by
// the selection, and how many for each reason.
func notFollowed(s *convert.Stats) (int, map[string]int) {
	n, why := 0, map[string]int{}
	for _, in := range s.Inputs {
		for reason, k := range in.SkippedChildren {
			why[reason] += k
			n += k
		}
	}
	return n, why
}
