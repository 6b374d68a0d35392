package validate

// Caps that keep the hreflang reciprocity check bounded.
const (
	maxHreflangPages = 200000
	maxHreflangEdges = 100000
)

// hreflangState gathers the hreflang links of one document to check, at
// its end, that they are reciprocal.
type hreflangState struct {
	// The hashes of the normal forms of the document's URLs: a list while
	// it is short, a set once it holds maxHreflangPages (which then keeps
	// at most that many), so that the set is made only for a long
	// document, or at the end when there are links to check. The list is
	// kept in blocks of pageBlock, so that it grows without copying.
	pages  [][]uint64
	npages int
	set    map[uint64]bool
	edges  []hrefEdge
}

// pageBlock is how many pages a block of hreflangState.pages holds.
const pageBlock = 4096

// hrefEdge is a link from a page to one of its alternates.
type hrefEdge struct {
	from, to  uint64
	line, col int
	href      string
}

// page records a URL of the document.
func (h *hreflangState) page(k uint64) {
	if h.set == nil && h.npages < maxHreflangPages {
		if n := len(h.pages); n == 0 || len(h.pages[n-1]) == pageBlock {
			h.pages = append(h.pages, make([]uint64, 0, pageBlock))
		}
		last := &h.pages[len(h.pages)-1]
		*last = append(*last, k)
		h.npages++
		return
	}
	if set := h.pageSet(); len(set) < maxHreflangPages {
		set[k] = true
	}
}

// pageSet returns the set of the document's URLs.
func (h *hreflangState) pageSet() map[uint64]bool {
	if h.set == nil {
		h.set = make(map[uint64]bool, h.npages)
		for _, block := range h.pages {
			for _, k := range block {
				h.set[k] = true
			}
		}
		h.pages, h.npages = nil, 0
	}
	return h.set
}

func (h *hreflangState) edge(from, to uint64, line, col int, href string) {
	if len(h.edges) < maxHreflangEdges {
		h.edges = append(h.edges, hrefEdge{from, to, line, col, clip(href)})
	}
}

// finish reports the links to a page of the document that does not link
// back.
func (h *hreflangState) finish(d *doc) {
	if len(h.edges) == 0 {
		return
	}
	links := make(map[[2]uint64]bool, len(h.edges))
	for _, e := range h.edges {
		links[[2]uint64{e.from, e.to}] = true
	}
	pages := h.pageSet()
	for _, e := range h.edges {
		if pages[e.to] && !links[[2]uint64{e.to, e.from}] {
			d.reportAt(ruleHreflangReciprocal, e.line, e.col, "the alternate %s is listed in this file but does not link back", e.href)
		}
	}
	h.edges, h.pages, h.npages, h.set = nil, nil, 0, nil
}
