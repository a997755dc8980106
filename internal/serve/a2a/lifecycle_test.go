package a2a

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
)

func v1(t *testing.T, s *served) *a2aclient.Client {
	return client(t, s, a2a.TransportProtocolJSONRPC, a2a.Version)
}

func send(t *testing.T, c *a2aclient.Client, text string, immediately bool) *a2a.Task {
	t.Helper()
	req := userMessage(text)
	if immediately {
		req.Config = &a2a.SendMessageConfig{ReturnImmediately: true}
	}
	res, err := c.SendMessage(t.Context(), req)
	if err != nil {
		t.Fatalf("send %q: %v", text, err)
	}
	return taskOf(t, res)
}

func plantTask(t *testing.T, s *served, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.workdir, "task.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLifecycle(t *testing.T) {
	tests := []struct {
		name     string
		opts     []serveOpt
		taskMD   string // written into the workdir before the session starts
		do       func(t *testing.T, s *served)
		ends     bool     // the session ends by itself
		wantRan  []string // sources of the tasks the loop ran
		wantIDs  bool     // every task the loop ran has tsk_/ctx_ ids
		stillRun bool
	}{
		{name: "none without task.md ends at once", opts: []serveOpt{lifecycle(AcceptNone, "exit", 1)}, ends: true},
		{name: "none runs task.md once", opts: []serveOpt{lifecycle(AcceptNone, "sleep", 1)}, taskMD: "hi", ends: true,
			wantRan: []string{SourceTaskMD}, wantIDs: true},
		{name: "single exit runs one A2A task and exits", opts: []serveOpt{lifecycle(AcceptSingle, "exit", 1)},
			do: func(t *testing.T, s *served) {
				if got := send(t, v1(t, s), "one", false); got.Status.State != a2a.TaskStateCompleted {
					t.Errorf("task ended %s", got.Status.State)
				}
			}, ends: true, wantRan: []string{SourceA2A}, wantIDs: true},
		{name: "single sleep still exits after its task", opts: []serveOpt{lifecycle(AcceptSingle, "sleep", 1)},
			do:   func(t *testing.T, s *served) { send(t, v1(t, s), "one", false) },
			ends: true, wantRan: []string{SourceA2A}, wantIDs: true},
		{name: "single idle timeout runs once with no task", opts: []serveOpt{lifecycle(AcceptSingle, "exit", 1), env(TimeoutEnv, "0")},
			ends: true, wantRan: []string{SourceA2A}},
		{name: "queue exit runs task.md, then one A2A task", opts: []serveOpt{lifecycle(AcceptQueue, "exit", 1)}, taskMD: "first",
			do: func(t *testing.T, s *served) {
				got := send(t, v1(t, s), "second", false)
				if got.Status.State != a2a.TaskStateCompleted || statusText(got) != "echo: second" {
					t.Errorf("A2A task after task.md: %s %q", got.Status.State, statusText(got))
				}
			}, ends: true, wantRan: []string{SourceTaskMD, SourceA2A}, wantIDs: true},
		{name: "queue sleep serves task after task and deletes task.md between", opts: []serveOpt{lifecycle(AcceptQueue, "sleep", 2)},
			do: func(t *testing.T, s *served) {
				c := v1(t, s)
				for _, text := range []string{"a", "b", "c"} {
					if got := send(t, c, text, false); statusText(got) != "echo: "+text {
						t.Errorf("task %q answered %q", text, statusText(got))
					}
				}
				waitRan(t, s, 3)
				if _, err := os.Lstat(filepath.Join(s.workdir, stage.TaskFile)); !errors.Is(err, fs.ErrNotExist) {
					t.Error("task.md is still there after the task ended in queue+sleep")
				}
			}, wantRan: []string{SourceA2A, SourceA2A, SourceA2A}, wantIDs: true, stillRun: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *served
			if tt.taskMD != "" {
				opts := append([]serveOpt{func(o *ServerOptions) {
					if err := os.WriteFile(filepath.Join(o.Workdir, "task.md"), []byte(tt.taskMD), 0o644); err != nil {
						t.Fatal(err)
					}
				}}, tt.opts...)
				s = serve(t, opts...)
			} else {
				s = serve(t, tt.opts...)
			}
			if tt.do != nil {
				tt.do(t, s)
			}
			if tt.ends {
				if err := s.wait(t); err != nil {
					t.Fatalf("session ended with %v", err)
				}
			}
			ran := s.loop.tasks()
			var sources []string
			for _, r := range ran {
				sources = append(sources, r.Source)
				if tt.wantIDs != (strings.HasPrefix(r.ID, "tsk_") && strings.HasPrefix(r.ContextID, "ctx_")) {
					t.Errorf("task ids %q/%q (want ids: %v)", r.ID, r.ContextID, tt.wantIDs)
				}
			}
			if strings.Join(sources, ",") != strings.Join(tt.wantRan, ",") {
				t.Errorf("the loop ran %v, want %v", sources, tt.wantRan)
			}
			if tt.stillRun {
				select {
				case err := <-s.done:
					t.Fatalf("queue+sleep session ended: %v", err)
				default:
				}
			}
		})
	}
}

func TestBusyRejectionAndQueueDepth(t *testing.T) {
	tests := []struct {
		name      string
		opt       serveOpt
		accepted  int // sends accepted while the first task runs (the first included)
		wantState a2a.TaskState
	}{
		{"single takes one task per launch", lifecycle(AcceptSingle, "exit", 1), 1, a2a.TaskStateRejected},
		{"queue depth 2: one running and two waiting", lifecycle(AcceptQueue, "sleep", 2), 3, a2a.TaskStateRejected},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serve(t, tt.opt)
			gate := make(chan struct{})
			s.loop.gate = gate
			c := v1(t, s)
			first := send(t, c, "chunks:x", true)
			// Wait until the first task runs: it has streamed its chunk.
			for ev, err := range c.SubscribeToTask(t.Context(), &a2a.SubscribeToTaskRequest{ID: first.ID}) {
				if err != nil {
					t.Fatal(err)
				}
				if snap, ok := ev.(*a2a.Task); ok && artifactText(snap, responseArtifact) != "" {
					break
				}
				if _, ok := ev.(*a2a.TaskArtifactUpdateEvent); ok {
					break
				}
			}
			for i := 1; i < tt.accepted; i++ {
				if got := send(t, c, "waiting", true); got.Status.State != a2a.TaskStateSubmitted {
					t.Fatalf("send %d: %s, want submitted", i, got.Status.State)
				}
			}
			got := send(t, c, "one too many", true)
			if got.Status.State != tt.wantState || statusText(got) != busyMessage {
				t.Fatalf("send over capacity: %s %q, want %s %q", got.Status.State, statusText(got), tt.wantState, busyMessage)
			}
			if _, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: got.ID}); !errors.Is(err, a2a.ErrTaskNotFound) {
				t.Errorf("GetTask of the rejected task: %v, want task not found", err)
			}
			close(gate)
		})
	}
}

func TestNoneAnswersMethodNotFound(t *testing.T) {
	// task.md keeps the session busy until the test ends.
	s := serve(t, lifecycle(AcceptNone, "exit", 1), func(o *ServerOptions) {
		if err := os.WriteFile(filepath.Join(o.Workdir, "task.md"), []byte("block"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	_, err := v1(t, s).SendMessage(t.Context(), userMessage("hello"))
	if !errors.Is(err, a2a.ErrMethodNotFound) {
		t.Fatalf("send with task_acceptance none: %v, want method not found", err)
	}
}

func TestQueueDepthMustBePositive(t *testing.T) {
	o := s0(t)
	o.Lifecycle = manifest.Lifecycle{TaskAcceptance: AcceptQueue, AfterTask: "sleep", QueueDepth: 0}
	o.Run = func(ctx context.Context, src agent.TaskSource) error { return nil }
	err := Serve(t.Context(), o)
	if !errors.Is(err, ErrLifecycle) {
		t.Fatalf("queue_depth 0: %v, want ErrLifecycle", err)
	}
}

func TestTaskCarriesMessageIDAndTraceparent(t *testing.T) {
	s := serve(t)
	tp := "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	body := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"messageId":"msg-1","role":"user","parts":[{"kind":"text","text":"traced"}]}}}`
	rpc(t, s.url+"/", body, map[string]string{"traceparent": tp})
	waitRan(t, s, 1)
	got := s.loop.tasks()[0]
	if got.MessageID != "msg-1" || got.Traceparent != tp || got.InputBytes != uint64(len("traced")) || got.Source != SourceA2A {
		t.Errorf("task %+v: want message id msg-1, the caller's traceparent and 6 input bytes", got)
	}
}

func TestInputTimeoutFailsTheTask(t *testing.T) {
	zero := uint64(0)
	s := serve(t, func(o *ServerOptions) { o.Lifecycle.InputTimeoutSecs = &zero })
	got := send(t, v1(t, s), "ask:anyone?", false)
	if got.Status.State != a2a.TaskStateFailed || statusText(got) != "input-timeout" {
		t.Fatalf("task %s %q, want failed input-timeout", got.Status.State, statusText(got))
	}
	if next := send(t, v1(t, s), "next", false); next.Status.State != a2a.TaskStateCompleted {
		t.Errorf("the next task ended %s", next.Status.State)
	}
}
