package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/serve/mcp"
)

func TestCanonicalInput(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{``, `{}`, true},
		{`null`, `{}`, true},
		{` {"b":1, "a":"<&>"} `, `{"a":"<&>","b":1}`, true},
		{`{"n":1.50e3}`, `{"n":1.50e3}`, true},
		{`[1]`, ``, false},
		{`"x"`, ``, false},
		{`{} {}`, ``, false},
		{`{}}`, ``, false},
		{`{`, ``, false},
	}
	for _, tt := range tests {
		got, err := mcp.CanonicalInput(json.RawMessage(tt.in))
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("CanonicalInput(%q) = %q, %v; want %q (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

// The arguments are a client's bytes: whatever they are, the input
// handed to dispatch is one compact JSON object, already canonical.
func FuzzCanonicalInput(f *testing.F) {
	for _, s := range []string{``, `null`, `{"a":1}`, `{"b":[1,{"c":null}],"a":"\u00e9"}`, `[]`, `{"a":1e999}`, `{} x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := mcp.CanonicalInput(b)
		if err != nil {
			return
		}
		// Numbers are kept as written, so they are read as written.
		dec := json.NewDecoder(strings.NewReader(got))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil || m == nil {
			t.Fatalf("CanonicalInput(%q) = %q, not a JSON object: %v", b, got, err)
		}
		again, err := mcp.CanonicalInput(json.RawMessage(got))
		if err != nil || again != got {
			t.Fatalf("CanonicalInput is not stable: %q then %q (%v)", got, again, err)
		}
	})
}
