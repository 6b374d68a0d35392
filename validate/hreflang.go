package validate

// Caps that keep the hreflang reciprocity check bounded.
const (
	maxHreflangPages = 200000
	maxHreflangEdges = 100000
)

// hreflangState gathers the hreflang links of one document to check, at
// its end, that they are reciprocal.
type hreflangState struct {
	pages map[uint64]bool // hashes of the normal forms of the document's URLs
	edges []hrefEdge
}

// hrefEdge is a link from a page to one of its alternates.
type hrefEdge struct {
	from, to  uint64
	line, col int
	href      string
}

func (h *hreflangState) page(k uint64) {
	if h.pages == nil {
		h.pages = map[uint64]bool{}
	}
	if len(h.pages) < maxHreflangPages {
		h.pages[k] = true
	}
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
	for _, e := range h.edges {
		if h.pages[e.to] && !links[[2]uint64{e.to, e.from}] {
			d.reportAt(ruleHreflangReciprocal, e.line, e.col, "the alternate %s is listed in this file but does not link back", e.href)
		}
	}
	h.edges, h.pages = nil, nil
}
