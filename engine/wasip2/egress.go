package wasip2

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Resolver looks up the addresses of a host name; *net.Resolver (and so
// net.DefaultResolver) satisfies it. Tests inject a fake one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// EgressDeniedError is a connection the egress policy refused: no rule
// admits the host and port (Rule is ""), or the host resolved to an
// address no rule may reach by name. The guest sees HTTP-request-denied.
type EgressDeniedError struct {
	Host   string     // as the request spelled it
	Port   uint16     // the port asked for
	Addr   netip.Addr // the refused address it resolved to
	Rule   string     // the allow entry that admitted the name
	Reason string     // which class of address, e.g. "link-local"
}

func (e *EgressDeniedError) Error() string {
	if e.Rule == "" {
		return fmt.Sprintf("network policy: %s is not in the network allow list", net.JoinHostPort(e.Host, strconv.Itoa(int(e.Port))))
	}
	return fmt.Sprintf("network policy: %s resolved to %s (%s), which rule '%s' does not name; only a rule naming the address itself reaches it",
		e.Host, e.Addr, e.Reason, e.Rule)
}

// Egress is the single way a guest's network traffic leaves the host:
// wasi:http's outgoing handler and murmur:message/send both dial through
// it. It checks names against the policy, resolves each name once, checks
// every address that answer holds, and connects to a checked address only,
// so a second DNS answer can never be the one used (see RATIONALE.md,
// "Egress").
type Egress struct {
	policy   NetPolicy
	resolver Resolver
	log      *slog.Logger
}

// NewEgress returns the egress enforcing p; a nil p admits nothing. A nil
// resolver uses net.DefaultResolver; a nil logger uses slog.Default().
func NewEgress(p NetPolicy, r Resolver, log *slog.Logger) *Egress {
	if r == nil {
		r = net.DefaultResolver
	}
	if log == nil {
		log = slog.Default()
	}
	return &Egress{policy: p, resolver: r, log: log}
}

// Allows reports whether the policy admits scheme://host:port by name (no
// DNS); host is as the request spells it, IPv6 in brackets.
func (e *Egress) Allows(scheme, host string, port uint16) bool {
	return e.policy != nil && e.policy.AllowRequest(strings.ToLower(scheme), strings.ToLower(host), port)
}

// AdmitsDial reports whether the policy admits a connection to host:port
// by name, as DialContext asks before it resolves anything; host is
// lower-cased, IPv6 in brackets.
func (e *Egress) AdmitsDial(host string, port uint16) bool {
	_, ok := e.admitDial(host, port)
	return ok
}

func (e *Egress) admitDial(host string, port uint16) (string, bool) {
	if e.policy == nil {
		return "", false
	}
	return e.policy.AdmitDial(host, port)
}

// Transport returns an HTTP transport that connects only through e: no
// proxy from the environment (that would route around the rules), HTTP/2
// when offered. tlsConf may be nil for the system roots; TLS verifies the
// host name of the request, not the pinned address.
func (e *Egress) Transport(tlsConf *tls.Config) *http.Transport {
	return &http.Transport{
		Proxy:               nil,
		ForceAttemptHTTP2:   true,
		DialContext:         e.DialContext,
		TLSClientConfig:     tlsConf,
		TLSHandshakeTimeout: 30 * time.Second,
		MaxIdleConnsPerHost: 16,
	}
}

// DialContext connects to addr ("host:port") if the policy admits the host and
// port and every address the host resolves to passes admitAddr. It dials
// the checked addresses themselves, in the resolver's order.
func (e *Egress) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("network policy: %w", err)
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("network policy: invalid port in %q: %w", addr, err)
	}
	ruleHost := strings.ToLower(host)
	if strings.Contains(ruleHost, ":") {
		ruleHost = "[" + ruleHost + "]"
	}
	rule, ok := e.admitDial(ruleHost, uint16(port))
	if !ok {
		return nil, &EgressDeniedError{Host: host, Port: uint16(port)}
	}
	addrs, literal, err := e.resolve(ctx, network, host)
	if err != nil {
		return nil, err
	}
	for _, a := range addrs {
		if reason := deniedByName(a); reason != "" && !literal {
			derr := &EgressDeniedError{Host: host, Port: uint16(port), Addr: a, Rule: rule, Reason: reason}
			e.log.Warn("egress refused", "host", host, "addr", a.String(), "class", reason, "rule", rule)
			return nil, derr
		}
	}
	d := net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	var errs []error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// resolve returns host's addresses from exactly one lookup; an address
// literal is its own answer and reports literal.
func (e *Egress) resolve(ctx context.Context, network, host string) ([]netip.Addr, bool, error) {
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return nil, true, fmt.Errorf("network policy: scoped address %s is not reachable", host)
		}
		return []netip.Addr{a.Unmap()}, true, nil
	}
	ipNet := "ip"
	switch network {
	case "tcp4":
		ipNet = "ip4"
	case "tcp6":
		ipNet = "ip6"
	}
	addrs, err := e.resolver.LookupNetIP(ctx, ipNet, host)
	if err != nil {
		return nil, false, err
	}
	if len(addrs) == 0 {
		return nil, false, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = a.Unmap()
	}
	return out, false, nil
}
