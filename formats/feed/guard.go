package feed

import (
	"encoding/xml"
	"fmt"
)

// The limits on what the reader hands to gofeed. gofeed builds the whole
// feed in memory, copies every namespace declaration in scope for each
// element it reads and looks prefixes up through all of them, so a feed
// past these limits is refused whole, with an error naming the line and
// the limit, before gofeed sees it: then the time to read a feed is linear
// in its size, and its memory a bounded multiple of it. Every real feed is
// far within them.
const (
	// MaxSize is the largest feed the reader accepts, in bytes of UTF-8.
	// Feeds are parsed whole, so a larger input is refused with an error
	// rather than cut short.
	MaxSize = 64 << 20

	// MaxDepth is the deepest nesting of XML elements the reader accepts.
	MaxDepth = 10000

	// MaxNamespaces is how many namespace declarations (xmlns and
	// xmlns:prefix attributes) may be in scope at once, over an element and
	// all those around it. Feeds declare a handful to a few dozen, on the
	// root element.
	MaxNamespaces = 64

	// MaxAttributes is how many attributes, namespace declarations
	// included, one element may have.
	MaxAttributes = 256

	// MaxItemElements is how many elements one item or entry may hold,
	// itself included.
	MaxItemElements = 10000

	// NamespaceWork bounds the namespace declarations in scope summed over
	// every element of a feed (gofeed copies them all for each element): at
	// most NamespaceWork per byte of the feed, and never less than
	// minNamespaceWork. A feed declaring thirty namespaces on its root
	// uses under one per byte.
	NamespaceWork = 2
)

// minNamespaceWork is the namespace work always allowed, so that a small
// feed may declare up to MaxNamespaces namespaces.
const minNamespaceWork = 1 << 20

// guard checks each start element of an XML feed against the limits, as
// scanXML reads them. Its cost per element is that of the element's own
// attributes.
type guard struct {
	decls     []int // namespace declarations of each open element
	inScope   int   // their sum
	itemElems int   // elements of the item or entry being read
	work      int   // inScope summed over the elements so far
	maxWork   int
}

// newGuard returns the guard of a feed of size bytes.
func newGuard(size int) *guard {
	return &guard{maxWork: max(NamespaceWork*size, minNamespaceWork)}
}

// start checks the start element t, opened at depth len(g.decls)+1,
// inside an item or entry when inItem, which opens one when opensItem.
func (g *guard) start(t xml.StartElement, inItem, opensItem bool) error {
	if len(g.decls) == MaxDepth {
		return fmt.Errorf("elements nested more than %d deep", MaxDepth)
	}
	if len(t.Attr) > MaxAttributes {
		return fmt.Errorf("<%s> has more than %d attributes", rawName(t.Name), MaxAttributes)
	}
	n := 0
	for _, a := range t.Attr {
		if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
			n++
		}
	}
	g.decls = append(g.decls, n)
	g.inScope += n
	if g.inScope > MaxNamespaces {
		return fmt.Errorf("more than %d namespace declarations in scope at <%s>", MaxNamespaces, rawName(t.Name))
	}
	if g.work += g.inScope; g.work > g.maxWork {
		return fmt.Errorf("too many namespace declarations for the size of the feed: over %d in scope summed over its elements (%d per byte)", g.maxWork, NamespaceWork)
	}
	if opensItem {
		g.itemElems = 0
	}
	if !inItem && !opensItem {
		return nil
	}
	g.itemElems++
	if g.itemElems > MaxItemElements {
		return fmt.Errorf("an item holds more than %d elements", MaxItemElements)
	}
	return nil
}

// end closes the innermost open element.
func (g *guard) end() {
	if n := len(g.decls); n > 0 {
		g.inScope -= g.decls[n-1]
		g.decls = g.decls[:n-1]
	}
}
