package hooks

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/policy"
)

const hookSandboxProbe = "hook-sandbox-probe"

// hostEnv is a host environment full of things a hook must never see.
func hostEnv(name string) (string, bool) {
	v, ok := map[string]string{
		"HOME": "/home/op", "AWS_SECRET_ACCESS_KEY": "sk", "MURMUR_INFERENCE_API_KEY": "key",
		"MURMUR_OTEL_ENDPOINT": "http://otel:4317", "MURMUR_FORMATION_ID": "form-1", "MURMUR_CASE_ID": "case-7",
	}[name]
	return v, ok
}

// A hostile hook sees no host environment, only the injected MURMUR_*
// variables in the spec's order (wit.md §6.7), and at on-stage only
// MURMUR_FORMATION_ID.
func TestSandboxEnvironment(t *testing.T) {
	s := staged(t, blocking("probe", hookSandboxProbe))
	r := startRuntime(t, Options{Staged: s, GuestIO: launch.GuestIO{Getenv: hostEnv}})
	rep, err := r.Compaction(context.Background(), compaction)
	if err != nil || rep == nil {
		t.Fatalf("compaction = %v, %v", rep, err)
	}
	want := []agent.HookMessage{{Role: "MURMUR_OTEL_ENDPOINT", Content: "http://otel:4317"},
		{Role: "MURMUR_FORMATION_ID", Content: "form-1"}, {Role: "MURMUR_CASE_ID", Content: "case-7"}}
	if !reflect.DeepEqual(rep.Messages, want) {
		t.Errorf("the hook's environment = %v, want %v", rep.Messages, want)
	}

	s, _ = onStage(s)
	if err := Stage(context.Background(), Options{Staged: s, GuestIO: launch.GuestIO{Getenv: hostEnv}}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(s.ToolsDir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !reflect.DeepEqual(names, []string{"MURMUR_FORMATION_ID"}) {
		t.Errorf("on-stage environment = %v, want only MURMUR_FORMATION_ID", names)
	}
}

// Nothing is preopened for a hook without a granted scope; with one, the
// hook gets <root>/<scope> as "." and nothing else.
func TestSandboxPreopens(t *testing.T) {
	for _, tt := range []struct {
		scope, want string
	}{{"", ""}, {"notes", "."}} {
		h := blocking("probe", hookSandboxProbe)
		h.scope = tt.scope
		s := staged(t, h)
		r := startRuntime(t, Options{Staged: s})
		arts := r.Inference(context.Background(), agent.InferenceEvent{})
		if len(arts) != 1 || arts[0].Content != tt.want {
			t.Errorf("scope %q: first preopen = %v, want %q", tt.scope, arts, tt.want)
		}
		if tt.scope != "" {
			if got := r.blocking[0].spec.grants.Dirs; len(got) != 1 || got[0].Host != filepath.Join(s.AccessibleDir, tt.scope) {
				t.Errorf("scope %q: dirs %+v", tt.scope, got)
			}
		}
	}
}

// wasi:http reaches only the hook's own network.allow (staging does not
// clamp a hook's rules to the ceiling, and an empty grant denies all).
func TestSandboxNetworkIsTheHooksOwn(t *testing.T) {
	rules, err := policy.ParseNetRules([]string{"api.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	with := blocking("net", hookAnswer050)
	with.net = rules
	s := staged(t, with, blocking("none", hookAnswer050))
	r := startRuntime(t, Options{Staged: s})
	for _, tt := range []struct {
		in    *instance
		allow bool
	}{{r.blocking[0], true}, {r.blocking[1], false}} {
		net := tt.in.spec.grants.Net
		if got := net != nil && net.AllowRequest("https", "api.example.com", 443); got != tt.allow {
			t.Errorf("%s: api.example.com allowed = %v", tt.in.spec.name, got)
		}
		if net != nil && net.AllowRequest("https", "evil.example.net", 443) {
			t.Errorf("%s: an unlisted host is allowed", tt.in.spec.name)
		}
	}
}

// A hostile hook's wasi:http request is refused by its own grant: with no
// network.allow every request is HTTP-request-denied at handle; a rule
// for the destination lets the same request through (to a closed
// loopback port: nothing is contacted).
func TestSandboxHTTPAttack(t *testing.T) {
	rules, err := policy.ParseNetRules([]string{"127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		rules policy.Rules
		want  []string
	}{{nil, []string{"P"}}, {rules, []string{"+", "G"}}} {
		h := blocking("http", hookHTTPProbe)
		h.net = tt.rules
		s := staged(t, h)
		r := startRuntime(t, Options{Staged: s})
		arts := r.Inference(context.Background(), agent.InferenceEvent{})
		if len(arts) != 1 || !slices.Contains(tt.want, arts[0].Content) {
			t.Errorf("rules %v: the hook's request ended %v, want one of %q (log %q)", tt.rules, arts, tt.want, hookLog(t, s, "http"))
		}
	}
}

const hookHTTPProbe = "hook-http-probe"
