package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/tools"
)

// session_start carries its fields in the spec's order, the grants the
// staged session and the policy decided, and the prompt's source and hash.
func TestSessionStartRecord(t *testing.T) {
	s := testStaged(t, func(c *manifest.Capsule) {
		c.Inference.SystemPrompt = "Be brief."
		c.IncludeToolOutput = true
		c.Capabilities = &manifest.Capabilities{Network: &manifest.NetworkCaps{Allow: []string{"api.example.com"}},
			Filesystem: &manifest.FilesystemCaps{Scope: "data"}, Shell: &manifest.ShellCaps{Allow: []string{"sh"}},
			Env: &manifest.AllowList{Allow: []string{"LANG"}}}
	})
	if err := run(t, s, &driver{answers: []tools.ToolResult{passed(endText)}}, nil, &oneTask{tasks: []Task{{ID: "tsk_1"}}}); err != nil {
		t.Fatal(err)
	}
	l := find(readTrace(t, s), trace.TypeSessionStart)[0]
	want := []string{"event_type", "session_id", "timestamp", "capsule_name", "capsule_version", "model", "max_turns", "capabilities",
		"tools_declared", "containment_declared", "containment_achieved", "workdir_exec", "effective_grants", "system_prompt_source",
		"system_prompt_sha256", "system_prompt"}
	if !slices.Equal(l.Keys, want) {
		t.Errorf("keys %v\nwant %v", l.Keys, want)
	}
	f := l.Fields
	g := f["effective_grants"].(map[string]any)
	checks := map[string]any{
		"capabilities": []any{"network", "filesystem", "shell"}, "tools_declared": []any{"t"}, "max_turns": float64(10),
		"containment_declared": "advisory", "system_prompt_source": "manifest", "system_prompt": "Be brief.",
		"system_prompt_sha256": "213c22ed7234eb11116e1e88f314c73cb3a019b5c87fe224b6ce5665bd9ec50e",
	}
	for k, v := range checks {
		if !equalJSON(f[k], v) {
			t.Errorf("%s = %v, want %v", k, f[k], v)
		}
	}
	for k, v := range map[string]any{"filesystem_scope": "data", "network_allow": []any{"api.example.com"}, "shell_allow": []any{"sh"},
		"env_allow": []any{"LANG"}, "spawn_allow": []any{}, "enforcement_tier": "none", "floor_met": true} {
		if !equalJSON(g[k], v) {
			t.Errorf("effective_grants.%s = %v, want %v", k, g[k], v)
		}
	}
}

func equalJSON(a, b any) bool {
	x, _ := encode(a)
	y, _ := encode(b)
	return x == y
}

// The CLI task source (session.md §3.8).
func TestCLITasks(t *testing.T) {
	cases := []struct {
		name       string
		acceptance string
		files      map[string]string
		kind       Kind
		trace      []string
	}{
		{"single with task.md", "single", map[string]string{"task.md": "do it"}, 0,
			[]string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
		{"none without task.md: nothing runs, empty trace", "none", nil, 0, nil},
		{"single with input.txt only: one untracked attempt", "single", map[string]string{"input.txt": "do it"}, 0,
			[]string{"session_start", "inference:end_turn", "session_end:ok"}},
		{"single with nothing: a task error", "single", nil, KindTask, nil},
		{"an empty task.md: the task fails, the model is not called", "single", map[string]string{"task.md": " \n\t"}, KindTask,
			[]string{"task_start", "task_end:failed", "session_end:failed"}},
		{"an empty input.txt: the untracked attempt fails, the model is not called", "single", map[string]string{"input.txt": "\n"}, KindTask,
			[]string{"session_end:failed"}},
		{"queue runs task.md then deletes it", "queue", map[string]string{"task.md": "do it"}, 0,
			[]string{"task_start", "session_start", "inference:end_turn", "session_end:ok", "task_end:ok"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testStaged(t, func(cp *manifest.Capsule) { cp.Lifecycle.TaskAcceptance = c.acceptance })
			os.Remove(filepath.Join(s.AccessibleDir, "task.md"))
			for n, body := range c.files {
				if err := os.WriteFile(filepath.Join(s.AccessibleDir, n), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d := &driver{answers: []tools.ToolResult{passed(endText)}}
			err := run(t, s, d, nil, nil)
			var e *diag.Error
			if c.kind == 0 && err != nil || c.kind != 0 && (!errors.As(err, &e) || KindOf(err) != c.kind) {
				t.Fatalf("err = %v, want kind %d", err, c.kind)
			}
			if c.kind != 0 && len(d.requests) != 0 {
				t.Errorf("a failed task called the model %d times", len(d.requests))
			}
			if got := types(readTrace(t, s)); !slices.Equal(got, c.trace) {
				t.Errorf("trace\n got  %v\n want %v", got, c.trace)
			}
			if _, err := os.Stat(filepath.Join(s.AccessibleDir, "task.md")); c.acceptance == "queue" && err == nil {
				t.Error("queue left task.md after a finished task")
			}
		})
	}
}

// blocking is a driver that waits for its call to be cancelled.
type blocking struct{ started chan struct{} }

func (b blocking) Invoke(ctx context.Context, _ tools.ToolInput) (tools.ToolResult, error) {
	close(b.started)
	<-ctx.Done()
	return tools.ToolResult{}, ctx.Err()
}

// Cancelling mid-turn ends the task cancelled, never ok; the trace keeps
// the finished records and closes the attempt and the task cancelled
// (stopping is not failing), once.
func TestCancelledMidTurn(t *testing.T) {
	s := testStaged(t, nil)
	ctx, cancel := context.WithCancelCause(context.Background())
	b := blocking{started: make(chan struct{})}
	go func() { <-b.started; cancel(errors.New("interrupted")) }()
	res, err := Run(ctx, Options{Staged: s, Driver: b, Tools: tools.NewToolSet()})
	var e *diag.Error
	if !errors.As(err, &e) || KindOf(err) != KindCancelled || res.Last.ExitStatus != ExitCancelled {
		t.Fatalf("err = %v, result %+v; want a cancelled task", err, res.Last)
	}
	want := []string{"task_start", "session_start", "session_end:cancelled", "task_end:cancelled"}
	if got := types(readTrace(t, s)); !slices.Equal(got, want) {
		t.Errorf("trace %v, want %v", got, want)
	}
}
