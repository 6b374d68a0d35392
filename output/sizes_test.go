package output_test

import (
	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
)

// frameSize returns the size of the header and footer of an XML urlset
// written with o, as its Encoder renders them.
func frameSize(o formats.WriteOptions) int {
	enc := xml.NewEncoder(o)
	return len(enc.AppendFooter(enc.AppendHeader(nil)))
}

// entrySize returns the size of e in an XML urlset that declares every
// extension's namespace, as its Encoder renders it.
func entrySize(e formats.Entry) int {
	b, err := xml.NewEncoder(formats.WriteOptions{Uses: formats.ExtAll}).AppendEntry(nil, &e)
	if err != nil {
		panic(err)
	}
	return len(b)
}
