package policy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
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

const netRuleHint = "write https://host[:port], http://host[:port], host or host:port — no paths, queries or wildcards"

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
// runtime uses. A malformed entry is E-CAP-001 with Murmur's reason.
func ParseNetRule(entry string) (NetRule, error) {
	fail := func(reason string) (NetRule, error) {
		return NetRule{}, diag.New(manifest.CodeNetRule, "invalid network allow entry '%s': %s", entry, reason).WithHint(netRuleHint)
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
	// A '*' survives host parsing (URL hosts may hold one) but no request
	// is ever made to such a name, so the rule would silently admit
	// nothing.
	if strings.Contains(u.host, "*") {
		return fail("'*' is not rule syntax: a rule names one exact host and there are no wildcards; list each host, e.g. https://api.example.com")
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
