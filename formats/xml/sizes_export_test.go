package xml

import "github.com/feed2sitemap/feed2sitemap/formats"

// The sizes of what an Encoder renders, for the tests that check that a
// document a Writer writes is exactly its header, its entries and its
// footer, as rendered: what package output measures is what it writes.

// HeaderSize returns the length of the header of a document written with o.
func HeaderSize(o formats.WriteOptions) int { return len(NewEncoder(o).AppendHeader(nil)) }

// FooterSize returns the length of the footer of a document written with o.
func FooterSize(o formats.WriteOptions) int { return len(NewEncoder(o).AppendFooter(nil)) }

// EntrySizeWith returns the length of e rendered in a document of its kind
// written with o. It panics for an entry the Encoder refuses.
func EntrySizeWith(e formats.Entry, o formats.WriteOptions) int {
	o.Index = e.Kind == formats.KindSitemap
	b, err := NewEncoder(o).AppendEntry(nil, &e)
	if err != nil {
		panic(err)
	}
	return len(b)
}

// EntrySize returns the length of e rendered in a document that declares
// every extension's namespace.
func EntrySize(e formats.Entry) int {
	return EntrySizeWith(e, formats.WriteOptions{Uses: formats.ExtAll})
}
