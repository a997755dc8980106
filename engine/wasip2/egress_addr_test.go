package wasip2

import (
	"fmt"
	"net/netip"
	"testing"
)

func TestDeniedByName(t *testing.T) {
	cases := []struct {
		addr, want string
	}{
		{"169.254.169.254", "link-local"},
		{"169.254.0.1", "link-local"},
		{"fe80::1", "link-local"},
		{"fd00:ec2::254", "cloud metadata"},
		{"100.100.100.200", "cloud metadata"},
		{"168.63.129.16", "cloud metadata"},
		{"::ffff:169.254.169.254", "link-local"},
		{"64:ff9b::a9fe:a9fe", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"::", "unspecified"},
		{"255.255.255.255", "broadcast"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		// Reachable through a name (RATIONALE.md, "Egress").
		{"127.0.0.1", ""},
		{"::1", ""},
		{"10.0.0.1", ""},
		{"192.168.1.1", ""},
		{"fd12::1", ""},
		{"93.184.216.34", ""},
		{"2606:2800:220:1::1", ""},
	}
	for _, tc := range cases {
		if got := deniedByName(netip.MustParseAddr(tc.addr)); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// A refusal, however wrapped on its way out of net/http, reaches the
// guest as HTTP-request-denied.
func TestEgressDeniedIsRequestDenied(t *testing.T) {
	err := fmt.Errorf("dial: %w", &EgressDeniedError{Host: "metadata.test", Addr: netip.MustParseAddr("169.254.169.254"), Rule: "metadata.test", Reason: "link-local"})
	v, ok := httpErrValue(err)
	if !ok || v.Case != httpRequestDenied {
		t.Fatalf("%v → %v", err, v)
	}
}
