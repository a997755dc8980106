package policy

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mur-go/mur/manifest"
)

// NetRule is one Murmur network allow rule (security.md §3): a host,
// optionally pinned to a scheme and a port. Rules match by exact host
// string; there are no wildcards.
type NetRule struct {
	Scheme  string // "http", "https", or "" for either
	Host    string // lower-case; IPv6 in brackets; IDNA as punycode
	Port    uint16
	HasPort bool // false: any port
	Entry   string
}

func (r NetRule) String() string {
	s := r.Host
	if r.Scheme != "" {
		s = r.Scheme + "://" + s
	}
	if r.HasPort {
		s += ":" + strconv.Itoa(int(r.Port))
	}
	return s
}

// NetRuleError is a malformed allow entry; Error renders the message the
// CLI prints after "error[E-CAP-001]: ".
type NetRuleError struct {
	Entry  string
	Reason string
}

func (e *NetRuleError) Error() string {
	return fmt.Sprintf("invalid network allow entry '%s': %s", e.Entry, e.Reason)
}

// Code is the Murmur error code, E-CAP-001.
func (e *NetRuleError) Code() string { return manifest.CodeNetRule }

// ParseNetRules parses every entry, failing on the first malformed one.
func ParseNetRules(entries []string) (Rules, error) {
	rules := make(Rules, 0, len(entries))
	for _, e := range entries {
		r, err := ParseNetRule(e)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// ParseNetRule parses one entry: a URL "http[s]://host[:port][/]" (scheme
// and a concrete port fixed) or "host[:port]" (any scheme; a port of 80 is
// dropped, as parsing it as an http URL does, so it means any port). Host
// normalisation follows the WHATWG URL parser that Murmur's reference
// runtime uses.
func ParseNetRule(entry string) (NetRule, error) {
	fail := func(reason string) (NetRule, error) {
		return NetRule{}, &NetRuleError{Entry: entry, Reason: reason}
	}
	s := strings.TrimSpace(entry)
	if s == "" {
		return fail("entry must not be empty")
	}
	// URL parsers drop tabs and newlines anywhere in the input.
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	rule := NetRule{Entry: entry}
	urlForm := strings.Contains(s, "://")
	rest := s
	scheme := "http"
	if urlForm {
		i := strings.IndexByte(s, ':')
		scheme = strings.ToLower(s[:i])
		if !validScheme(scheme) {
			return fail("invalid URL: relative URL without a base")
		}
		if scheme != "http" && scheme != "https" {
			return fail(fmt.Sprintf("unsupported URL scheme '%s' (expected http or https)", scheme))
		}
		rest = strings.TrimLeft(s[i+1:], `/\`)
	}
	prefix := "invalid host allow entry: "
	if urlForm {
		prefix = "invalid URL: "
	}
	u, perr := parseAuthority(rest, scheme)
	if perr != "" {
		return fail(prefix + perr)
	}
	if urlForm {
		if u.query || u.fragment || (u.path != "" && u.path != "/") {
			return fail("URL allow entries must not include path, query, or fragment")
		}
		rule.Scheme = scheme
		rule.HasPort = true
		rule.Port = defaultPort(scheme)
		if u.hasPort {
			rule.Port = u.port
		}
	} else {
		if u.query || u.fragment || (u.path != "" && u.path != "/") {
			return fail("host allow entries must be host or host:port only")
		}
		rule.Port, rule.HasPort = u.port, u.hasPort
	}
	rule.Host = u.host
	return rule, nil
}

func validScheme(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

func defaultPort(scheme string) uint16 {
	if scheme == "https" {
		return 443
	}
	return 80
}

type parsedURL struct {
	host            string
	port            uint16
	hasPort         bool
	path            string
	query, fragment bool
}

// parseAuthority parses "[userinfo@]host[:port][path][?query][#fragment]"
// of a special URL; the error is the URL parser's wording.
func parseAuthority(s, scheme string) (parsedURL, string) {
	var u parsedURL
	end := strings.IndexAny(s, `/\?#`)
	if end < 0 {
		end = len(s)
	}
	auth, tail := s[:end], s[end:]
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:] // credentials are accepted and ignored
	}
	hostPart, portPart, hasColon := auth, "", false
	if strings.HasPrefix(auth, "[") {
		j := strings.IndexByte(auth, ']')
		if j < 0 {
			return u, "invalid IPv6 address"
		}
		hostPart = auth[:j+1]
		after := auth[j+1:]
		if after != "" {
			if after[0] != ':' {
				return u, "invalid port number"
			}
			portPart, hasColon = after[1:], true
		}
	} else if i := strings.IndexByte(auth, ':'); i >= 0 {
		hostPart, portPart, hasColon = auth[:i], auth[i+1:], true
	}
	if hasColon && portPart != "" {
		for _, c := range portPart {
			if c < '0' || c > '9' {
				return u, "invalid port number"
			}
		}
		n, err := strconv.ParseUint(strings.TrimLeft(portPart, "0")+"0", 10, 64)
		n /= 10
		if err != nil || n > 65535 {
			return u, "invalid port number"
		}
		if uint16(n) != defaultPort(scheme) {
			u.port, u.hasPort = uint16(n), true
		}
	}
	if hostPart == "" {
		return u, "empty host"
	}
	host, herr := parseHost(hostPart)
	if herr != "" {
		return u, herr
	}
	u.host = host
	path := tail
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		path = tail[:i]
		if tail[i] == '?' {
			u.query = true
			u.fragment = strings.Contains(tail[i:], "#")
		} else {
			u.fragment = true
		}
	}
	u.path = normalizePath(path)
	return u, ""
}

// normalizePath applies the URL parser's path rules that matter here:
// backslashes are slashes and "." / ".." segments are resolved.
func normalizePath(p string) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, `\`, "/")
	var out []string
	segs := strings.Split(p[1:], "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		switch strings.ToLower(seg) {
		case ".", "%2e":
			if last {
				out = append(out, "")
			}
		case "..", ".%2e", "%2e.", "%2e%2e":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
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
	ascii, ok := toASCII(dec)
	if !ok {
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

// toASCII lower-cases the host and encodes non-ASCII labels as punycode
// ("xn--..."). It does not apply the full UTS #46 mapping table.
func toASCII(h string) (string, bool) {
	labels := strings.Split(h, ".")
	for i, l := range labels {
		l = strings.ToLower(l)
		ascii := true
		for j := 0; j < len(l); j++ {
			if l[j] >= 0x80 {
				ascii = false
				break
			}
		}
		if !ascii {
			enc, ok := punycode(l)
			if !ok {
				return "", false
			}
			l = "xn--" + enc
		}
		labels[i] = l
	}
	return strings.Join(labels, "."), true
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

// punycode encodes one label per RFC 3492 (without the "xn--" prefix).
func punycode(label string) (string, bool) {
	const (
		base, tmin, tmax, skew, damp = 36, 1, 26, 38, 700
		initialBias, initialN        = 72, 128
	)
	runes := []rune(label)
	var out []byte
	for _, r := range runes {
		if r < 0x80 {
			out = append(out, byte(r))
		}
	}
	b := len(out)
	h := b
	if b > 0 {
		out = append(out, '-')
	}
	digit := func(d int) byte {
		if d < 26 {
			return byte('a' + d)
		}
		return byte('0' + d - 26)
	}
	adapt := func(delta, numPoints int, first bool) int {
		if first {
			delta /= damp
		} else {
			delta /= 2
		}
		delta += delta / numPoints
		k := 0
		for delta > ((base-tmin)*tmax)/2 {
			delta /= base - tmin
			k += base
		}
		return k + (base-tmin+1)*delta/(delta+skew)
	}
	n, delta, bias := initialN, 0, initialBias
	for h < len(runes) {
		m := int(^uint32(0) >> 1)
		for _, r := range runes {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		if (m - n) > (1<<30)/(h+1) {
			return "", false
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, r := range runes {
			if int(r) < n {
				delta++
			}
			if int(r) == n {
				q := delta
				for k := base; ; k += base {
					t := k - bias
					if t < tmin {
						t = tmin
					} else if t > tmax {
						t = tmax
					}
					if q < t {
						break
					}
					out = append(out, digit(t+(q-t)%(base-t)))
					q = (q - t) / (base - t)
				}
				out = append(out, digit(q))
				bias = adapt(delta, h+1, h == b)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return string(out), true
}

// Rules is the network allow list a guest runs with. It is the
// wasip2.NetPolicy Murmur's runtime hands the WASI host; an empty list
// admits nothing.
type Rules []NetRule

// AllowRequest reports whether a rule admits a request to
// scheme://host:port: the same host string, and the scheme and port where
// the rule pins them. host is as the request spells it (IPv6 in
// brackets); case does not matter.
func (rs Rules) AllowRequest(scheme, host string, port uint16) bool {
	scheme, host = strings.ToLower(scheme), strings.ToLower(host)
	for _, r := range rs {
		if r.Host == host && (r.Scheme == "" || r.Scheme == scheme) && (!r.HasPort || r.Port == port) {
			return true
		}
	}
	return false
}

// AdmitDial returns the entry of the first rule admitting host:port under
// either scheme: the egress dials after AllowRequest checked the scheme.
func (rs Rules) AdmitDial(host string, port uint16) (string, bool) {
	for _, r := range rs {
		if r.Host == host && (!r.HasPort || r.Port == port) {
			return r.Entry, true
		}
	}
	return "", false
}
