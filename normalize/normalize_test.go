package normalize

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type urlCase struct {
	name string
	opt  Options
	in   string
	want string
}

var (
	stripUTM      = Options{StripUTM: true}
	stripSessions = Options{StripSessionIDs: true}
	sortQuery     = Options{SortQuery: true}
	forceHTTPS    = Options{HTTPS: true}
	addWWW        = Options{WWW: HostAddWWW}
	removeWWW     = Options{WWW: HostRemoveWWW}
	addSlash      = Options{TrailingSlash: SlashAdd}
	removeSlash   = Options{TrailingSlash: SlashRemove}
	stripRef      = Options{StripParams: []string{"ref", "Share_*"}}
	everything    = Options{
		StripParams: []string{"ref"}, StripSessionIDs: true, StripUTM: true, HTTPS: true,
		WWW: HostRemoveWWW, TrailingSlash: SlashRemove, SortQuery: true,
	}
)

// urlCases hold one case or more for every rule and option; FuzzURL is
// seeded with their inputs.
var urlCases = []urlCase{
	// Already normal: returned as is.
	{"normal: http", Options{}, "http://example.com/", "http://example.com/"},
	{"normal: https path query", Options{}, "https://example.com/a/b?c=1&d=2", "https://example.com/a/b?c=1&d=2"},
	{"normal: port kept", Options{}, "http://example.com:8080/x", "http://example.com:8080/x"},
	{"normal: reserved escapes kept", Options{}, "https://example.com/a%2Fb%3F?q=%26%3D", "https://example.com/a%2Fb%3F?q=%26%3D"},

	// 1. Only http and https URLs.
	{"not http: ftp unchanged", Options{}, "FTP://Example.COM/a/../b#f", "FTP://Example.COM/a/../b#f"},
	{"not http: relative unchanged", Options{}, "/a/./b", "/a/./b"},
	{"not http: empty", Options{}, "", ""},
	{"not http: mailto", everything, "mailto:a@example.com", "mailto:a@example.com"},
	{"not http: no slashes", Options{}, "http:example.com", "http:example.com"},

	// 2. Fragment.
	{"fragment: removed", Options{}, "https://example.com/a#top", "https://example.com/a"},
	{"fragment: after query", Options{}, "https://example.com/a?b=1#c", "https://example.com/a?b=1"},
	{"fragment: empty", Options{}, "https://example.com/a#", "https://example.com/a"},
	{"fragment: right after host", Options{}, "https://example.com#x", "https://example.com/"},
	{"fragment: holds ?", Options{}, "https://example.com/a#b?c", "https://example.com/a"},

	// 3. Scheme.
	{"scheme: lower-cased", Options{}, "HTTP://example.com/", "http://example.com/"},
	{"scheme: mixed case https", Options{}, "hTTpS://example.com/", "https://example.com/"},
	{"scheme: HTTPS option", forceHTTPS, "http://example.com/a", "https://example.com/a"},
	{"scheme: HTTPS option keeps https", forceHTTPS, "https://example.com/a", "https://example.com/a"},
	{"scheme: HTTPS option keeps port 8080", forceHTTPS, "http://example.com:8080/", "https://example.com:8080/"},
	{"scheme: HTTPS option drops :80", forceHTTPS, "http://example.com:80/", "https://example.com/"},
	{"scheme: HTTPS option drops :443", forceHTTPS, "http://example.com:443/", "https://example.com/"},
	{"scheme: HTTPS option keeps https :80", forceHTTPS, "https://example.com:80/", "https://example.com:80/"},

	// 4. Host.
	{"host: lower-cased", Options{}, "https://WWW.Example.COM/Path", "https://www.example.com/Path"},
	{"host: all upper", Options{}, "HTTP://EXAMPLE.COM:80", "http://example.com/"},
	{"host: idn to punycode", Options{}, "https://bücher.example/", "https://xn--bcher-kva.example/"},
	{"host: upper-case idn", Options{}, "https://BÜCHER.example/", "https://xn--bcher-kva.example/"},
	{"host: punycode kept", Options{}, "https://xn--bcher-kva.example/", "https://xn--bcher-kva.example/"},
	{"host: escaped idn", Options{}, "https://b%C3%BCcher.example/", "https://xn--bcher-kva.example/"},
	{"host: escaped ascii decoded", Options{}, "https://ex%61mple.com/", "https://example.com/"},
	{"host: invalid name only lower-cased", Options{}, "https://A%ZZ.example/", "https://a%zz.example/"},
	{"host: underscore kept", Options{}, "https://My_Host.example/", "https://my_host.example/"},
	{"host: trailing dot kept", Options{}, "https://example.com./", "https://example.com./"},
	{"host: escaped underscore decoded", Options{}, "http://%5F", "http://_/"},
	{"host: escaped colon kept", Options{}, "http://a%3Ab/", "http://a%3ab/"},
	{"host: ipv6 junk only lower-cased", Options{}, "http://[:A\x860]#0", "http://[:a\x860]/"},
	{"host: ipv4", Options{}, "http://192.168.0.1/", "http://192.168.0.1/"},
	{"host: ipv6 lower-cased", Options{}, "http://[2001:DB8::1]/", "http://[2001:db8::1]/"},
	{"host: ipv6 default port", Options{}, "https://[::1]:443/a", "https://[::1]/a"},
	{"host: ipv6 other port", Options{}, "https://[::1]:8443/a", "https://[::1]:8443/a"},
	{"host: ipv6 empty port", Options{}, "https://[::1]:/a", "https://[::1]/a"},
	{"host: ipv6 no port", Options{}, "http://[::1]", "http://[::1]/"},

	// 5. Port.
	{"port: http :80 removed", Options{}, "http://example.com:80/a", "http://example.com/a"},
	{"port: https :443 removed", Options{}, "https://example.com:443/a", "https://example.com/a"},
	{"port: http :443 kept", Options{}, "http://example.com:443/a", "http://example.com:443/a"},
	{"port: https :80 kept", Options{}, "https://example.com:80/a", "https://example.com:80/a"},
	{"port: 8080 kept", Options{}, "http://example.com:8080/a", "http://example.com:8080/a"},
	{"port: empty removed", Options{}, "http://example.com:/a", "http://example.com/a"},
	{"port: empty before query", Options{}, "http://example.com:?a", "http://example.com/?a"},
	{"port: leading zeros", Options{}, "http://example.com:08080/", "http://example.com:8080/"},
	{"port: zero-padded default", Options{}, "http://example.com:0080/", "http://example.com/"},
	{"port: zero", Options{}, "http://example.com:0/", "http://example.com:0/"},
	{"port: zeros", Options{}, "http://example.com:000/", "http://example.com:0/"},
	{"port: not a number left alone", Options{}, "http://Example.com:8o/", "http://example.com:8o/"},
	{"port: no path", Options{}, "http://example.com:80", "http://example.com/"},

	// 6. WWW.
	{"www add: bare domain", addWWW, "https://example.com/a", "https://www.example.com/a"},
	{"www add: private suffix", addWWW, "https://user.github.io/", "https://www.user.github.io/"},
	{"www add: two-label suffix", addWWW, "https://example.co.uk/", "https://www.example.co.uk/"},
	{"www add: port kept", addWWW, "https://example.com:8443/", "https://www.example.com:8443/"},
	{"www add: already www", addWWW, "https://www.example.com/", "https://www.example.com/"},
	{"www add: subdomain", addWWW, "https://blog.example.com/", "https://blog.example.com/"},
	{"www add: www2", addWWW, "https://www2.example.com/", "https://www2.example.com/"},
	{"www add: ipv4", addWWW, "http://192.168.0.1/", "http://192.168.0.1/"},
	{"www add: bad ipv4", addWWW, "http://192.168.0.300/", "http://192.168.0.300/"},
	{"www add: ipv6", addWWW, "http://[::1]/", "http://[::1]/"},
	{"www add: single label", addWWW, "http://localhost/", "http://localhost/"},
	{"www add: public suffix", addWWW, "http://co.uk/", "http://co.uk/"},
	{"www add: upper case", addWWW, "HTTP://EXAMPLE.COM/", "http://www.example.com/"},
	{"www add: idn", addWWW, "https://bücher.example/", "https://www.xn--bcher-kva.example/"},
	{"www add: trailing dot", addWWW, "https://example.com./", "https://www.example.com./"},
	{"www add: userinfo kept", addWWW, "https://u@example.com/", "https://u@www.example.com/"},
	{"www remove: www", removeWWW, "https://www.example.com/a", "https://example.com/a"},
	{"www remove: upper case", removeWWW, "https://WWW.Example.COM/", "https://example.com/"},
	{"www remove: www2 kept", removeWWW, "https://www2.example.com/", "https://www2.example.com/"},
	{"www remove: bare kept", removeWWW, "https://example.com/", "https://example.com/"},
	{"www remove: www of subdomain kept", removeWWW, "https://www.blog.example.com/", "https://www.blog.example.com/"},
	{"www remove: www of suffix kept", removeWWW, "https://www.co.uk/", "https://www.co.uk/"},
	{"www remove: two-label suffix", removeWWW, "https://www.example.co.uk/", "https://example.co.uk/"},
	{"www remove: port kept", removeWWW, "https://www.example.com:8443/", "https://example.com:8443/"},
	{"www remove: host www.com kept", removeWWW, "https://www.com/", "https://www.com/"},

	// 7. Userinfo.
	{"userinfo: kept", Options{}, "https://user:pw@example.com/", "https://user:pw@example.com/"},
	{"userinfo: escapes normalized", Options{}, "https://us%65r:p%2fw@Example.com:443/", "https://user:p%2Fw@example.com/"},
	{"userinfo: last @ splits", Options{}, "https://a@b@example.com/", "https://a@b@example.com/"},
	{"userinfo: empty", Options{}, "https://@example.com/", "https://@example.com/"},

	// 8. Percent-encoding.
	{"escape: tilde decoded", Options{}, "https://example.com/%7euser", "https://example.com/~user"},
	{"escape: unreserved decoded", Options{}, "https://example.com/%41%62%2D%2e%5F%30", "https://example.com/Ab-._0"},
	{"escape: slash upper-cased", Options{}, "https://example.com/a%2fb", "https://example.com/a%2Fb"},
	{"escape: euro upper-cased", Options{}, "https://example.com/%e2%82%ac", "https://example.com/%E2%82%AC"},
	{"escape: raw euro encoded", Options{}, "https://example.com/€", "https://example.com/%E2%82%AC"},
	{"escape: raw euro in query", Options{}, "https://example.com/?p=€", "https://example.com/?p=%E2%82%AC"},
	{"escape: stray percent", Options{}, "https://example.com/%zz", "https://example.com/%25zz"},
	{"escape: percent at end", Options{}, "https://example.com/100%", "https://example.com/100%25"},
	{"escape: percent one digit", Options{}, "https://example.com/a%4", "https://example.com/a%254"},
	{"escape: never double", Options{}, "https://example.com/a%20b%25c", "https://example.com/a%20b%25c"},
	{"escape: space and quotes", Options{}, `https://example.com/a b"c<d>`, "https://example.com/a%20b%22c%3Cd%3E"},
	{"escape: forbidden ascii", Options{}, "https://example.com/{a}|b\\c^d`", "https://example.com/%7Ba%7D%7Cb%5Cc%5Ed%60"},
	{"escape: control byte", Options{}, "https://example.com/a\x01\x7f", "https://example.com/a%01%7F"},
	{"escape: invalid utf-8 byte", Options{}, "https://example.com/caf\xe9", "https://example.com/caf%E9"},
	{"escape: reserved in query kept", Options{}, "https://example.com/?a=%3d%26", "https://example.com/?a=%3D%26"},
	{"escape: plus kept", Options{}, "https://example.com/?q=a+b%20c", "https://example.com/?q=a+b%20c"},
	{"escape: question mark in query", Options{}, "https://example.com/?a=?b", "https://example.com/?a=?b"},
	{"escape: path case kept", Options{}, "https://example.com/A/b/C", "https://example.com/A/b/C"},
	{"escape: decoded dots are dot segments", Options{}, "https://example.com/a/%2E%2e/b", "https://example.com/b"},

	// 9. Session ids in the path.
	{"session path: jsessionid before query", stripSessions, "https://example.com/a;jsessionid=ABC?x=1", "https://example.com/a?x=1"},
	{"session path: upper case", stripSessions, "https://example.com/a;JSESSIONID=ABC", "https://example.com/a"},
	{"session path: other params kept", stripSessions, "https://example.com/a;v=1;jsessionid=ABC;w=2/b", "https://example.com/a;v=1;w=2/b"},
	{"session path: middle segment", stripSessions, "https://example.com/a;jsessionid=1/b", "https://example.com/a/b"},
	{"session path: no value", stripSessions, "https://example.com/a;jsessionid", "https://example.com/a"},
	{"session path: kept without option", Options{}, "https://example.com/a;jsessionid=ABC", "https://example.com/a;jsessionid=ABC"},
	{"session path: name prefix kept", stripSessions, "https://example.com/a;jsessionids=1", "https://example.com/a;jsessionids=1"},
	{"session path: escaped semicolon kept", stripSessions, "https://example.com/a%3Bjsessionid=1", "https://example.com/a%3Bjsessionid=1"},
	{"session path: leaves a dot segment", stripSessions, "https://example.com/a/b/..;jsessionid=1/c", "https://example.com/a/c"},

	// 10. Dot segments and the empty path.
	{"dots: empty path", Options{}, "https://example.com", "https://example.com/"},
	{"dots: empty path with query", Options{}, "https://example.com?a=1", "https://example.com/?a=1"},
	{"dots: single dot", Options{}, "https://example.com/a/./b/../c", "https://example.com/a/c"},
	{"dots: above root", Options{}, "https://example.com/a/b/../../../c", "https://example.com/c"},
	{"dots: root parent", Options{}, "https://example.com/..", "https://example.com/"},
	{"dots: root dot", Options{}, "https://example.com/.", "https://example.com/"},
	{"dots: trailing dot", Options{}, "https://example.com/a/.", "https://example.com/a/"},
	{"dots: trailing parent", Options{}, "https://example.com/a/b/..", "https://example.com/a/"},
	{"dots: before query", Options{}, "https://example.com/a/..?q", "https://example.com/?q"},
	{"dots: empty segments kept", Options{}, "https://example.com/a//b/", "https://example.com/a//b/"},
	{"dots: parent of empty segment", Options{}, "https://example.com/a//..", "https://example.com/a/"},
	{"dots: names with dots kept", Options{}, "https://example.com/.a/..b/...", "https://example.com/.a/..b/..."},
	{"dots: in query kept", Options{}, "https://example.com/?a=/../b", "https://example.com/?a=/../b"},

	// 11. Trailing slash.
	{"slash add: root", addSlash, "https://example.com/", "https://example.com/"},
	{"slash add: empty path", addSlash, "https://example.com", "https://example.com/"},
	{"slash add: /a", addSlash, "https://example.com/a", "https://example.com/a/"},
	{"slash add: /a/", addSlash, "https://example.com/a/", "https://example.com/a/"},
	{"slash add: file", addSlash, "https://example.com/a.html", "https://example.com/a.html"},
	{"slash add: double extension", addSlash, "https://example.com/b.tar.gz", "https://example.com/b.tar.gz"},
	{"slash add: numeric extension", addSlash, "https://example.com/v1.2", "https://example.com/v1.2/"},
	{"slash add: dot file", addSlash, "https://example.com/.well-known", "https://example.com/.well-known/"},
	{"slash add: long extension", addSlash, "https://example.com/a.verylongext", "https://example.com/a.verylongext/"},
	{"slash add: directory with dot", addSlash, "https://example.com/a.b/c", "https://example.com/a.b/c/"},
	{"slash add: path parameter", addSlash, "https://example.com/a;v=1", "https://example.com/a;v=1"},
	{"slash add: before query", addSlash, "https://example.com/a?q", "https://example.com/a/?q"},
	{"slash add: query not path", addSlash, "https://example.com/a?q=b.html", "https://example.com/a/?q=b.html"},
	{"slash remove: root", removeSlash, "https://example.com/", "https://example.com/"},
	{"slash remove: /a", removeSlash, "https://example.com/a", "https://example.com/a"},
	{"slash remove: /a/", removeSlash, "https://example.com/a/", "https://example.com/a"},
	{"slash remove: several", removeSlash, "https://example.com/a//", "https://example.com/a"},
	{"slash remove: only slashes", removeSlash, "https://example.com//", "https://example.com/"},
	{"slash remove: before query", removeSlash, "https://example.com/a/?q", "https://example.com/a?q"},
	{"slash remove: query not path", removeSlash, "https://example.com/a?q=/", "https://example.com/a?q=/"},
	{"slash remove: after dot segment", removeSlash, "https://example.com/a/b/..", "https://example.com/a"},
	{"slash keep: /a/", Options{}, "https://example.com/a/", "https://example.com/a/"},
	{"slash keep: /a", Options{}, "https://example.com/a", "https://example.com/a"},

	// 12. Query.
	{"query: empty removed", Options{}, "https://example.com/a?", "https://example.com/a"},
	{"query: empty before fragment", Options{}, "https://example.com/a?#x", "https://example.com/a"},
	{"query: kept as is", Options{}, "https://example.com/?b=2&a=1&&a", "https://example.com/?b=2&a=1&&a"},
	{"query: no value params kept", Options{}, "https://example.com/?a&b=", "https://example.com/?a&b="},
	{"utm: removed, others kept", stripUTM, "https://example.com/?utm_source=x&a=1&utm_medium=y", "https://example.com/?a=1"},
	{"utm: last", stripUTM, "https://example.com/?a=1&utm_source=x", "https://example.com/?a=1"},
	{"utm: only param", stripUTM, "https://example.com/?utm_source=x", "https://example.com/"},
	{"utm: upper case", stripUTM, "https://example.com/p?UTM_Campaign=x&b=2", "https://example.com/p?b=2"},
	{"utm: escaped name", stripUTM, "https://example.com/p?utm%5fsource=x", "https://example.com/p"},
	{"utm: click ids", stripUTM, "https://example.com/?gclid=1&fbclid=2&msclkid=3&a=1&_ga=4", "https://example.com/?a=1"},
	{"utm: similar names kept", stripUTM, "https://example.com/?utm=1&xutm_source=2&gclids=3", "https://example.com/?utm=1&xutm_source=2&gclids=3"},
	{"utm: repeated", stripUTM, "https://example.com/?a=1&utm_source=x&a=2&utm_source=y", "https://example.com/?a=1&a=2"},
	{"utm: no value", stripUTM, "https://example.com/?utm_source&a", "https://example.com/?a"},
	{"utm: empty params dropped", stripUTM, "https://example.com/?&a=1&&b=2&", "https://example.com/?a=1&b=2"},
	{"utm: no query", stripUTM, "https://example.com/a", "https://example.com/a"},
	{"utm: value not name", stripUTM, "https://example.com/?a=utm_source", "https://example.com/?a=utm_source"},
	{"utm: semicolon not a separator", stripUTM, "https://example.com/?a=1;utm_source=x", "https://example.com/?a=1;utm_source=x"},
	{"session query: phpsessid", stripSessions, "https://example.com/?PHPSESSID=abc&page=2", "https://example.com/?page=2"},
	{"session query: jsessionid", stripSessions, "https://example.com/a?jsessionid=1", "https://example.com/a"},
	{"session query: aspsessionid prefix", stripSessions, "https://example.com/?ASPSESSIONIDQQGGGNCG=x&a", "https://example.com/?a"},
	{"session query: sid and cfid cftoken", stripSessions, "https://example.com/?sid=1&cfid=2&cftoken=3&q=4", "https://example.com/?q=4"},
	{"session query: sids kept", stripSessions, "https://example.com/?sids=1", "https://example.com/?sids=1"},
	{"session query: path and query", stripSessions, "https://example.com/a;jsessionid=1?jsessionid=1&b", "https://example.com/a?b"},
	{"strip params: exact", stripRef, "https://example.com/?ref=x&a=1", "https://example.com/?a=1"},
	{"strip params: case", stripRef, "https://example.com/?REF=x&a=1", "https://example.com/?a=1"},
	{"strip params: prefix", stripRef, "https://example.com/?share_id=1&SHARE_x&a=1", "https://example.com/?a=1"},
	{"strip params: other kept", stripRef, "https://example.com/?refs=1&sharex=2", "https://example.com/?refs=1&sharex=2"},
	{"strip params: utm not implied", stripRef, "https://example.com/?utm_source=1", "https://example.com/?utm_source=1"},
	{"strip params: empty name ignored", Options{StripParams: []string{""}}, "https://example.com/?=1&a", "https://example.com/?=1&a"},
	{"strip params: star strips all", Options{StripParams: []string{"*"}}, "https://example.com/?a=1&b=2", "https://example.com/"},
	{"sort: by name", sortQuery, "https://example.com/?b=1&a=2&c=3", "https://example.com/?a=2&b=1&c=3"},
	{"sort: stable", sortQuery, "https://example.com/?b=1&a=2&b=0&a=1", "https://example.com/?a=2&a=1&b=1&b=0"},
	{"sort: name not value", sortQuery, "https://example.com/?a=2&a=1&a", "https://example.com/?a=2&a=1&a"},
	{"sort: name ends at =", sortQuery, "https://example.com/?ab=1&a=2", "https://example.com/?a=2&ab=1"},
	{"sort: byte order", sortQuery, "https://example.com/?b&B&a&A", "https://example.com/?A&B&a&b"},
	{"sort: sorted kept", sortQuery, "https://example.com/?a=1&b=2", "https://example.com/?a=1&b=2"},
	{"sort: empty params dropped", sortQuery, "https://example.com/?b&&a&", "https://example.com/?a&b"},
	{"sort: with utm", Options{SortQuery: true, StripUTM: true}, "https://example.com/?z=1&utm_source=x&a=2", "https://example.com/?a=2&z=1"},

	// All together.
	{"all options", everything, "HTTP://WWW.Example.COM:80/a/./b/;jsessionid=1?utm_source=x&z=1&ref=2&a=%7e#frag", "https://example.com/a/b?a=~&z=1"},
	{"all options: already normal", everything, "https://example.com/a?b=1", "https://example.com/a?b=1"},
	{"all options: idempotent case", everything, "http://www.example.com:443//?&", "https://example.com/"},
}

func TestURL(t *testing.T) {
	for _, c := range urlCases {
		t.Run(c.name, func(t *testing.T) {
			got := c.opt.URL(c.in)
			assert.Equal(t, c.want, got, "URL(%q)", c.in)
			assert.Equal(t, got, c.opt.URL(got), "not idempotent")
		})
	}
}

// TestFastPath checks that the outputs of the table, normal forms all, take
// the fast path but for the rare forms left to rewrite.
func TestFastPath(t *testing.T) {
	slow := map[string]bool{
		"not http: ftp unchanged": true, "not http: relative unchanged": true, "not http: empty": true,
		"not http: mailto": true, "not http: no slashes": true, // not http(s): returned by URL itself
		"host: invalid name only lower-cased": true, "port: not a number left alone": true,
		"host: escaped colon kept": true, "host: ipv6 junk only lower-cased": true,
		"host: ipv6 lower-cased": true, "host: ipv6 other port": true, "host: ipv6 no port": true, "host: ipv6 default port": true, "host: ipv6 empty port": true,
		"www add: ipv6": true, "userinfo: kept": true, "userinfo: escapes normalized": true, "userinfo: last @ splits": true,
		"userinfo: empty": true, "www add: userinfo kept": true, "session path: name prefix kept": true,
		"session path: other params kept": true,
	}
	for _, c := range urlCases {
		assert.Equal(t, !slow[c.name], c.opt.normal(c.want), "%s: normal(%q)", c.name, c.want)
	}
}

func TestKey(t *testing.T) {
	for _, pair := range [][2]string{
		{"HTTP://Example.COM:80", "http://example.com/"},
		{"https://example.com:443/a#b", "https://example.com/a"},
		{"https://example.com/%7e", "https://example.com/~"},
		{"https://example.com/a?utm_source=x", "https://example.com/a?utm_source=x"},
	} {
		assert.Equal(t, pair[1], Key(pair[0]), "Key(%q)", pair[0])
	}
	var nilOptions *Options
	assert.Equal(t, "http://example.com/", nilOptions.URL("HTTP://EXAMPLE.COM"))
}

// TestSameKey lists spellings of one page that must share a Key, and
// different pages that must not.
func TestSameKey(t *testing.T) {
	same := [][]string{
		{"https://example.com/", "https://example.com", "HTTPS://EXAMPLE.COM:443/", "https://example.com/#top", "https://example.com/?", "https://example.com/./", "https://example.com/a/.."},
		{"https://example.com/~u", "https://example.com/%7Eu", "https://example.com/%7eu"},
		{"https://xn--bcher-kva.example/stra%C3%9Fe", "https://bücher.example/straße", "https://b%C3%BCcher.example/stra%c3%9fe"},
	}
	for _, group := range same {
		for _, u := range group[1:] {
			assert.Equal(t, Key(group[0]), Key(u), "%q and %q", group[0], u)
		}
	}
	different := [][2]string{
		{"https://example.com/a", "https://example.com/a/"},
		{"https://example.com/a%2Fb", "https://example.com/a/b"},
		{"https://example.com/A", "https://example.com/a"},
		{"http://example.com/", "https://example.com/"},
		{"https://example.com/?a=1&b=2", "https://example.com/?b=2&a=1"},
		{"https://www.example.com/", "https://example.com/"},
		{"https://example.com:8080/", "https://example.com/"},
	}
	for _, d := range different {
		assert.NotEqual(t, Key(d[0]), Key(d[1]), "%q and %q", d[0], d[1])
	}
}

func TestParseChoices(t *testing.T) {
	for s, want := range map[string]Host{"": HostKeep, "keep": HostKeep, "add": HostAddWWW, "remove": HostRemoveWWW} {
		h, err := ParseHost(s)
		require.NoError(t, err)
		assert.Equal(t, want, h, s)
	}
	for s, want := range map[string]Slash{"": SlashKeep, "keep": SlashKeep, "add": SlashAdd, "remove": SlashRemove} {
		v, err := ParseSlash(s)
		require.NoError(t, err)
		assert.Equal(t, want, v, s)
	}
	for _, bad := range []string{"Add", "yes", "www", " add"} {
		_, err := ParseHost(bad)
		assert.Error(t, err, bad)
		_, err = ParseSlash(bad)
		assert.Error(t, err, bad)
	}
	for _, h := range []Host{HostKeep, HostAddWWW, HostRemoveWWW} {
		var back Host
		text, err := h.MarshalText()
		require.NoError(t, err)
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, h, back)
	}
	for _, s := range []Slash{SlashKeep, SlashAdd, SlashRemove} {
		var back Slash
		text, err := s.MarshalText()
		require.NoError(t, err)
		require.NoError(t, back.UnmarshalText(text))
		assert.Equal(t, s, back)
	}
	assert.Equal(t, "invalid(7)", Host(7).String())
	var h Host = HostAddWWW
	assert.Error(t, h.UnmarshalText([]byte("x")))
	assert.Equal(t, HostAddWWW, h, "a failed UnmarshalText leaves the value")
}

// TestListsDocumented holds the doc comments of Options.StripSessionIDs and
// Options.StripUTM in step with the lists the code uses.
func TestListsDocumented(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "options.go", nil, parser.ParseComments)
	require.NoError(t, err)
	pkg, err := doc.NewFromFiles(fset, []*ast.File{f}, "github.com/feed2sitemap/feed2sitemap/normalize")
	require.NoError(t, err)
	comments := map[string]string{}
	for _, typ := range pkg.Types {
		if typ.Name != "Options" {
			continue
		}
		st := typ.Decl.Specs[0].(*ast.TypeSpec).Type.(*ast.StructType)
		for _, field := range st.Fields.List {
			comments[field.Names[0].Name] = field.Doc.Text()
		}
	}
	check := func(field string, names []string) {
		words := map[string]bool{}
		for _, w := range strings.FieldsFunc(comments[field], func(r rune) bool {
			return r == ' ' || r == '\n' || r == ',' || r == ':' || r == '(' || r == ')' || r == '"'
		}) {
			words[strings.TrimSuffix(w, ".")] = true
		}
		for _, n := range names {
			assert.True(t, words[n], "%s: %q is not in its doc comment", field, n)
		}
	}
	check("StripSessionIDs", sessionIDs.names)
	check("StripUTM", trackingParams.names)
}

// TestNoAllocs checks that a URL in normal form costs no allocation.
func TestNoAllocs(t *testing.T) {
	for _, c := range []struct {
		opt Options
		in  string
	}{
		{Options{}, "https://www.example.com/blog/2024/05/some-article-title"},
		{Options{}, "https://www.example.com/search?q=sitemap&page=2"},
		{Options{StripUTM: true, StripSessionIDs: true}, "https://www.example.com/blog/post"},
		{Options{StripUTM: true, StripSessionIDs: true, StripParams: []string{"ref"}}, "https://www.example.com/search?q=sitemap&page=2"},
		{everything, "https://example.com/a/b?a=1&b=2"},
		{Options{WWW: HostAddWWW}, "https://www.example.com/a"},
		{Options{WWW: HostRemoveWWW}, "https://www.blog.example.com/a"},
		{Options{TrailingSlash: SlashAdd}, "https://example.com/a/b.html"},
	} {
		if n := testing.AllocsPerRun(100, func() { c.opt.URL(c.in) }); n != 0 {
			t.Errorf("URL(%q) with %+v: %v allocations", c.in, c.opt, n)
		}
	}
}

// TestConcurrentWWW runs the WWW options from several goroutines on
// alternating hosts (the public suffix answer is cached; run with -race).
func TestConcurrentWWW(t *testing.T) {
	cases := [][2]string{
		{"https://example.com/a", "https://www.example.com/a"},
		{"https://blog.example.com/a", "https://blog.example.com/a"},
		{"https://example.co.uk/a", "https://www.example.co.uk/a"},
		{"https://co.uk/a", "https://co.uk/a"},
	}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			ok := true
			for i := 0; i < 2000; i++ {
				c := cases[(i+g)%len(cases)]
				ok = ok && addWWW.URL(c[0]) == c[1]
			}
			done <- ok
		}()
	}
	for g := 0; g < 4; g++ {
		assert.True(t, <-done)
	}
}

func TestIsZero(t *testing.T) {
	assert.True(t, (*Options)(nil).IsZero())
	assert.True(t, (&Options{}).IsZero())
	assert.True(t, (&Options{StripParams: []string{}}).IsZero())
	for _, o := range []Options{
		{StripParams: []string{"ref"}}, {StripSessionIDs: true}, {StripUTM: true}, {HTTPS: true},
		{WWW: HostAddWWW}, {WWW: HostRemoveWWW}, {TrailingSlash: SlashAdd}, {TrailingSlash: SlashRemove}, {SortQuery: true},
	} {
		assert.False(t, o.IsZero(), "%+v", o)
	}
	// What IsZero says of options, URL gives: Key's forms.
	for _, loc := range []string{"https://a.example/a/../b?", "http://www.a.example/x?utm_source=y&b=1&a=2", "https://a.example/dir"} {
		assert.Equal(t, Key(loc), (&Options{}).URL(loc), loc)
	}
}
