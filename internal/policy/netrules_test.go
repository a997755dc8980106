package policy

import (
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestParseNetRule(t *testing.T) {
	for _, tc := range []struct {
		entry, want, err string
	}{
		{"https://api.example.com", "https://api.example.com:443", ""},
		{"HTTPS://API.Example.COM/", "https://api.example.com:443", ""},
		{"http://localhost:11434", "http://localhost:11434", ""},
		{"api.example.com", "api.example.com", ""},
		{"localhost:11434", "localhost:11434", ""},
		{"example.com:80", "example.com", ""},
		{"example.com:443", "example.com:443", ""},
		{"[::1]:8080", "[::1]:8080", ""},
		{"[0:0::1]", "[::1]", ""},
		{"  x.com/  ", "x.com", ""},
		{"https://u:p@h.com", "https://h.com:443", ""},
		{"0x7f.1", "127.0.0.1", ""},
		{"bücher.de", "xn--bcher-kva.de", ""},
		{"BÜCHER.de", "xn--bcher-kva.de", ""},
		{"faß.de", "xn--fa-hia.de", ""},
		{"\uff45xample.test", "example.test", ""},
		{"https://EXAMPLE\uff0etest", "https://example.test:443", ""},
		{"ex\u00adample.test:8080", "example.test:8080", ""},
		{"o\ufb03ce.test", "office.test", ""},
		{"xn--a.test", "", "invalid host allow entry: invalid international domain name"},
		{"*.example.com", "", "'*' is not rule syntax: a rule names one exact host and there are no wildcards; list each host, e.g. https://api.example.com"},
		{"https://*.example.com:8443", "", "'*' is not rule syntax: a rule names one exact host and there are no wildcards; list each host, e.g. https://api.example.com"},
		{"%2a.example.com", "", "'*' is not rule syntax: a rule names one exact host and there are no wildcards; list each host, e.g. https://api.example.com"},
		{"*", "", "'*' is not rule syntax: a rule names one exact host and there are no wildcards; list each host, e.g. https://api.example.com"},
		{"https://x.com/api", "", "URL allow entries must not include path, query, or fragment"},
		{"https://x.com?a", "", "URL allow entries must not include path, query, or fragment"},
		{"https://x.com#", "", "URL allow entries must not include path, query, or fragment"},
		{"x.com/p", "", "host allow entries must be host or host:port only"},
		{"x.com?", "", "host allow entries must be host or host:port only"},
		{"ftp://x.com", "", "unsupported URL scheme 'ftp' (expected http or https)"},
		{"", "", "entry must not be empty"},
		{"   ", "", "entry must not be empty"},
		{"x.com:70000", "", "invalid host allow entry: invalid port number"},
		{"::1", "", "invalid host allow entry: invalid port number"},
		{"a b.com", "", "invalid host allow entry: invalid domain character"},
		{"https://", "", "invalid URL: empty host"},
		{"1.2.3.256", "", "invalid host allow entry: invalid IPv4 address"},
	} {
		r, err := ParseNetRule(tc.entry)
		if tc.err != "" {
			var re *diag.Error
			if !errors.As(err, &re) || !strings.HasSuffix(re.Msg, "': "+tc.err) || re.Code != "E-CAP-001" {
				t.Errorf("%q: err %v, want %q", tc.entry, err, tc.err)
			}
			continue
		}
		if err != nil || r.String() != tc.want {
			t.Errorf("%q: got %q err %v, want %q", tc.entry, r.String(), err, tc.want)
		}
	}
	_, err := ParseNetRule("ftp://x")
	if got := err.Error(); got != "invalid network allow entry 'ftp://x': unsupported URL scheme 'ftp' (expected http or https)" {
		t.Errorf("message %q", got)
	}
}

func TestNetRuleMatching(t *testing.T) {
	rules, err := ParseNetRules([]string{"https://api.example.com", "localhost:8080", "example.org"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		scheme, host string
		port         uint16
		want         bool
	}{
		{"https", "api.example.com", 443, true},
		{"https", "api.example.com", 8443, false},
		{"http", "api.example.com", 80, false},
		{"http", "localhost", 8080, true},
		{"https", "localhost", 8080, true},
		{"http", "localhost", 8081, false},
		{"http", "example.org", 1234, true},
		{"http", "www.example.org", 80, false},
	} {
		if got := rules.AllowRequest(tc.scheme, tc.host, tc.port); got != tc.want {
			t.Errorf("%s://%s:%d = %v", tc.scheme, tc.host, tc.port, got)
		}
	}
	if Rules(nil).AllowRequest("http", "x", 80) {
		t.Error("empty rules allow")
	}
	// The rule means the host UTS #46 maps its text to, never the
	// punycode of the unmapped text.
	mapped, err := ParseNetRules([]string{"\uff45xample.test"})
	if err != nil {
		t.Fatal(err)
	}
	if !mapped.AllowRequest("http", "example.test", 80) || mapped.AllowRequest("http", "xn--xample-hy68a.test", 80) {
		t.Errorf("fullwidth rule admits the wrong host: %v", mapped)
	}
}

// FuzzParseNetRule: the parser never panics, errors always carry the
// entry and a reason, and what it accepts is normalised (re-parsing the
// rendering gives the same rule).
func FuzzParseNetRule(f *testing.F) {
	for _, s := range []string{"https://api.example.com", "localhost:11434", "[::1]:8080", "x.com/p", "0x7f.1", "bücher.de", "http://a@b:1/#"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		r, err := ParseNetRule(entry)
		if err != nil {
			var re *diag.Error
			if !errors.As(err, &re) || !strings.HasPrefix(re.Msg, "invalid network allow entry '"+entry+"': ") || strings.HasSuffix(re.Msg, ": ") {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		if r.Host == "" || strings.ToLower(r.Host) != r.Host {
			t.Fatalf("%q: host %q", entry, r.Host)
		}
		if r.Scheme != "" && r.Scheme != "http" && r.Scheme != "https" {
			t.Fatalf("%q: scheme %q", entry, r.Scheme)
		}
		if r.Scheme != "" && !r.HasPort {
			t.Fatalf("%q: URL rule without a port", entry)
		}
	})
}
