package convert

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// formsObserver is the observer of a reading that computed the normal
// forms of some locs (as validate's checks do), here made up so that the
// test sees which are taken.
type formsObserver map[string]string

func (o formsObserver) NormalForm(loc string) (string, int, bool) {
	key, ok := o[loc]
	return key, 0, ok
}

// formsObserved is content whose reading such an observer follows.
type formsObserved struct {
	io.ReadCloser
	forms formsObserver
}

func (c formsObserved) ReadObserver() any { return c.forms }

func TestRewriteTakesTheNormalFormsOfTheObserver(t *testing.T) {
	doc := `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url></urlset>`
	// Made-up normal forms, which no computation gives, for the first loc
	// only: the second is computed.
	forms := formsObserver{"https://a.example/1": "https://a.example/one"}
	in := Input{Name: "watched.xml", Open: func() (io.ReadCloser, error) {
		return formsObserved{io.NopCloser(strings.NewReader(doc)), forms}, nil
	}}
	for _, c := range []struct {
		name  string
		rules *normalize.Options
		want  []string
	}{
		{"always-on rules", nil, []string{"https://a.example/one", "https://a.example/2"}},
		{"the zero options", &normalize.Options{}, []string{"https://a.example/one", "https://a.example/2"}},
		// Under other rules the observer's forms are not the ones asked.
		{"other rules", &normalize.Options{HTTPS: true}, []string{"https://a.example/1", "https://a.example/2"}},
	} {
		src, err := Open([]Input{in}, ReadOptions{}, nil)
		require.NoError(t, err)
		rw := Rewrite(src, RewriteOptions{Normalize: c.rules, Normal: true}, nil)
		var got []string
		for {
			e, err := rw.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			got = append(got, e.Loc)
		}
		assert.Equal(t, c.want, got, c.name)
		require.NoError(t, src.Close())
	}
}
