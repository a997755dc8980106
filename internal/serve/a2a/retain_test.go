package a2a

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// The registry remembers every task's state and context id for the life
// of the process (a2a-cli.md §2.5); the newest KeepTasks finished tasks
// also keep their reply.
func TestFinishedTasksAreNeverForgotten(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  serveOpt
	}{
		{"KeepTasks", func(o *ServerOptions) { o.KeepTasks = 2 }},
		{KeepEnv, env(KeepEnv, "2")},
	} {
		t.Run(tt.name, func(t *testing.T) { testNeverForgotten(t, tt.opt) })
	}
}

func testNeverForgotten(t *testing.T, opt serveOpt) {
	const keep, tasks = 2, 6
	s := serve(t, opt)
	c := v1(t, s)
	var sent []*a2a.Task
	for i := range tasks {
		sent = append(sent, send(t, c, fmt.Sprintf("task %d", i), false))
		<-s.loop.finished
	}
	for i, want := range sent {
		got, err := c.GetTask(t.Context(), &a2a.GetTaskRequest{ID: want.ID})
		if err != nil {
			t.Fatalf("GetTask of task %d of %d: %v", i, tasks, err)
		}
		if got.Status.State != a2a.TaskStateCompleted || got.ContextID != want.ContextID {
			t.Errorf("task %d: %s in %q, want completed in %q", i, got.Status.State, got.ContextID, want.ContextID)
		}
		reply := fmt.Sprintf("echo: task %d", i)
		if recent := i >= tasks-keep; recent != (statusText(got) == reply && artifactText(got, responseArtifact) == reply) {
			t.Errorf("task %d (recent: %v) carries %q / %q", i, recent, statusText(got), artifactText(got, responseArtifact))
		}
	}
	list, err := c.ListTasks(t.Context(), &a2a.ListTasksRequest{IncludeArtifacts: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tasks) != tasks || list.Tasks[0].ID != sent[tasks-1].ID || list.Tasks[tasks-1].ID != sent[0].ID {
		t.Fatalf("ListTasks lists %d tasks, want all %d newest first", len(list.Tasks), tasks)
	}
	for _, got := range list.Tasks {
		if got.Status.State != a2a.TaskStateCompleted {
			t.Errorf("ListTasks: task %s is %s, want completed", got.ID, got.Status.State)
		}
	}
}

// A stream still attached when its task ends reads every event, though a
// finished task nobody reads is compacted at once.
func TestStreamAttachedAtTheEndLosesNothing(t *testing.T) {
	s := serve(t)
	resp := streamRequest(t, s, "chunks:one,two,three")
	waitRan(t, s, 1) // the task ended before the stream was read
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"one"`, `"two"`, `"three"`, `"completed"`} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the stream lacks %s:\n%s", want, body)
		}
	}
}

// What a finished task costs on the heap, with its reply and beyond
// KeepTasks, measured after GC over many tasks through the server (the
// fake loop keeps no list of its own): heap after N tasks minus heap
// before them, over N.
func TestFinishedTaskHeap(t *testing.T) {
	tests := []struct {
		keep, tasks int
		max         float64 // bytes a task
	}{
		// With its reply: ~2.2 KB as a compacted record, ~1.1 KB as the
		// encoded Task in the reply ring.
		{0, 1000, 1400},
		// Its table row only (64 B); 0.2 KB as a map entry and three
		// small objects.
		{10, 4000, 128},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("keep=%d", tt.keep), func(t *testing.T) {
			s := serve(t, func(o *ServerOptions) { o.KeepTasks = tt.keep })
			s.loop.mu.Lock()
			s.loop.forget = true
			s.loop.mu.Unlock()
			c := v1(t, s)
			run := func(n int) {
				for i := range n {
					send(t, c, fmt.Sprintf("task %d", i), false)
					<-s.loop.finished
				}
			}
			run(50)
			before := liveHeap()
			run(tt.tasks)
			per := float64(int64(liveHeap())-int64(before)) / float64(tt.tasks)
			t.Logf("%.0f B a finished task", per)
			if per > tt.max {
				t.Errorf("a finished task keeps %.0f B of heap, want at most %.0f", per, tt.max)
			}
		})
	}
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
