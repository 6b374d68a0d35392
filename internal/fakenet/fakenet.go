// Package fakenet plays DNS and routing for tests of the remote-host
// policy (fetch.Policy): host names resolve to the addresses a test gives,
// connections to some addresses are routed to loopback servers, and every
// dial is recorded, so that a test can map a public name to 127.0.0.1 or
// a name to 169.254.169.254 and assert that nothing but loopback was ever
// connected to.
package fakenet

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"sync"

	"github.com/feed2sitemap/feed2sitemap/fetch"
)

// Net is a fake network. Its zero value is not usable; call New.
type Net struct {
	mu     sync.Mutex
	names  map[string][]string // host -> addresses, one per look-up in turn, the last kept
	looked map[string]int
	routes map[string]string // "ip:port" -> "127.0.0.1:port"
	dialed []string
}

// New returns a network with no names and no routes.
func New() *Net {
	return &Net{names: map[string][]string{}, looked: map[string]int{}, routes: map[string]string{}}
}

// Name makes host resolve to addrs, the first on the first look-up, the
// second on the next (a DNS rebinding), and so on, the last one from then
// on.
func (n *Net) Name(host string, addrs ...string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.names[host] = addrs
}

// Route sends connections to from ("ip:port") to to, a loopback address.
func (n *Net) Route(from, to string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.routes[from] = to
}

// Policy returns p with its look-ups and dials on the fake network.
// Dials of a loopback address go there; dials of any other address fail
// unless routed.
func (n *Net) Policy(p fetch.Policy) fetch.Policy {
	p.LookupIP, p.Dial = n.lookup, n.dial
	return p
}

// Dialed returns the addresses dialed so far, in order.
func (n *Net) Dialed() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.dialed...)
}

func (n *Net) lookup(_ context.Context, host string) ([]netip.Addr, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	addrs, ok := n.names[host]
	if !ok || len(addrs) == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	i := min(n.looked[host], len(addrs)-1)
	n.looked[host]++
	a, err := netip.ParseAddr(addrs[i])
	if err != nil {
		return nil, err
	}
	return []netip.Addr{a}, nil
}

func (n *Net) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	n.mu.Lock()
	n.dialed = append(n.dialed, addr)
	to, ok := n.routes[addr]
	n.mu.Unlock()
	if !ok {
		ap, err := netip.ParseAddrPort(addr)
		if err != nil || !ap.Addr().IsLoopback() {
			return nil, fmt.Errorf("fakenet: no route to %s", addr)
		}
		to = addr
	}
	var d net.Dialer
	return d.DialContext(ctx, network, to)
}
