package validate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRememberedURLsBounded checks that the table of the duplicate-url and
// url-twins rules stops growing at Options.MaxRemembered: URLs past it are still
// compared with those remembered, counted as forgotten, and the tables'
// size (the run's memory) no longer grows with the input.
func TestRememberedURLsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range 100 {
		fmt.Fprintf(&b, "<url><loc>https://example.com/p%d</loc></url>\n", i)
	}
	// A duplicate of a remembered URL and of a forgotten one.
	b.WriteString("<url><loc>https://example.com/p1</loc></url>\n<url><loc>https://example.com/p90</loc></url>\n</urlset>\n")
	v := New(Options{MaxRemembered: 50})
	var dups []string
	err := v.Check(strings.NewReader(b.String()), Source{Name: "s.xml"}, func(f Finding) {
		if f.Rule.ID == ruleDuplicateURL.ID {
			dups = append(dups, f.Message)
		}
	})
	require.NoError(t, err)
	assert.Equal(t, 50, v.seen.n)      // one table serves both rules
	assert.Equal(t, 51, v.Forgotten()) // p50..p99 and the repeat of p90
	require.Len(t, dups, 1, "only the duplicate of a remembered URL is reported")
	assert.Contains(t, dups[0], "/p1 ")
}

// A Validator told how many URLs to expect makes its table that large at
// once, and remembering them does not grow it; it finds the same
// duplicates as one that grows. MaxRemembered bounds what it reserves.
func TestExpectedURLsReserveTheTable(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for i := range 20000 {
		fmt.Fprintf(&b, "<url><loc>https://example.com/p%d</loc></url>\n", i%15000)
	}
	b.WriteString("</urlset>\n")
	check := func(opts Options) (findings []string, size int) {
		v := New(opts)
		size = len(v.seen.slots)
		require.NoError(t, v.Check(strings.NewReader(b.String()), Source{Name: "s.xml"}, func(f Finding) {
			findings = append(findings, f.Message)
		}))
		assert.Equal(t, 15000, v.seen.n)
		if opts.Expect > 0 {
			assert.Equal(t, size, len(v.seen.slots), "the reserved table did not grow")
		}
		return findings, size
	}
	grown, size := check(Options{})
	assert.Zero(t, size, "no table before the first URL")
	reserved, size := check(Options{Expect: 15000})
	assert.Equal(t, grown, reserved)
	assert.Equal(t, 32768, size)
	_, size = check(Options{Expect: 1 << 30, MaxRemembered: 15000})
	assert.Equal(t, 32768, size, "at most MaxRemembered reserved")
}
