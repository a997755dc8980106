package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// The first-party hooks built from guests/go (compact, guard).
const (
	hookCompact = "compact-go"
	hookGuard   = "guard-go"
)

// compact summarises through run-inference and answers one user message
// (the task, then the summary) that passes the tool-call safety net: no
// assistant tool calls, no tool messages.
func TestCompactHook(t *testing.T) {
	s := staged(t, blocking("compact", hookCompact).bound(fnCompaction))
	rec := &recorder{next: driver(t, testguest.DriverCanned)}
	r := startRuntime(t, Options{Staged: s, Driver: rec})
	history := []agent.HookMessage{
		{Role: "user", Content: `[{"type":"text","text":"count the lines of a.txt"}]`},
		{Role: "assistant", Content: `[{"type":"tool_call","id":"c1","name":"wc","input":{"path":"a.txt"}}]`},
		{Role: "tool", Content: `{"__murmur_tool_msg__":true,"tool_call_id":"c1","is_error":false,"body":[{"type":"text","text":"42 a.txt"}]}`},
	}
	model := "small-model"
	rep, err := r.Compaction(context.Background(), agent.CompactionEvent{Messages: history, SessionTokens: 900, Threshold: 0.99, Model: &model})
	if err != nil || rep == nil || len(rep.Messages) != 1 {
		t.Fatalf("compaction = %+v, %v", rep, err)
	}
	m := rep.Messages[0]
	var blocks []struct{ Type, Text string }
	if m.Role != "user" || json.Unmarshal([]byte(m.Content), &blocks) != nil || len(blocks) != 1 || blocks[0].Type != "text" {
		t.Fatalf("replacement message = %+v", m)
	}
	if !strings.HasPrefix(blocks[0].Text, "count the lines of a.txt\n\n---\n\n") || !strings.HasSuffix(blocks[0].Text, "compacted summary") {
		t.Errorf("replacement text = %q", blocks[0].Text)
	}
	if len(rec.requests) != 1 {
		t.Fatalf("%d driver calls", len(rec.requests))
	}
	var req struct {
		Model    string
		System   string
		Messages []struct{ Content []struct{ Text string } }
	}
	json.Unmarshal([]byte(rec.requests[0]), &req)
	text := req.Messages[0].Content[0].Text
	if req.Model != model || !strings.Contains(req.System, "compress") ||
		!strings.Contains(text, "[called tool wc with {\"path\":\"a.txt\"}]") || !strings.Contains(text, "tool result (c1): 42 a.txt") {
		t.Errorf("summary request = %s", rec.requests[0])
	}
	if recs := r.TakeInferences(); len(recs) != 1 || recs[0].Hook != "compact" || recs[0].Model != model {
		t.Errorf("inference records = %+v", recs)
	}

	// Without a driver the summary fails, and so does the compaction.
	r = startRuntime(t, Options{Staged: s})
	if _, err := r.Compaction(context.Background(), agent.CompactionEvent{Messages: history}); err == nil ||
		err.Error() != "compact: compact: summarising the history failed: "+ErrNotConfigured {
		t.Errorf("compaction without a driver: %v", err)
	}
}

// guard records the denied tools and commands it sees and sends the task
// back with them at on-task-end; with no readable policy it fails closed.
func TestGuardHook(t *testing.T) {
	h := blocking("guard", hookGuard)
	h.scope = "policy"
	s := staged(t, h)
	policy := `{"deny_tools": ["deploy*"], "deny_commands": ["rm -rf", "git push*"]}`
	if err := writeFile(s.AccessibleDir+"/policy/guard.json", policy); err != nil {
		t.Fatal(err)
	}
	r := startRuntime(t, Options{Staged: s})
	ctx := context.Background()
	r.SessionStart(ctx, sessionCtx)
	r.TaskStart(ctx, agentTaskStart("t1"))
	r.ToolCall(ctx, agent.ToolEvent{Turn: 1, ToolName: "deploy-prod"})
	r.ToolCall(ctx, agent.ToolEvent{Turn: 2, ToolName: "read"})
	r.Shell(ctx, agent.ShellEvent{Turn: 3, Binary: "/bin/sh", Command: "cd /tmp && rm -rf build"})
	r.Shell(ctx, agent.ShellEvent{Turn: 4, Binary: "/usr/bin/git", Command: "git status"})
	reopen := r.TaskEnd(ctx, agentTaskEnd("t1"))
	want := "The capsule's policy forbids what this attempt did:\n" +
		"- turn 1 called tool 'deploy-prod' (denied by 'deploy*')\n" +
		"- turn 3 ran `cd /tmp && rm -rf build` (denied by 'rm -rf')\n" +
		"Do the task again without these tools or commands."
	if reopen == nil || reopen.Hook != "guard" || reopen.Reason != want {
		t.Fatalf("reopen = %+v, want reason\n%s", reopen, want)
	}
	log := hookLog(t, s, "guard")
	if len(log) != 2 || !strings.HasPrefix(log[0], "guard: policy violation: turn 1") {
		t.Errorf("guard log = %q", log)
	}
	r.Shell(ctx, agent.ShellEvent{Turn: 5, Binary: "/usr/bin/git", Command: "git commit -m x"})
	if got := r.TaskEnd(ctx, agentTaskEnd("t1")); got != nil {
		t.Errorf("a clean attempt was reopened: %+v", got)
	}

	s = staged(t, blocking("guard", hookGuard))
	r = startRuntime(t, Options{Staged: s})
	r.SessionStart(ctx, sessionCtx)
	if got := r.TaskEnd(ctx, agentTaskEnd("t1")); got == nil || !strings.HasPrefix(got.Reason, "guard: cannot read its policy guard.json") {
		t.Errorf("guard without a policy: reopen = %+v", got)
	}
}

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// The first-party hooks' own manifests parse and carry the contract the
// hook needs: compact bound on-compaction, guard unbound and blocking.
func TestFirstPartyManifests(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		want manifest.HookContract
	}{
		{"compact", manifest.HookContract{Binding: fnCompaction, ExecutionMode: "blocking", CommitPolicy: "replace-context"}},
		{"guard", manifest.HookContract{ExecutionMode: "blocking", CommitPolicy: "reopen-task"}},
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "guests", "go", tt.dir, "murmur.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		f, _, err := manifest.Parse(b, "murmur.yaml", manifest.ParseOptions{Role: manifest.RoleArtifact})
		if err != nil {
			t.Fatalf("%s: %v", tt.dir, err)
		}
		hc, err := f.Artifact.HookContract()
		if err != nil || hc != tt.want || f.Artifact.Name != tt.dir || f.Artifact.Runtime != "hook" {
			t.Errorf("%s: contract %+v, %v", tt.dir, hc, err)
		}
	}
}
