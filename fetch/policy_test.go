package fetch_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/internal/fakenet"
)

func TestClassify(t *testing.T) {
	for addr, want := range map[string]fetch.Class{
		"93.184.216.34":            fetch.Public,
		"2606:4700::1":             fetch.Public,
		"127.0.0.1":                fetch.Loopback,
		"127.255.0.9":              fetch.Loopback,
		"::1":                      fetch.Loopback,
		"::ffff:127.0.0.1":         fetch.Loopback,
		"169.254.169.254":          fetch.LinkLocal,
		"::ffff:169.254.169.254":   fetch.LinkLocal,
		"fe80::1":                  fetch.LinkLocal,
		"fe80::1%eth0":             fetch.LinkLocal,
		"10.1.2.3":                 fetch.Private,
		"172.16.0.1":               fetch.Private,
		"172.31.255.255":           fetch.Private,
		"192.168.1.1":              fetch.Private,
		"100.64.0.1":               fetch.Private,
		"100.127.255.254":          fetch.Private,
		"198.18.0.1":               fetch.Private,
		"fc00::1":                  fetch.Private,
		"fd12:3456::1":             fetch.Private,
		"fec0::1":                  fetch.Private,
		"::ffff:10.0.0.1":          fetch.Private,
		"64:ff9b::a9fe:a9fe":       fetch.LinkLocal, // NAT64 of 169.254.169.254
		"2002:7f00:1::1":           fetch.Loopback,  // 6to4 of 127.0.0.1
		"::7f00:1":                 fetch.Loopback,  // IPv4-compatible 127.0.0.1
		"0.0.0.0":                  fetch.Unspecified,
		"0.1.2.3":                  fetch.Unspecified,
		"::":                       fetch.Unspecified,
		"::ffff:0.0.0.0":           fetch.Unspecified,
		"224.0.0.1":                fetch.Multicast,
		"ff02::1":                  fetch.Multicast,
		"255.255.255.255":          fetch.Multicast,
		"240.0.0.1":                fetch.Multicast,
		"100.63.255.255":           fetch.Public,
		"172.32.0.1":               fetch.Public,
		"::ffff:93.184.216.34":     fetch.Public,
		"2001:db8::1":              fetch.Public,
		"64:ff9b::5db8:d822":       fetch.Public,
		"2002:5db8:d822::1":        fetch.Public,
		"::ffff:255.255.255.255":   fetch.Multicast,
		"::ffff:100.64.0.1":        fetch.Private,
		"::ffff:198.19.255.255":    fetch.Private,
		"::ffff:192.0.0.8":         fetch.Private,
		"::ffff:172.16.5.4":        fetch.Private,
		"::ffff:192.168.255.255":   fetch.Private,
		"::ffff:169.254.0.1":       fetch.LinkLocal,
		"::ffff:127.1.2.3":         fetch.Loopback,
		"::ffff:224.1.1.1":         fetch.Multicast,
		"::ffff:240.1.1.1":         fetch.Multicast,
		"::ffff:0.0.0.1":           fetch.Unspecified,
		"::ffff:8.8.8.8":           fetch.Public,
		"2606:4700:4700::1111":     fetch.Public,
		"2a00:1450:4001:80b::200e": fetch.Public,
	} {
		assert.Equal(t, want, fetch.Classify(netip.MustParseAddr(addr)), addr)
	}
}

func TestOrigin(t *testing.T) {
	origin := func(s string) string {
		u, err := url.Parse(s)
		require.NoError(t, err)
		return fetch.Origin(u)
	}
	assert.Equal(t, "https://example.com:443", origin("https://Example.COM/a"))
	assert.Equal(t, origin("https://example.com/a"), origin("https://example.com:443/b"))
	assert.Equal(t, origin("http://example.com/a"), origin("HTTP://example.com.:80/b"))
	assert.Equal(t, origin("http://[::1]:8080/"), origin("http://[::1]:08080/x"))
	assert.NotEqual(t, origin("http://example.com/a"), origin("https://example.com/a"))
	assert.NotEqual(t, origin("https://example.com/a"), origin("https://example.com:8443/a"))
	assert.NotEqual(t, origin("https://example.com/a"), origin("https://www.example.com/a"))
}

func TestPolicyLoopbackInput(t *testing.T) {
	// A top-level input on loopback allows loopback for what it lists,
	// on its own origin only unless OtherHosts; link-local and private
	// addresses stay refused, and are never connected to.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, list) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-metadata":
			http.Redirect(w, r, "http://metadata.example/latest/", http.StatusFound)
		case "/to-other":
			http.Redirect(w, r, other.URL+"/x", http.StatusFound)
		default:
			fmt.Fprint(w, list)
		}
	}))
	defer srv.Close()
	n := fakenet.New()
	n.Name("metadata.example", "169.254.169.254")
	n.Name("intranet.example", "10.1.2.3")
	n.Name("cgnat.example", "100.64.0.7")
	n.Name("mapped.example", "::ffff:192.168.0.1")
	n.Name("zero.example", "0.0.0.0")

	for _, tc := range []struct {
		policy fetch.Policy
		child  string
		err    error
		msg    string
	}{
		{fetch.Policy{}, srv.URL + "/child.txt", nil, ""},
		{fetch.Policy{}, other.URL + "/child.txt", fetch.ErrOtherOrigin, "is not on the origin of its index " + srv.URL + "/index.xml"},
		{fetch.Policy{OtherHosts: true}, other.URL + "/child.txt", nil, ""},
		{fetch.Policy{}, srv.URL + "/to-other", fetch.ErrOtherOrigin, "refused a redirect to " + other.URL + "/x"},
		{fetch.Policy{OtherHosts: true}, srv.URL + "/to-metadata", fetch.ErrAddressRefused, "metadata.example resolves to 169.254.169.254, which is a link-local address"},
		{fetch.Policy{OtherHosts: true}, "http://metadata.example/latest/meta-data/", fetch.ErrAddressRefused, "metadata.example resolves to 169.254.169.254, which is a link-local address"},
		{fetch.Policy{OtherHosts: true}, "http://169.254.169.254/latest/", fetch.ErrAddressRefused, "169.254.169.254 is a link-local address"},
		{fetch.Policy{OtherHosts: true}, "http://intranet.example/", fetch.ErrAddressRefused, "10.1.2.3, which is a private address"},
		{fetch.Policy{OtherHosts: true}, "http://cgnat.example/", fetch.ErrAddressRefused, "100.64.0.7, which is a private address"},
		{fetch.Policy{OtherHosts: true}, "http://mapped.example/", fetch.ErrAddressRefused, "::ffff:192.168.0.1, which is a private address"},
		{fetch.Policy{OtherHosts: true}, "http://zero.example/", fetch.ErrAddressRefused, "0.0.0.0, which is an unspecified address"},
		{fetch.Policy{OtherHosts: true}, "http://[fe80::1]/", fetch.ErrAddressRefused, "fe80::1 is a link-local address"},
	} {
		t.Run(fmt.Sprint(tc.child, tc.policy.OtherHosts), func(t *testing.T) {
			f, _ := newFetcher(t, fetch.Options{Policy: n.Policy(tc.policy)})
			sc := f.NewScope(srv.URL + "/index.xml")
			b, err := sc.Fetch(context.Background(), srv.URL+"/index.xml")
			require.NoError(t, err)
			b.Close()
			before := len(n.Dialed())
			b, err = sc.FetchChild(context.Background(), tc.child, srv.URL+"/index.xml")
			if tc.err == nil {
				require.NoError(t, err)
				b.Close()
				return
			}
			require.ErrorIs(t, err, tc.err)
			assert.Contains(t, err.Error(), tc.msg)
			for _, d := range n.Dialed()[before:] {
				ap := netip.MustParseAddrPort(d)
				assert.True(t, ap.Addr().IsLoopback(), "connected to %s", d)
			}
		})
	}
}

func TestPolicyPublicInput(t *testing.T) {
	// An index on a public address: a child (or a redirect) that resolves
	// to loopback is refused, by name, by rebinding the index's own name,
	// and by a redirect; the top-level input's own redirect too. With
	// AllowPrivate all of them are fetched.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Every request makes a connection, so that each is checked.
		w.Header().Set("Connection", "close")
		switch r.URL.Path {
		case "/to-loopback":
			http.Redirect(w, r, "http://127.0.0.1:"+r.Host[strings.LastIndex(r.Host, ":")+1:]+"/child.txt", http.StatusMovedPermanently)
		case "/to-private-name":
			http.Redirect(w, r, "http://intranet.example"+r.Host[strings.LastIndex(r.Host, ":"):]+"/child.txt", http.StatusFound)
		default:
			fmt.Fprint(w, list)
		}
	}))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	for _, allow := range []bool{false, true} {
		n := fakenet.New()
		n.Name("www.example", "203.0.113.10")
		n.Name("rebind.example", "203.0.113.11", "127.0.0.1")
		n.Name("evil.example", "127.0.0.1")
		n.Name("intranet.example", "10.1.2.3")
		n.Route("203.0.113.10:"+port, "127.0.0.1:"+port)
		n.Route("203.0.113.11:"+port, "127.0.0.1:"+port)
		n.Route("10.1.2.3:"+port, "127.0.0.1:"+port)
		f, _ := newFetcher(t, fetch.Options{Policy: n.Policy(fetch.Policy{OtherHosts: true, AllowPrivate: allow})})
		index := "http://www.example:" + port + "/index.xml"
		sc := f.NewScope(index)
		b, err := sc.Fetch(context.Background(), index)
		require.NoError(t, err)
		b.Close()
		for _, child := range []string{
			"http://evil.example:" + port + "/child.txt",
			"http://www.example:" + port + "/to-loopback",
			"http://www.example:" + port + "/to-private-name",
		} {
			b, err := sc.FetchChild(context.Background(), child, index)
			if allow {
				require.NoError(t, err, child)
				b.Close()
				continue
			}
			require.ErrorIs(t, err, fetch.ErrAddressRefused, child)
			assert.Regexp(t, `(127\.0\.0\.1|10\.1\.2\.3)(, which)? is a (loopback|private) address, and the input was not on one`, err.Error())
		}
		// A public name that resolves to loopback on its second look-up.
		rebind := "http://rebind.example:" + port + "/index.xml"
		sc = f.NewScope(rebind)
		b, err = sc.Fetch(context.Background(), rebind)
		require.NoError(t, err)
		b.Close()
		b, err = sc.FetchChild(context.Background(), "http://rebind.example:"+port+"/child.txt", rebind)
		if allow {
			require.NoError(t, err)
			b.Close()
		} else {
			require.ErrorIs(t, err, fetch.ErrAddressRefused)
			assert.Contains(t, err.Error(), "rebind.example resolves to 127.0.0.1, which is a loopback address")
		}
		// A top-level input's redirect to a private address.
		top := "http://www.example:" + port + "/to-private-name"
		b, err = f.Fetch(context.Background(), top)
		if allow {
			require.NoError(t, err)
			b.Close()
		} else {
			require.ErrorIs(t, err, fetch.ErrAddressRefused)
		}
	}
}

func TestPolicyIndexWithoutLocation(t *testing.T) {
	// The children of an index read from standard input share the origin
	// of the first one; loopback is refused, as nothing named it.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, list) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	n := fakenet.New()
	n.Name("a.example", "203.0.113.10")
	n.Name("b.example", "203.0.113.10")
	n.Route("203.0.113.10:"+port, "127.0.0.1:"+port)
	f, _ := newFetcher(t, fetch.Options{Policy: n.Policy(fetch.Policy{})})
	sc := f.NewScope("")
	b, err := sc.FetchChild(context.Background(), "http://a.example:"+port+"/1.txt")
	require.NoError(t, err)
	b.Close()
	_, err = sc.FetchChild(context.Background(), "http://b.example:"+port+"/2.txt")
	require.ErrorIs(t, err, fetch.ErrOtherOrigin)
	assert.Contains(t, err.Error(), "is not on http://a.example:"+port+", the origin of the first child of an index without a location")
	_, err = sc.FetchChild(context.Background(), "http://a.example:"+port+"/3.txt", "")
	require.NoError(t, err)
	sc = f.NewScope("")
	_, err = sc.FetchChild(context.Background(), srv.URL+"/1.txt")
	require.ErrorIs(t, err, fetch.ErrAddressRefused)
}

func TestRefusedIsNotRetried(t *testing.T) {
	n := fakenet.New()
	n.Name("intranet.example", "10.1.2.3")
	f, waits := newFetcher(t, fetch.Options{Retry: fetch.RetryPolicy{Retries: 3}, Policy: n.Policy(fetch.Policy{OtherHosts: true})})
	sc := f.NewScope("http://www.example/")
	_, err := sc.FetchChild(context.Background(), "http://intranet.example/x.xml", "http://www.example/")
	require.ErrorIs(t, err, fetch.ErrAddressRefused)
	assert.Empty(t, waits.d)
	assert.Empty(t, n.Dialed())
}

func TestRunDeadlineCause(t *testing.T) {
	// A context that ends with a cause: the error is the cause, naming
	// the URL, and the waits between attempts end with it too.
	release := make(chan struct{})
	defer close(release)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			w.Header().Set("Retry-After", "30")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	// The time-out of an attempt is far longer than the deadline.
	f := fetch.New(fetch.Options{Timeout: time.Hour, Retry: fetch.RetryPolicy{Retries: 5, MaxWait: time.Hour}, TempDir: t.TempDir()})
	cause := errors.New("the run's deadline passed")
	for _, path := range []string{"/silent", "/busy"} {
		ctx, cancel := context.WithTimeoutCause(context.Background(), 100*time.Millisecond, cause)
		_, err := f.Fetch(ctx, srv.URL+path)
		cancel()
		require.ErrorIs(t, err, cause)
		assert.Contains(t, err.Error(), srv.URL+path+": the run's deadline passed")
	}
	// Ended before the request: nothing is sent.
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	_, err := f.Fetch(ctx, srv.URL+"/silent")
	assert.Equal(t, srv.URL+"/silent: the run's deadline passed", err.Error())
}

func TestUnusableCacheDir(t *testing.T) {
	// A cache directory that is a file, or under one, or not writable, is
	// left out with one warning: the fetch succeeds without it.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		fmt.Fprint(w, list)
	}))
	defer srv.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	readOnly := filepath.Join(dir, "read-only")
	require.NoError(t, os.Mkdir(readOnly, 0o555))
	// An entry that cannot be put in place (a directory in its way): the
	// body read is still returned.
	blocked := filepath.Join(dir, "blocked")
	sum := sha256.Sum256([]byte(srv.URL + "/list.txt"))
	require.NoError(t, os.MkdirAll(filepath.Join(blocked, hex.EncodeToString(sum[:])+".cache", "x"), 0o755))
	cases := map[string]string{"a file": file, "under a file": filepath.Join(file, "cache"), "an entry blocked": blocked}
	if os.Geteuid() != 0 {
		cases["not writable"] = readOnly
	}
	for name, cacheDir := range cases {
		t.Run(name, func(t *testing.T) {
			var warnings []string
			f, _ := newFetcher(t, fetch.Options{CacheDir: cacheDir, Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			for range 2 {
				b, err := f.Fetch(context.Background(), srv.URL+"/list.txt")
				require.NoError(t, err)
				got, err := io.ReadAll(b)
				require.NoError(t, err)
				assert.Equal(t, list, string(got))
				b.Close()
			}
			require.Len(t, warnings, 1)
			assert.Contains(t, warnings[0], "fetch: the cache directory "+cacheDir+" cannot be used (")
			assert.Contains(t, warnings[0], "); fetching without the cache")
		})
	}
}
