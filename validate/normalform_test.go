package validate

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	sitemapxml "github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// TestObservationNormalForms holds what a strict conversion takes from the
// check of its reading (convert's Rewrite asks for each entry's normal
// form) to what normalize computes: for the loc of each entry, as the
// reader gives it, right after the reader gives it.
func TestObservationNormalForms(t *testing.T) {
	locs := []string{
		"https://a.example/plain", "https://a.example/dir/", "https://A.example/upper", "https://a.example/a/../b",
		"https://a.example/x?b=1&a=2", "https://a.example/%7euser", "http://www.a.example/", "https://a.example/p;jsessionid=1",
		"https://a.example/plain", // again: a duplicate
	}
	var b strings.Builder
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, loc := range locs {
		b.WriteString("<url><loc>" + strings.ReplaceAll(loc, "&", "&amp;") + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	obs := New(Options{NoFollow: true, Independent: true}).Observe(Source{Name: "forms.xml"}, func(Finding) {})
	forms, ok := obs.XML().(interface {
		NormalForm(string) (string, int, bool)
	})
	require.True(t, ok, "the observer gives the normal forms it computed")
	r := sitemapxml.NewObservedReader(strings.NewReader(b.String()), formats.ReadOptions{Source: "forms.xml"}, obs.XML())
	got := 0
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		key, scope, ok := forms.NormalForm(e.Loc)
		if e.Loc != locs[got] {
			// The reader rewrote the loc (its host lower-cased): the
			// check computed the form of another string.
			assert.False(t, ok, e.Loc)
			got++
			continue
		}
		require.True(t, ok, e.Loc)
		wantKey, wantScope := (*normalize.Options)(nil).URLScope(e.Loc)
		assert.Equal(t, wantKey, key, e.Loc)
		assert.Equal(t, wantScope, scope, e.Loc)
		_, _, ok = forms.NormalForm(e.Loc + "x")
		assert.False(t, ok, "another loc than the last read")
		got++
	}
	assert.Equal(t, len(locs), got)
	obs.Close()
}
