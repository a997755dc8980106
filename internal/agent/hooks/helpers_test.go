package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

func TestMain(m *testing.M) { os.Exit(testguest.Main(m)) }

var guests testguest.Guests

// The hook doubles of this package (guests/README.md).
const (
	hookAnswer050 = "hook-answer-050"
	hookAnswer020 = "hook-answer-020"
	hookErrs      = "hook-errs"
	hookInfer020  = "hook-infer-020"
	hookInfer040  = "hook-infer-040"
)

// hook is one staged hook of a test session.
type hook struct {
	name, guest string
	contract    manifest.HookContract
	overflow    string
	scope       string
	net         policy.Rules
	limits      component.Limits
}

func blocking(name, guest string) hook {
	return hook{name: name, guest: guest, contract: manifest.HookContract{ExecutionMode: "blocking", CommitPolicy: "none"}}
}

func (h hook) bound(b string) hook { h.contract.Binding = b; return h }
func (h hook) async(overflow string) hook {
	h.contract.ExecutionMode, h.overflow = "async", overflow
	return h
}
func (h hook) deadline(d time.Duration) hook { h.limits.Deadline = d; return h }

// staged lays out a session dir the way staging does, stages hs and
// is the hooks' view of it.
func staged(t testing.TB, hs ...hook) stage.HookView {
	t.Helper()
	root := t.TempDir()
	acc := filepath.Join(root, "project")
	sess := filepath.Join(acc, "workdir", "ses_0123456789abcdef0123456789abcdef")
	s := stage.HookView{Workdir: stage.NewWorkdir(acc, sess, nil),
		Capsule: &manifest.Capsule{Name: "cap", Version: "1.0.0", Inference: &manifest.Inference{Transport: "http", Model: "m-1"}}}
	for _, d := range []string{s.ToolsDir, s.OutDir, s.LogsDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, h := range hs {
		hc := h.contract
		a := &stage.Artifact{Name: h.name, Version: "0.1.0", Role: stage.RoleHook, Kind: stage.KindWasm,
			Ref: &manifest.ArtifactRef{Name: h.name, Runtime: "hook", OnOverflow: h.overflow}, Hook: &hc,
			Component: guests.Compile(t, h.guest)}
		a.Grants.Limits = h.limits
		a.Grants.Network = h.net
		if h.scope != "" {
			a.Grants.Scope = h.scope
			a.Grants.Preopen = filepath.Join(acc, h.scope)
			if err := os.MkdirAll(a.Grants.Preopen, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		s.Artifacts = append(s.Artifacts, a)
	}
	return s
}

// driver is a driver double as the loop would call it.
func driver(t *testing.T, guest string) tools.Tool {
	t.Helper()
	l, err := host.NewToolLinker()
	if err != nil {
		t.Fatal(err)
	}
	d, err := tools.NewWasmTool(tools.WasmToolConfig{Name: "drv", Component: guests.Compile(t, guest), Linker: l,
		Limits: component.Limits{Deadline: 30 * time.Second, MaxMemoryBytes: 64 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func startRuntime(t *testing.T, o Options) *Runtime {
	t.Helper()
	if o.Home == "" {
		o.Home = t.TempDir()
	}
	if o.Getenv == nil {
		o.Getenv = func(string) (string, bool) { return "", false }
	}
	r, err := New(context.Background(), o)
	if err != nil {
		t.Fatalf("hooks.New: %v", err)
	}
	t.Cleanup(func() { r.Close(context.Background()) })
	return r
}

// onStage is s as staging hands it to on-stage; kept receives the
// shell-tool manifests the hooks keep.
func onStage(s stage.HookView) (_ stage.HookView, kept map[string]string) {
	kept = map[string]string{}
	s.SetShellManifest = func(name string, content []byte) error { kept[name] = string(content); return nil }
	return s, kept
}

// hookLog is logs/hook-<name>.log split into lines ("" when absent).
func hookLog(t *testing.T, s stage.HookView, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(s.LogsDir, "hook-"+name+".log"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func bootstrapLog(t *testing.T, s stage.HookView) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(s.LogsDir, stage.BootstrapLog))
	return string(b)
}

var sessionCtx = agent.SessionContext{CapsuleName: "cap", CapsuleVersion: "1.0.0", SessionID: "ses_x", Model: "m-1"}

// hookFuture exports a lifecycle version this runtime does not host.
const hookFuture = "hook-future"

func agentTaskStart(id string) agent.TaskStartEvent {
	return agent.TaskStartEvent{TaskID: id, ContextID: "ctx_" + id, Source: "a2a", InputBytes: 5}
}

func agentTaskEnd(id string) agent.TaskEndEvent {
	return agent.TaskEndEvent{TaskID: id, ExitStatus: "ok"}
}

func agentSessionEnd() agent.SessionEndEvent { return agent.SessionEndEvent{ExitStatus: "ok"} }
