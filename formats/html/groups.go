package html

import (
	"strings"

	"github.com/feed2sitemap/feed2sitemap/formats"
)

// reciprocal gives every page of a language group the alternates of the
// whole group, itself included: hreflang annotations count only when
// each page of a group names every other, and one page that forgot a
// link would otherwise break the group for search engines. A group is
// the pages linked by their hreflang alternates, directly or through
// others; its alternates are those of its pages, once each (by language,
// in any case, and URL), in the order of the pages' URLs.
func reciprocal(pages []*sitePage) {
	ids := map[string]int{}
	var parent []int
	id := func(loc string) int {
		i, ok := ids[loc]
		if !ok {
			i = len(parent)
			ids[loc] = i
			parent = append(parent, i)
		}
		return i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, p := range pages {
		if len(p.alternates) == 0 {
			continue
		}
		a := find(id(p.loc))
		for _, alt := range p.alternates {
			if b := find(id(alt.Href)); b != a {
				parent[b] = a
			}
		}
	}
	if len(parent) == 0 {
		return
	}
	type key struct{ hreflang, href string }
	groups := map[int][]formats.Alternate{}
	seen := map[key]bool{}
	for _, p := range pages {
		if len(p.alternates) == 0 {
			continue
		}
		g := find(ids[p.loc])
		for _, alt := range p.alternates {
			k := key{strings.ToLower(alt.Hreflang), alt.Href}
			if !seen[k] {
				seen[k] = true
				groups[g] = append(groups[g], alt)
			}
		}
	}
	for _, p := range pages {
		if i, ok := ids[p.loc]; ok {
			p.alternates = groups[find(i)]
		}
	}
}
