package sandbox

import (
	"context"
	"log/slog"
	"net"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// maxEgressPorts is how many listeners a namespace gets (§3.4).
const maxEgressPorts = 16

// bindingLifetime is how long a DNS answer lets its addresses through.
const bindingLifetime = 300 * time.Second

// EgressRule is one capabilities.network.allow rule as the subprocess
// namespace applies it: host and port (HasPort false: any port; the
// listeners are then 80 and 443). The scheme plays no part: bytes are
// spliced, never parsed.
type EgressRule struct {
	Host    string
	Port    uint16
	HasPort bool
}

// Egress is the runtime's half of subprocess egress (security.md §3.4):
// a contained subprocess's namespace has only lo, every address routed
// to it, listeners on the allowed ports and on UDP 53, and this serves
// them from the host namespace. A TCP connection goes upstream, spliced
// byte for byte, only when its original destination is an address a DNS
// answer bound to an allowed name in the last 300 s, or one an allowed
// host resolved to at launch; a DNS query is answered only for an
// allowed name (REFUSED otherwise, IP literals never). One Egress serves
// every subprocess of a session.
type Egress struct {
	Rules []EgressRule
	// Resolver resolves allowed names; nil is net.DefaultResolver.
	Resolver interface {
		LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
	}
	// Log receives refused connections and queries; nil discards.
	Log *slog.Logger

	once      sync.Once
	mu        sync.Mutex
	launchIPs map[netip.Addr][]string
	bindings  map[netip.Addr][]binding
}

type binding struct {
	name  string
	until time.Time
}

// Ports are the listeners' ports: each rule's, 80 and 443 for a rule
// without one; deduplicated, ascending, at most 16.
func (e *Egress) Ports() []uint16 {
	var ports []uint16
	for _, r := range e.Rules {
		if r.HasPort {
			ports = append(ports, r.Port)
		} else {
			ports = append(ports, 80, 443)
		}
	}
	slices.Sort(ports)
	ports = slices.Compact(ports)
	return ports[:min(len(ports), maxEgressPorts)]
}

func (e *Egress) resolver() interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
} {
	if e.Resolver != nil {
		return e.Resolver
	}
	return net.DefaultResolver
}

func (e *Egress) log() *slog.Logger {
	if e.Log != nil {
		return e.Log
	}
	return slog.New(slog.DiscardHandler)
}

// resolveAtLaunch resolves every allowed host once; an unresolvable one
// is skipped, never an error.
func (e *Egress) resolveAtLaunch(ctx context.Context) {
	e.once.Do(func() {
		ips := map[netip.Addr][]string{}
		for _, r := range e.Rules {
			if a, err := netip.ParseAddr(strings.Trim(r.Host, "[]")); err == nil {
				ips[a.Unmap()] = append(ips[a.Unmap()], r.Host)
				continue
			}
			lctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			addrs, err := e.resolver().LookupIPAddr(lctx, r.Host)
			cancel()
			if err != nil {
				continue
			}
			for _, a := range addrs {
				if ip, ok := netip.AddrFromSlice(a.IP); ok {
					ips[ip.Unmap()] = append(ips[ip.Unmap()], r.Host)
				}
			}
		}
		e.mu.Lock()
		e.launchIPs = ips
		e.mu.Unlock()
	})
}

// allowedName reports whether a rule names host (for DNS: any port).
func (e *Egress) allowedName(host string) bool {
	return slices.ContainsFunc(e.Rules, func(r EgressRule) bool { return r.Host == host })
}

// allowed decides a connection's original destination.
func (e *Egress) allowed(dst netip.AddrPort) bool {
	ip, port := dst.Addr().Unmap(), dst.Port()
	match := func(name string) bool {
		return slices.ContainsFunc(e.Rules, func(r EgressRule) bool { return r.Host == name && (!r.HasPort || r.Port == port) })
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	for _, b := range e.bindings[ip] {
		if now.Before(b.until) && match(b.name) {
			return true
		}
	}
	return slices.ContainsFunc(e.launchIPs[ip], match)
}

// bind records a DNS answer's addresses for name.
func (e *Egress) bind(name string, ips []netip.Addr) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.bindings == nil {
		e.bindings = map[netip.Addr][]binding{}
	}
	until := time.Now().Add(bindingLifetime)
	for _, ip := range ips {
		e.bindings[ip] = append(slices.DeleteFunc(e.bindings[ip], func(b binding) bool { return b.name == name }), binding{name, until})
	}
}

// addrs4 keeps the IPv4 answers: the namespace has no IPv6 route.
func addrs4(in []net.IPAddr) []netip.Addr {
	var out []netip.Addr
	for _, a := range in {
		if ip, ok := netip.AddrFromSlice(a.IP); ok && ip.Unmap().Is4() {
			out = append(out, ip.Unmap())
		}
	}
	return out
}
