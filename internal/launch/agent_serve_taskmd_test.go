package launch_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/testing/a2atask"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

// A queue capsule writes the next task's text over task.md when that task
// is already waiting, instead of deleting the file and making a new one.
// A hostile task's shell command plants at task.md what would turn that
// overwrite against the runtime: a link out of the workdir, a second name
// of another workdir file, a FIFO. The queued task must still run with
// its own text in a task.md of its own, the planted link's file keeps its
// contents, and nothing waits on the FIFO.
func TestServedTaskMDPlantedForTheNextTask(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(outside, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, plant string
		kept        func(work string) string // the file the plant points at
	}{
		{"symlink out of the workdir", "rm -f task.md && ln -s " + outside + " task.md", func(string) string { return outside }},
		{"hard link to a workdir file", "echo precious > keep.txt && rm -f task.md && ln keep.txt task.md",
			func(work string) string { return filepath.Join(work, "keep.txt") }},
		{"fifo", "rm -f task.md && mkfifo task.md", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &project{t: t, dir: t.TempDir()}
			// Every task asks for input (so the next one can be queued
			// behind it), then plants, then answers.
			yaml := fmt.Sprintf(`name: planter
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [{"id": "q", "name": "ask", "input": {"why": "ask"}}]},
      {"tool_calls": [%s]}, {"text": "planted"}]}
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
  - {name: ask, version: "0.1.0", runtime: tool}
capabilities:
  shell:
    allow: [sh, rm, ln, mkfifo]
lifecycle:
  task_acceptance: queue
  after_task: sleep
  queue_depth: 4
`, shellCall("plant", tc.plant))
			c := serveCapsule(t, p, yaml, "scripted", "ask")
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			client := sdkClient(t, c.base, a2a.Version)
			send := func(text string, id a2a.TaskID, now bool) *a2a.Task {
				t.Helper()
				m := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))
				m.TaskID = id
				req := &a2a.SendMessageRequest{Message: m}
				if now {
					req.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
				}
				res, err := client.SendMessage(ctx, req)
				if err != nil {
					t.Fatalf("send %q: %v\n%s", text, err, c.stderr.String())
				}
				task, ok := res.(*a2a.Task)
				if !ok {
					t.Fatalf("send returned %T", res)
				}
				return task
			}
			first := send("first task", "", false)
			if first.Status.State != a2a.TaskStateInputRequired {
				t.Fatalf("first task: %s %q, want input-required", first.Status.State, a2atask.Text(first))
			}
			second := send("second task", "", true)
			if done := send("go on", first.ID, false); done.Status.State != a2a.TaskStateCompleted {
				t.Fatalf("first task: %s %q, want completed", done.Status.State, a2atask.Text(done))
			}
			if state := awaitInput(t, ctx, client, second.ID); state != a2a.TaskStateInputRequired {
				t.Fatalf("the task queued behind the plant ended %s, want it running and asking for input\n%s", state, c.stderr.String())
			}
			work := filepath.Join(p.dir, "workdir", c.sessionID)
			fi, err := os.Lstat(filepath.Join(work, "task.md"))
			if b, _ := os.ReadFile(filepath.Join(work, "task.md")); err != nil || !fi.Mode().IsRegular() || string(b) != "second task" {
				t.Errorf("task.md of the second task: %v %v %q, want a regular file holding its text", fi, err, b)
			}
			if tc.kept != nil {
				if b, _ := os.ReadFile(tc.kept(work)); string(b) != "precious\n" && string(b) != "precious" {
					t.Errorf("the file the planted task.md pointed at now holds %q", b)
				}
			}
			if done := send("go on", second.ID, false); done.Status.State != a2a.TaskStateCompleted || !strings.Contains(a2atask.Text(done), "planted") {
				t.Errorf("second task: %s %q, want completed", done.Status.State, a2atask.Text(done))
			}
		})
	}
}

// awaitInput follows task id until it asks for input or ends, and
// returns that state.
func awaitInput(t *testing.T, ctx context.Context, c *a2aclient.Client, id a2a.TaskID) a2a.TaskState {
	t.Helper()
	for ev, err := range c.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}) {
		if err != nil {
			// A task that already ended cannot be subscribed to.
			task, gerr := c.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
			if gerr != nil {
				t.Fatalf("following task %s: %v; fetching it: %v", id, err, gerr)
			}
			return task.Status.State
		}
		var s a2a.TaskState
		switch e := ev.(type) {
		case *a2a.Task:
			s = e.Status.State
		case *a2a.TaskStatusUpdateEvent:
			s = e.Status.State
		}
		if s == a2a.TaskStateInputRequired || s.Terminal() {
			return s
		}
	}
	t.Fatalf("the stream of task %s ended before it asked for input", id)
	return ""
}
