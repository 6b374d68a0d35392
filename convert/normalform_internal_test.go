package convert

import (
	"fmt"
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

// TestSourceTakesTheScopesTheTextReaderFound reads a text list, over many
// batches read ahead, whose lines are normal URLs, URLs that are not and
// lines that are no URL: each entry whose loc the reader found normal as
// it read it carries that loc as its normal form (under the always-on
// rules) with its scope, as URLScope computes them, and the others none;
// under strict reading, none does.
func TestSourceTakesTheScopesTheTextReaderFound(t *testing.T) {
	var list strings.Builder
	for i := range 3000 {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&list, "https://www.example.com/a/%d?x=%d&y\n", i, i%7)
		case 1:
			fmt.Fprintf(&list, "HTTPS://www.example.com:443/a/./%d\n", i)
		case 2:
			fmt.Fprintf(&list, "not a url %d\n# comment\n", i)
		default:
			fmt.Fprintf(&list, "https://www.example.com/%%7e%d/b.html;p=1\n", i)
		}
	}
	in := Input{Name: "urls.txt", Open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(list.String())), nil }}
	for _, strict := range []bool{false, true} {
		src, err := Open([]Input{in}, ReadOptions{Strict: strict}, nil)
		require.NoError(t, err)
		keyed, entries := 0, 0
		for {
			var it Item
			err := src.nextInto(&it)
			if err == io.EOF {
				break
			}
			if strict && err != nil {
				break // the first line that is no URL ends a strict reading
			}
			require.NoError(t, err)
			entries++
			if it.key == "" {
				continue
			}
			keyed++
			key, scope := (*normalize.Options)(nil).URLScope(it.Entry.Loc)
			require.Equal(t, key, it.key, "entry %d", entries)
			require.Equal(t, scope, it.scope, "entry %d: %s", entries, it.Entry.Loc)
			require.Nil(t, it.norm)
		}
		if strict {
			assert.Zero(t, keyed)
		} else {
			assert.Equal(t, 2250, entries)
			assert.Equal(t, 750, keyed, "the normal URLs, each")
		}
		require.NoError(t, src.Close())
	}
}
