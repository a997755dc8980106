package telemetry

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseHeaders(t *testing.T) {
	cases := []struct {
		in       string
		pairs    map[string]string
		problems []string
	}{
		{"", nil, nil},
		{"a=b", map[string]string{"a": "b"}, nil},
		{" a = b , c=d%2Ce ", map[string]string{"a": "b", "c": "d,e"}, nil},
		{"api-key=x=y", map[string]string{"api-key": "x=y"}, nil},
		{"a=", map[string]string{"a": ""}, nil},
		{",,a=1,,", map[string]string{"a": "1"}, nil},
		{"noequals", nil, []string{"without '='"}},
		{"=v", nil, []string{`"" is not an HTTP header name`}},
		{"bad key=v", nil, []string{`"bad key" is not an HTTP header name`}},
		{"k=%zz", nil, []string{"not percent-encoded correctly"}},
		{"k=a%0D%0AX-Injected:%201", nil, []string{"control character"}},
		{"k=a%00b", nil, []string{"control character"}},
		{"ok=1,k=a%0Ab", map[string]string{"ok": "1"}, []string{"control character"}},
	}
	for _, c := range cases {
		h := ParseHeaders(c.in)
		if !maps.Equal(h.Pairs, c.pairs) {
			t.Errorf("ParseHeaders(%q) pairs = %v, want %v", c.in, h.Pairs, c.pairs)
		}
		if len(h.Problems) != len(c.problems) {
			t.Errorf("ParseHeaders(%q) problems = %q, want %q", c.in, h.Problems, c.problems)
			continue
		}
		for i, p := range c.problems {
			if !strings.Contains(h.Problems[i], p) {
				t.Errorf("ParseHeaders(%q) problem %q, want %q", c.in, h.Problems[i], p)
			}
		}
	}
}

// FuzzParseHeaders: whatever the variable holds, the parser keeps only
// pairs an HTTP request can carry as they are (no header injection), and
// every value it keeps long enough to redact is among the secrets.
func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{"", "a=b", "authorization=Bearer%20xyz-secret", "k=%zz,=,x", "a=%0d%0a", " a = b , c = d ", "a=b=c,,d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := ParseHeaders(s)
		for k, v := range h.Pairs {
			if !fieldName(k) || !fieldValue(v) || strings.ContainsAny(v, "\r\n\x00") {
				t.Fatalf("kept %q=%q from %q", k, v, s)
			}
			if len(v) >= MinSecretLen && !slices.Contains(h.Secrets, v) {
				t.Fatalf("value %q of %q is not a secret", v, s)
			}
		}
		for _, sec := range h.Secrets {
			if len(sec) < MinSecretLen {
				t.Fatalf("secret %q shorter than %d", sec, MinSecretLen)
			}
		}
	})
}
