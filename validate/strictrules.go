package validate

import (
	"fmt"

	"github.com/feed2sitemap/feed2sitemap/formats"
	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// validate's XML rules are those of the strict XML reader too: a program
// that links this package reads XML sitemaps in strict mode only when
// they break none of its rules of severity error.
func init() { sitemapxml.RegisterRules(strictRules) }

// strictRules returns the XML rules for a strict reader of the document
// opts names: the observer that checks it, and the first error found.
func strictRules(opts formats.ReadOptions) (sitemapxml.Observer, func() error) {
	var first *Finding
	v := New(Options{Now: opts.Now, NoFollow: true, Independent: true})
	d := v.newDoc(Source{Name: opts.Source, URL: opts.Base}, func(f Finding) {
		if first == nil && f.Severity() == Error {
			first = &f
		}
	})
	d.x = &xmlCheck{}
	return &ruleEvents{xmlEvents{d: d}}, func() error {
		if first == nil {
			return nil
		}
		return &formats.ParseError{Source: opts.Source, Line: first.Line, Column: first.Column,
			Err: fmt.Errorf("%s [%s]", first.Message, first.Rule.ID)}
	}
}

// ruleEvents are the XML rules of a document a strict reader reads.
type ruleEvents struct{ xmlEvents }

// End checks the end of the document, with the checks made at the end of
// every document.
func (e *ruleEvents) End(err error, line, col int) {
	e.xmlEvents.End(err, line, col)
	e.d.finish()
}
