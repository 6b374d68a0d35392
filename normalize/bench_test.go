package normalize

import "testing"

var benchSink string

func BenchmarkURL(b *testing.B) {
	tracking := &Options{StripUTM: true, StripSessionIDs: true}
	all := &Options{StripUTM: true, StripSessionIDs: true, SortQuery: true, HTTPS: true, WWW: HostRemoveWWW, TrailingSlash: SlashRemove}
	for _, bc := range []struct {
		name string
		opt  *Options
		in   string
	}{
		{"normal/zero", &Options{}, "https://www.example.com/blog/2024/05/some-article-title"},
		{"normal/zero-query", &Options{}, "https://www.example.com/search?q=sitemap&page=2"},
		{"normal/tracking", tracking, "https://www.example.com/blog/2024/05/some-article-title"},
		{"normal/tracking-query", tracking, "https://www.example.com/search?q=sitemap&page=2"},
		{"normal/all", all, "https://example.com/blog/2024/05/some-article-title"},
		{"normal/add-www", &Options{WWW: HostAddWWW}, "https://www.example.com/blog/2024/05/some-article-title"},
		{"normal/remove-www", &Options{WWW: HostRemoveWWW}, "https://example.com/blog/2024/05/some-article-title"},
		{"change/host-case", &Options{}, "https://WWW.Example.com/blog/2024/05/some-article-title"},
		{"change/fragment", &Options{}, "https://www.example.com/blog/2024/05/some-article-title#comments"},
		{"change/escapes", &Options{}, "https://www.example.com/%7euser/caf%c3%a9"},
		{"change/utm", tracking, "https://www.example.com/blog/post?utm_source=feed&utm_medium=rss&id=7"},
		{"change/all", all, "http://www.example.com:80/a/./b/;jsessionid=1?z=1&utm_source=x&a=2#f"},
		{"change/idn", &Options{}, "https://bücher.example/straße"},
		{"change/add-www", &Options{WWW: HostAddWWW}, "https://example.com/blog/2024/05/some-article-title"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchSink = bc.opt.URL(bc.in)
			}
		})
	}
}
