package policy

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// whatwgIDNA is domain-to-ASCII as the WHATWG URL parser runs it for a
// special URL (UTS #46, non-transitional, CheckBidi and CheckJoiners on,
// CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off), so a rule
// names the host a URL with the same text reaches.
func whatwgIDNA() *idna.Profile {
	return idna.New(
		idna.MapForLookup(),
		idna.BidiRule(),
		idna.Transitional(false),
		idna.StrictDomainName(false),
		idna.CheckHyphens(false),
		idna.VerifyDNSLength(false),
	)
}

// parseHost normalises a host the way the WHATWG host parser does for
// special schemes: IPv6 in brackets, percent-decoding, IDNA to punycode,
// forbidden characters, IPv4 in its numeric forms.
func parseHost(h string) (string, string) {
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", "invalid IPv6 address"
		}
		inner := h[1 : len(h)-1]
		if strings.ContainsAny(inner, "%") {
			return "", "invalid IPv6 address"
		}
		a, err := netip.ParseAddr(inner)
		if err != nil || !a.Is6() {
			return "", "invalid IPv6 address"
		}
		return "[" + ipv6String(a) + "]", ""
	}
	dec, ok := percentDecode(h)
	if !ok || !utf8.ValidString(dec) {
		return "", "invalid international domain name"
	}
	ascii, err := whatwgIDNA().ToASCII(dec)
	if err != nil || ascii == "" {
		return "", "invalid international domain name"
	}
	for i := 0; i < len(ascii); i++ {
		c := ascii[i]
		if c <= 0x20 || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", "invalid domain character"
		}
	}
	if endsInNumber(ascii) {
		v4, ok := parseIPv4(ascii)
		if !ok {
			return "", "invalid IPv4 address"
		}
		return v4, ""
	}
	return ascii, ""
}

func percentDecode(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(n))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String(), true
}

// endsInNumber is the WHATWG test for "this host is an IPv4 address".
func endsInNumber(h string) bool {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok
}

func ipv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
		if s == "" {
			return 0, true
		}
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 1 << 40, true // too large: the caller rejects it
		}
		return 0, false
	}
	return n, true
}

func parseIPv4(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return fmt.Sprintf("%d.%d.%d.%d", v>>24, v>>16&255, v>>8&255, v&255), true
}

// ipv6String serialises as the URL standard does: lower-case hex groups,
// the first longest run of two or more zero groups compressed, never a
// dotted IPv4 tail.
func ipv6String(a netip.Addr) string {
	b := a.As16()
	var g [8]uint16
	for i := range g {
		g[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	bestStart, bestLen := -1, 1
	for i := 0; i < 8; {
		if g[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && g[j] == 0 {
			j++
		}
		if j-i > bestLen {
			bestStart, bestLen = i, j-i
		}
		i = j
	}
	var sb strings.Builder
	for i := 0; i < 8; i++ {
		if i == bestStart {
			sb.WriteString("::")
			i += bestLen - 1
			continue
		}
		if i > 0 && i != bestStart+bestLen {
			sb.WriteByte(':')
		}
		sb.WriteString(strconv.FormatUint(uint64(g[i]), 16))
	}
	return sb.String()
}
