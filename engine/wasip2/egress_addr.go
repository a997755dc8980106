package wasip2

import "net/netip"

// deniedByName returns why a reached through a host name is refused, or ""
// when a name may lead there. Loopback and private addresses are allowed:
// see RATIONALE.md, "Egress".
func deniedByName(a netip.Addr) string {
	a = a.Unmap()
	// The well-known NAT64 prefix reaches the IPv4 address in its last
	// 32 bits.
	if netip.MustParsePrefix("64:ff9b::/96").Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte(b[12:]))
	}
	// Cloud instance-metadata and platform endpoints outside the
	// link-local ranges (169.254.169.254 is link-local already): they hand
	// out credentials to anything on the instance that asks.
	for _, m := range [...]string{
		"fd00:ec2::254",   // AWS IMDS over IPv6
		"100.100.100.200", // Alibaba Cloud metadata
		"168.63.129.16",   // Azure WireServer
	} {
		if a == netip.MustParseAddr(m) {
			return "cloud metadata"
		}
	}
	switch {
	case a.IsUnspecified() || a.Is4() && a.As4()[0] == 0:
		return "unspecified"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast"
	case a.IsMulticast():
		return "multicast"
	case a.IsLinkLocalUnicast():
		return "link-local"
	}
	return ""
}
