package xml_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/crafted"
)

// drainGeneral reads every entry of a sitemap on the general path, the one
// crafted inputs take, and returns the error that ended it (nil at EOF).
func drainGeneral(data []byte) error {
	r := xml.NewGeneralReader(bytes.NewReader(data), formats.ReadOptions{Source: "crafted"})
	for {
		if _, err := r.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// TestCraftedSitemapsReadInLinearTime holds the reader to linear time on
// crafted sitemaps and indexes: a prefix lookup that scanned every
// namespace declaration in scope made thousands of them quadratic.
func TestCraftedSitemapsReadInLinearTime(t *testing.T) {
	b := crafted.Bounds{Time: 10, Peak: 8, Floor: 48 << 20, Slack: 20 * time.Millisecond}
	crafted.Check(t, []crafted.Shape{crafted.URLSet, crafted.Index}, 1<<20, b, func(_ crafted.Shape, data []byte) error {
		drainGeneral(data) // an error is a result
		return nil
	})
}

// TestNamespaceScopeMatchesNaive checks the indexed namespace scope
// against a plain list scanned from the end, on random declarations,
// shadowings and pops.
func TestNamespaceScopeMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	prefixes := []string{"", "a", "b", "c", "d"}
	uris := []string{"u1", "u2", "u3"}
	for range 200 {
		var s xml.NSScope
		var naive [][2]string
		var marks []int
		for range 200 {
			switch op := rng.IntN(4); {
			case op < 2:
				marks = append(marks, len(naive))
				for range rng.IntN(3) {
					p, u := prefixes[rng.IntN(len(prefixes))], uris[rng.IntN(len(uris))]
					naive = append(naive, [2]string{p, u})
					s.Push(p, u)
				}
			case op == 2 && len(marks) > 0:
				m := marks[len(marks)-1]
				marks = marks[:len(marks)-1]
				naive = naive[:m]
				s.PopTo(m)
			}
			for _, u := range uris {
				for _, attr := range []bool{false, true} {
					wantP, wantOK := naivePrefixOf(naive, u, attr)
					if p, ok := s.PrefixOf(u, attr); p != wantP || ok != wantOK {
						t.Fatalf("%v: PrefixOf(%s, %v) = %q, %v; want %q, %v", naive, u, attr, p, ok, wantP, wantOK)
					}
				}
			}
			for _, p := range prefixes {
				wantU, wantOK := "", false
				for i := len(naive) - 1; i >= 0; i-- {
					if naive[i][0] == p {
						wantU, wantOK = naive[i][1], true
						break
					}
				}
				if u, ok := s.Lookup(p); u != wantU || ok != wantOK {
					t.Fatalf("%v: Lookup(%q) = %q, %v; want %q, %v", naive, p, u, ok, wantU, wantOK)
				}
			}
		}
	}
}

// naivePrefixOf is the innermost declaration of uri whose prefix no later
// declaration rebinds.
func naivePrefixOf(decls [][2]string, uri string, attr bool) (string, bool) {
outer:
	for i := len(decls) - 1; i >= 0; i-- {
		b := decls[i]
		if b[1] != uri || attr && b[0] == "" {
			continue
		}
		for _, c := range decls[i+1:] {
			if c[0] == b[0] {
				continue outer
			}
		}
		return b[0], true
	}
	return "", false
}

// BenchmarkCrafted reads an ordinary sitemap and each crafted one of
// 1 MiB, on the general path.
func BenchmarkCrafted(b *testing.B) {
	crafted.Bench(b, []crafted.Shape{crafted.URLSet, crafted.Index}, 1<<20, func(data []byte) { drainGeneral(data) })
}

// TestNamespacesInScopeBounded checks that more than MaxNamespaces
// declarations in scope, however they pile up, are an error naming the
// element, on either path, and MaxNamespaces are read.
func TestNamespacesInScopeBounded(t *testing.T) {
	decls := func(from, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, ` xmlns:p%d="urn:x:%d"`, from+i, from+i)
		}
		return b.String()
	}
	doc := func(root, entry int) string {
		return `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"` + decls(0, root) + ">\n" +
			"<url><loc>https://example.com/a</loc></url>\n" +
			"<url" + decls(root, entry) + "><loc>https://example.com/b</loc></url>\n</urlset>\n"
	}
	for _, c := range []struct {
		name        string
		root, entry int
		line        int
	}{
		// The default namespace of the root counts too.
		{"on the root and an entry", xml.MaxNamespaces - 1, 1, 3},
		{"on the root alone", xml.MaxNamespaces, 0, 1},
	} {
		for _, path := range []string{"fast", "general"} {
			read := func(doc string) (n int, err error) {
				var r formats.Reader = xml.NewReader(strings.NewReader(doc), formats.ReadOptions{Source: "ns.xml"})
				if path == "general" {
					r = xml.NewGeneralReader(strings.NewReader(doc), formats.ReadOptions{Source: "ns.xml"})
				}
				for {
					if _, err := r.Next(); err != nil {
						if err == io.EOF {
							err = nil
						}
						return n, err
					}
					n++
				}
			}
			if n, err := read(doc(c.root-1, c.entry)); n != 2 || err != nil {
				t.Errorf("%s, %s path, at the limit: %d entries, %v", c.name, path, n, err)
			}
			_, err := read(doc(c.root, c.entry))
			want := fmt.Sprintf("ns.xml:%d:", c.line)
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d namespace declarations in scope", xml.MaxNamespaces)) {
				t.Errorf("%s, %s path, past the limit: %v; want an error at %s", c.name, path, err, want)
			}
		}
	}
}
