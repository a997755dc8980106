package wasip2

import (
	"net/http"
	"testing"
)

func TestOriginOf(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://API.example.com/v1", "https://api.example.com:443"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://localhost", "http://localhost:80"},
		{"http://[::1]:9/x", "http://[::1]:9"},
		{"ftp://x", ""},
		{"/relative", ""},
	} {
		got, err := OriginOf(tc.in)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("OriginOf(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCredentialApply(t *testing.T) {
	c := &Credential{Origin: "https://api.example.com:443", Header: "X-Api-Key", Placeholder: "PH", Secret: "s3cret"}
	for _, tc := range []struct {
		name, origin string
		in, want     http.Header
	}{
		{"endpoint", "https://api.example.com:443",
			http.Header{"X-Api-Key": {"guest value"}, "Authorization": {"Bearer PH"}},
			http.Header{"X-Api-Key": {"s3cret"}, "Authorization": {"Bearer s3cret"}}},
		{"other port", "https://api.example.com:8443",
			http.Header{"Authorization": {"Bearer PH"}}, http.Header{"Authorization": {"Bearer PH"}}},
		{"other host", "https://evil.example:443",
			http.Header{"X-Api-Key": {"PH"}}, http.Header{"X-Api-Key": {"PH"}}},
		{"plain http", "http://api.example.com:443",
			http.Header{"X-Api-Key": {"PH"}}, http.Header{"X-Api-Key": {"PH"}}},
	} {
		req := &http.Request{Header: tc.in}
		c.apply(req, tc.origin)
		for k := range tc.want {
			if req.Header.Get(k) != tc.want.Get(k) {
				t.Errorf("%s: %s = %q, want %q", tc.name, k, req.Header.Get(k), tc.want.Get(k))
			}
		}
	}
}
