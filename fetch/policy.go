package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/feed2sitemap/feed2sitemap/internal/termsafe"
)

// Class is the kind of network an address belongs to, for the remote-host
// policy. The classes are bits, so that a set of them is a Class too.
type Class uint8

// The address classes. Every class but Public is refused by default.
const (
	// Public is every address not in another class.
	Public Class = 1 << iota
	// Loopback is 127.0.0.0/8 and ::1.
	Loopback
	// LinkLocal is 169.254.0.0/16 (where clouds serve instance metadata)
	// and fe80::/10.
	LinkLocal
	// Private is 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, the shared
	// address space of carrier-grade NAT 100.64.0.0/10, 198.18.0.0/15,
	// 192.0.0.0/24, and the IPv6 unique local (fc00::/7) and site-local
	// (fec0::/10) addresses.
	Private
	// Unspecified is 0.0.0.0/8 and ::, which reach the local host.
	Unspecified
	// Multicast is multicast, the broadcast address and the reserved
	// 240.0.0.0/4.
	Multicast
)

// String names the class: "loopback", "link-local", "private",
// "unspecified", "multicast or broadcast", or "public".
func (c Class) String() string {
	switch c {
	case Public:
		return "public"
	case Loopback:
		return "loopback"
	case LinkLocal:
		return "link-local"
	case Private:
		return "private"
	case Unspecified:
		return "unspecified"
	case Multicast:
		return "multicast or broadcast"
	}
	return "mixed"
}

var (
	cgnat        = netip.MustParsePrefix("100.64.0.0/10")
	benchmarking = netip.MustParsePrefix("198.18.0.0/15")
	ietf         = netip.MustParsePrefix("192.0.0.0/24")
	thisNetwork  = netip.MustParsePrefix("0.0.0.0/8")
	reserved     = netip.MustParsePrefix("240.0.0.0/4")
	siteLocal    = netip.MustParsePrefix("fec0::/10")
	nat64        = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour    = netip.MustParsePrefix("2002::/16")
)

// Classify returns the class of ip. IPv6 forms that carry an IPv4 address
// (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64
// 64:ff9b::/96 and 6to4 2002::/16) are classified by that address.
func Classify(ip netip.Addr) Class {
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		b := ip.As16()
		switch {
		case nat64.Contains(ip), b == [16]byte{12: b[12], 13: b[13], 14: b[14], 15: b[15]} && !ip.IsUnspecified() && !ip.IsLoopback():
			ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		case sixToFour.Contains(ip):
			ip = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		}
	}
	switch {
	case ip.IsLoopback():
		return Loopback
	case ip.IsLinkLocalUnicast():
		return LinkLocal
	case ip.IsUnspecified() || thisNetwork.Contains(ip):
		return Unspecified
	case ip.IsMulticast() || ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}) || reserved.Contains(ip):
		return Multicast
	case ip.IsPrivate() || cgnat.Contains(ip) || benchmarking.Contains(ip) || ietf.Contains(ip) || siteLocal.Contains(ip):
		return Private
	}
	return Public
}

// Errors of the remote-host policy, wrapped by the errors of the requests
// it refuses.
var (
	// ErrAddressRefused is wrapped by the error of a request to a host
	// that resolves to a loopback, link-local, private, unspecified or
	// multicast address the policy does not allow.
	ErrAddressRefused = errors.New("fetch: address refused")
	// ErrOtherOrigin is wrapped by the error of a child (or a redirect of
	// one) on another origin than the index that lists it.
	ErrOtherOrigin = errors.New("fetch: another origin")
)

// Policy is the remote-host policy: which hosts remote inputs, the
// children of indexes and redirects may reach. The zero value is the
// default:
//
//   - A top-level input (a URL the user named) may be on any address. The
//     class of the address it is reached at (loopback, private, …) is then
//     allowed for everything fetched from it; the public class always is.
//   - Any other address class is refused, checked after DNS resolution on
//     every connection, so a public name that resolves to 127.0.0.1 counts
//     as loopback, and a redirect to such an address is refused too.
//   - A child sitemap is followed only on the origin (scheme, host and
//     port, a default port written or not) of the index that lists it, and
//     a redirect of a child to another origin is refused. The children of
//     an index without a location (read from standard input) must share
//     the origin of the first one.
//
// When the environment names an HTTP proxy, the proxy resolves the names:
// the policy then checks the addresses the names resolve to here, before
// the request.
type Policy struct {
	// AllowPrivate allows every address class.
	AllowPrivate bool
	// OtherHosts follows children, and redirects of children, to other
	// origins.
	OtherHosts bool
	// LookupIP resolves a host name; nil is net.DefaultResolver's
	// LookupNetIP. Tests map names to addresses with it.
	LookupIP func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to an address that passed the policy ("ip:port");
	// nil is a net.Dialer whose Control hook checks the address again.
	// Tests connect to a loopback server with it instead.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Scope applies the Policy to one top-level input and everything fetched
// from it: its children, theirs, and the redirects of all of them. It has
// a connection pool of its own, so that a connection made under one
// scope's allowances is never reused under another's. A Scope is safe for
// concurrent use.
type Scope struct {
	f   *Fetcher
	top string // the host of the top-level input, lower case

	mu      sync.Mutex
	allowed Class             // the classes allowed once the top-level host was reached
	reached bool              // the top-level host was reached
	anchor  string            // the origin of the first child of an index without a location
	finals  map[string]string // URLs fetched in the scope -> where redirects led
	proxies map[string]bool   // the proxies' addresses ("host:port")
	client  *http.Client
}

// NewScope returns a scope for the top-level input top: its host may be on
// any address. top is "" for an input without a location (standard
// input), whose children are then all checked.
func (f *Fetcher) NewScope(top string) *Scope {
	s := &Scope{f: f, allowed: Public, finals: map[string]string{}, proxies: map[string]bool{}}
	if u, err := url.Parse(top); err == nil && top != "" {
		s.top = hostKey(u.Hostname())
	}
	if f.opts.Client != nil {
		s.client = f.client
		return s
	}
	timeout := f.opts.Timeout
	s.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                 s.proxy,
			DialContext:           s.dial,
			TLSHandshakeTimeout:   min(timeout, DefaultConnectTimeout),
			ResponseHeaderTimeout: timeout,
			ForceAttemptHTTP2:     true,
			MaxIdleConnsPerHost:   8,
			// A run may hold many scopes, each with its own pool: idle
			// connections go soon.
			IdleConnTimeout: scopeIdleTimeout,
		},
		CheckRedirect: s.checkRedirect,
	}
	return s
}

// scopeIdleTimeout is how long a scope's connection stays open unused.
const scopeIdleTimeout = 10 * time.Second

// HTTPClient returns the scope's client, for requests other than GETs of
// inputs (IndexNow's POST): its connections follow the policy.
func (s *Scope) HTTPClient() *http.Client { return s.client }

// Fetch gets rawURL, the scope's top-level input, as Fetcher.Fetch does.
// Its connection is closed once the body was read: the inputs of a run
// are fetched one after another before any of their children, so that
// keeping it would hold a connection per input.
func (s *Scope) Fetch(ctx context.Context, rawURL string) (*Body, error) {
	b, err := s.f.fetch(ctx, s, rawURL)
	s.record(rawURL, b)
	if s.f.opts.Client == nil {
		s.client.CloseIdleConnections()
	}
	return b, err
}

// FetchChild gets loc, a child sitemap listed by the documents fetched
// from the URLs parents (an index, and where it was asked for when it was
// reached by a redirect), refusing it when the policy does: a child on
// another origin than its parents' final URLs, unless Policy.OtherHosts.
// With no parents (or only empty ones), the index had no location, and
// every child must be on the origin of the first one checked.
func (s *Scope) FetchChild(ctx context.Context, loc string, parents ...string) (*Body, error) {
	u, err := url.Parse(loc)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &Error{URL: loc, Err: errors.New("not an http or https URL")}
	}
	origins, err := s.childOrigins(u, parents)
	if err != nil {
		return nil, &Error{URL: loc, Err: err}
	}
	b, err := s.f.fetch(withOrigins(ctx, origins), s, loc)
	s.record(loc, b)
	return b, err
}

func (s *Scope) record(rawURL string, b *Body) {
	if b == nil || b.URL == nil {
		return
	}
	s.mu.Lock()
	s.finals[rawURL] = b.URL.String()
	s.mu.Unlock()
}

// parentOrigins returns the origins of the URLs parents and of where they
// led; s.mu is held.
func (s *Scope) parentOrigins(parents []string) []string {
	var origins []string
	for _, p := range parents {
		for _, raw := range []string{p, s.finals[p]} {
			if u, err := url.Parse(raw); err == nil && raw != "" {
				origins = append(origins, Origin(u))
			}
		}
	}
	return origins
}

// childOrigins refuses a child u on another origin than its parents, and
// returns the origins it may be fetched from, redirects included: u's and
// its parents' (nil when any).
func (s *Scope) childOrigins(u *url.URL, parents []string) (map[string]bool, error) {
	if s.f.opts.Policy.OtherHosts {
		return nil, nil
	}
	o := Origin(u)
	s.mu.Lock()
	defer s.mu.Unlock()
	origins := s.parentOrigins(parents)
	if slices.Contains(origins, o) {
		set := map[string]bool{}
		for _, p := range origins {
			set[p] = true
		}
		return set, nil
	}
	if len(origins) == 0 {
		if s.anchor == "" || s.anchor == o {
			s.anchor = o
			return map[string]bool{o: true}, nil
		}
		return nil, fmt.Errorf("%w: refused: it is not on %s, the origin of the first child of an index without a location", ErrOtherOrigin, s.anchor)
	}
	name := parents[slices.IndexFunc(parents, func(p string) bool { return p != "" })]
	return nil, fmt.Errorf("%w: refused: it is not on the origin of its index %s (scheme, host and port)", ErrOtherOrigin, termsafe.String(name))
}

// Origin returns the origin of u: "scheme://host:port", in lower case,
// with the scheme's default port written out, so that
// https://Example.com and https://example.com:443/ have the same one.
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	if n, err := strconv.Atoi(port); err == nil {
		port = strconv.Itoa(n)
	}
	return scheme + "://" + net.JoinHostPort(hostKey(u.Hostname()), port)
}

// hostKey is a host name as compared: lower case, without a final dot.
func hostKey(host string) string {
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

type originsKey struct{}

func withOrigins(ctx context.Context, set map[string]bool) context.Context {
	if set == nil {
		return ctx
	}
	return context.WithValue(ctx, originsKey{}, set)
}

// checkRedirect stops after MaxRedirects, and refuses a redirect of a
// child to another origin.
func (s *Scope) checkRedirect(req *http.Request, via []*http.Request) error {
	if err := checkRedirect(req, via); err != nil {
		return err
	}
	if set, ok := req.Context().Value(originsKey{}).(map[string]bool); ok && !set[Origin(req.URL)] {
		return fmt.Errorf("%w: refused a redirect to %s, another origin than the index's", ErrOtherOrigin, termsafe.String(req.URL.String()))
	}
	return nil
}

// proxy is the environment's proxy; a request through one has the
// addresses of its host checked here, as the proxy's are not.
func (s *Scope) proxy(req *http.Request) (*url.URL, error) {
	pu, err := http.ProxyFromEnvironment(req)
	if err != nil || pu == nil {
		return pu, err
	}
	host := req.URL.Hostname()
	ips, err := s.lookup(req.Context(), host)
	if err != nil {
		return nil, err
	}
	for _, ip := range ips {
		if err := s.allow(host, ip); err != nil {
			return nil, err
		}
	}
	port := pu.Port()
	if port == "" {
		port = map[string]string{"https": "443", "socks5": "1080"}[pu.Scheme]
		if port == "" {
			port = "80"
		}
	}
	s.mu.Lock()
	s.proxies[net.JoinHostPort(pu.Hostname(), port)] = true
	s.mu.Unlock()
	return pu, nil
}

func (s *Scope) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	if s.f.opts.Policy.LookupIP != nil {
		return s.f.opts.Policy.LookupIP(ctx, host)
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// allow returns an error unless the policy allows connecting to ip, an
// address of host.
func (s *Scope) allow(host string, ip netip.Addr) error {
	c := Classify(ip)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.reached && s.top != "" && hostKey(host) == s.top {
		// The top-level input, which the user named: the class of the
		// address it is reached at is allowed from now on.
		s.reached = true
		s.allowed |= c
		return nil
	}
	if s.allowed&c != 0 || s.f.opts.Policy.AllowPrivate {
		return nil
	}
	name := termsafe.String(host)
	if name != ip.String() {
		name += " resolves to " + ip.String() + ", which"
	}
	article := "a"
	if c == Unspecified {
		article = "an"
	}
	return fmt.Errorf("%w: %s is %s %s address, and the input was not on one", ErrAddressRefused, name, article, c)
}

// dial connects to addr, a "host:port" of a request, at one of the host's
// addresses the policy allows.
func (s *Scope) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	s.mu.Lock()
	viaProxy := s.proxies[addr]
	s.mu.Unlock()
	if viaProxy {
		return s.connect(ctx, network, addr, "")
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := s.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("no address for %s", host)
	}
	var first error
	for _, ip := range ips {
		err := s.allow(host, ip)
		if err == nil {
			var conn net.Conn
			if conn, err = s.connect(ctx, network, net.JoinHostPort(ip.String(), port), host); err == nil {
				return conn, nil
			}
		}
		if first == nil || errors.Is(first, ErrAddressRefused) && !errors.Is(err, ErrAddressRefused) {
			first = err
		}
	}
	return nil, first
}

// connect dials addr, an address that passed the policy, checking it again
// as the socket connects (host is "" for a proxy).
func (s *Scope) connect(ctx context.Context, network, addr, host string) (net.Conn, error) {
	if s.f.opts.Policy.Dial != nil {
		return s.f.opts.Policy.Dial(ctx, network, addr)
	}
	d := &net.Dialer{Timeout: min(s.f.opts.Timeout, DefaultConnectTimeout), KeepAlive: 30 * time.Second}
	if host != "" {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return err
			}
			return s.allow(host, ap.Addr())
		}
	}
	return d.DialContext(ctx, network, addr)
}
