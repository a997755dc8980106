package testguest

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
)

// DNS is a resolver for egress tests (it satisfies wasip2.Resolver): each
// name answers from a script, the i-th lookup getting the i-th answer (the
// last one repeats), so a second lookup can answer differently, as a
// rebinding attacker's server would. An answer may list several addresses,
// comma-separated.
type DNS struct {
	mu      sync.Mutex
	answers map[string][]string
	lookups map[string]int
}

// NewDNS returns a resolver answering from answers; other names do not
// exist.
func NewDNS(answers map[string][]string) *DNS {
	return &DNS{answers: answers, lookups: map[string]int{}}
}

// LookupNetIP answers host's next scripted answer.
func (d *DNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	script, ok := d.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	n := d.lookups[host]
	d.lookups[host]++
	var out []netip.Addr
	for _, s := range strings.Split(script[min(n, len(script)-1)], ",") {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

// Lookups is how often host was looked up.
func (d *DNS) Lookups(host string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lookups[host]
}
