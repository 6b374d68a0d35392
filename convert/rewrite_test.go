package convert

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/normalize"
)

// Rewrite computes the normal form once, and takes the tidy form from it
// when the loc is normal: what it writes and the key it hands Dedupe are
// those of normalize.Safe and of the normal form of Safe's result, under
// every set of rules.
func TestRewriteTidyKeyIsSafeThenURL(t *testing.T) {
	locs := []string{
		"https://example.com/",
		"https://example.com/a/b?x=1",
		"https://Example.COM/a",
		"HTTPS://example.com/a",
		"https://example.com:443/a",
		"http://example.com:80/a",
		"http://example.com:0080/a",
		"https://example.com:/a",
		"https://example.com/a#frag",
		"https://example.com/a?#frag",
		"https://example.com/a?",
		"https://example.com/a/./b/../c",
		"https://example.com/a/%2E%2E/b",
		"https://example.com/a/.%2e/b",
		"https://example.com/a/..;jsessionid=1/b",
		"https://example.com/a;jsessionid=ABC?utm_source=x&b=2",
		"https://example.com/%7euser/%2fa?q=%41",
		"https://user:pw@example.com:443/a/../b",
		"https://[::1]:443/a/./b",
		"http://www.example.com/a/?utm_medium=x#y",
		"https://example.com/a/b/..",
		"https://example.com/a//b/./",
		"https://xn--bcher-kva.example/a",
		"https://example.com/a%zz",
	}
	for _, n := range []*normalize.Options{nil, {}, {HTTPS: true, WWW: normalize.HostRemoveWWW, StripUTM: true, StripSessionIDs: true,
		TrailingSlash: normalize.SlashRemove, SortQuery: true}, {WWW: normalize.HostAddWWW, TrailingSlash: normalize.SlashAdd}} {
		var in entries
		for _, loc := range locs {
			in = append(in, formats.Entry{Loc: loc})
		}
		r := Rewrite(&in, RewriteOptions{Normalize: n, Tidy: true}, nil)
		for _, loc := range locs {
			it, err := r.NextItem()
			require.NoError(t, err)
			tidy := normalize.Safe(loc)
			assert.Equal(t, tidy, it.Entry.Loc, "%q", loc)
			assert.Equal(t, n.URL(tidy), it.keyUnder(n), "%q", loc)
			assert.Same(t, n, it.norm, "%q: the key travels with the entry", loc)
		}
	}
}

// BenchmarkNormalForm measures what the default run computes of each loc
// before Dedupe: its tidy form and its normal form. Computed once, by
// Rewrite (which takes the tidy form from the normal one for a normal
// loc), against normalize.Safe and then the normal form of its result, as
// separate steps each computing their own form would. Most locs are
// normal, as most sitemaps' are; one in 50 is not.
func BenchmarkNormalForm(b *testing.B) {
	var in entries
	for i := range 10000 {
		loc := fmt.Sprintf("https://www.example.com/articles/%d/some-title-of-the-page", i)
		if i%50 == 0 {
			loc = fmt.Sprintf("HTTPS://www.example.com:443/articles/./%d/some-title-of-the-page#top", i)
		}
		in = append(in, formats.Entry{Loc: loc})
	}
	n := &normalize.Options{}
	b.Run("once", func(b *testing.B) {
		for b.Loop() {
			src := in
			r := Rewrite(&src, RewriteOptions{Normalize: n, Tidy: true}, nil)
			for {
				it, err := r.NextItem()
				if err != nil {
					break
				}
				sinkKey = it.keyUnder(n)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in)), "ns/url")
	})
	b.Run("twice", func(b *testing.B) {
		for b.Loop() {
			for _, e := range in {
				sinkKey = n.URL(normalize.Safe(e.Loc))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in)), "ns/url")
	})
}

var sinkKey string
