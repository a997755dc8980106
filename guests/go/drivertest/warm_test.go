package drivertest

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/guests/go/anthropic"
	"github.com/mur-go/mur/guests/go/driverkit"
	"github.com/mur-go/mur/guests/go/openai"
)

// TestWarmTakesEveryPath holds each driver's warm-up samples to the
// translation they are meant to exercise: a warm-up that fails early
// would leave the rest of a call's first-use cost in every call.
func TestWarmTakesEveryPath(t *testing.T) {
	for _, tc := range []struct {
		name    string
		p       driverkit.Provider
		s       driverkit.Samples
		config  string
		thought bool
	}{
		{"openai whole", openai.Provider{}, openai.Samples, `{"stream":false}`, false},
		{"openai stream", openai.Provider{}, openai.Samples, "", true},
		{"anthropic whole", anthropic.Provider{}, anthropic.Samples, `{"stream":false}`, true},
		{"anthropic stream", anthropic.Provider{}, anthropic.Samples, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := driverkit.Warm(tc.p, driverkit.Env{Config: tc.config}, tc.s)
			out := decode(t, r)
			if out["stop_reason"] != "tool_call" {
				t.Errorf("stop_reason %v, want tool_call: %s", out["stop_reason"], r.Data)
			}
			for _, want := range []string{`"text":"ok"`, `"name":"look"`, `"input":{"q":"y"}`, `"usage":`} {
				if !strings.Contains(r.Data, want) {
					t.Errorf("answer lacks %s: %s", want, r.Data)
				}
			}
			if tc.thought != strings.Contains(r.Data, `"thinking"`) {
				t.Errorf("thinking in answer %v, want %v: %s", !tc.thought, tc.thought, r.Data)
			}
		})
	}
}
