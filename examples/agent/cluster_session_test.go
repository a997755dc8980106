package agentexample

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/agent/trace"
)

// queueSleep is the lifecycle under which a capsule's tasks share a
// session, in mur run's queue and on a worker alike.
const queueSleep = "\nlifecycle:\n  task_acceptance: queue\n  after_task: sleep\n"

// TestClusterWorkerKeepsItsSessions: a worker stages its sessions once
// and runs a queue+sleep capsule's tasks one after another in them (at
// most --concurrency sessions ran the 12 tasks), while a capsule of the
// default lifecycle (single, exit) gets a session per task, as mur run
// serves it. Every task completes either way, and the worker drains.
func TestClusterWorkerKeepsItsSessions(t *testing.T) {
	e := setUp(t)
	for _, c := range []struct {
		name      string
		lifecycle string
		shared    bool
	}{{"queue+sleep", queueSleep, true}, {"single, exit", "", false}} {
		t.Run(c.name, func(t *testing.T) {
			e.withManifestTail(t, c.lifecycle)
			if err := os.RemoveAll(filepath.Join(e.project, "workdir")); err != nil {
				t.Fatal(err)
			}
			nc := startNATS(t, 3)
			nc.ensure(t)
			_, base := e.gateway(t, nc.urls)
			w, _ := e.worker(t, nc.urls, nil, "--concurrency", "2")
			cl := client(t, base)
			text, answer := taskText(t), finalAnswer(t)
			const tasks = 12
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					for range tasks / 4 {
						res, err := cl.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
						task, ok := res.(*a2a.Task)
						if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), answer) {
							t.Errorf("a task: %v %s", err, describe(res))
						}
					}
				})
			}
			wg.Wait()
			w.signal(t, syscall.SIGTERM)
			if code := w.exit(t); code != 0 {
				t.Fatalf("the worker exited %d\n%s", code, w.stderr.String())
			}
			ran := tasksPerSession(t, filepath.Join(e.project, "workdir"))
			total := 0
			for dir, n := range ran {
				total += n
				if !c.shared && n != 1 {
					t.Errorf("session %s ran %d tasks, want 1 (lifecycle single)", dir, n)
				}
			}
			if total != tasks {
				t.Errorf("the sessions' traces record %d tasks, want %d: %v", total, tasks, ran)
			}
			if c.shared && len(ran) > 2 {
				t.Errorf("%d sessions ran the tasks, want at most 2 (--concurrency 2): %v", len(ran), ran)
			}
		})
	}
}

// tasksPerSession counts the task_start records of each session's trace
// under workdir, for the sessions that ran any.
func tasksPerSession(t *testing.T, workdir string) map[string]int {
	t.Helper()
	traces, err := filepath.Glob(filepath.Join(workdir, "*", trace.FileName))
	if err != nil || len(traces) == 0 {
		t.Fatalf("no session traces under %s (%v)", workdir, err)
	}
	ran := map[string]int{}
	for _, tr := range traces {
		dir := filepath.Dir(tr)
		for _, r := range records(t, dir) {
			if r.Type == trace.TypeTaskStart {
				ran[filepath.Base(dir)]++
			}
		}
	}
	return ran
}

// withManifestTail appends tail to the project's murmur.yaml for the
// rest of the test.
func (e *example) withManifestTail(t *testing.T, tail string) {
	t.Helper()
	path := filepath.Join(e.project, "murmur.yaml")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			t.Error(err)
		}
	})
	if err := os.WriteFile(path, append(orig, tail...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestClusterWorkerStopsHard: a second SIGTERM while a queue+sleep
// session runs a task (a shell sleep of ten minutes) cancels it, records
// nothing and exits 143; the task, unacknowledged, is claimed by the
// next worker as attempt 2.
func TestClusterWorkerStopsHard(t *testing.T) {
	e := setUp(t)
	dir := e.sleeper(t)
	mf := filepath.Join(dir, "murmur.yaml")
	f, err := os.OpenFile(mf, os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(queueSleep)
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	nc := startNATS(t, 3)
	st := nc.ensure(t)
	_, base := e.gateway(t, nc.urls)
	a, _ := e.worker(t, nc.urls, nil, "--manifest", mf)
	c := client(t, base)
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("nap")),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := res.(*a2a.Task).ID
	a.await(t, "task: start ")
	a.signal(t, syscall.SIGTERM)
	// The second signal once the first has been taken: two at once may
	// reach the process as one.
	if !a.stderr.waitFor("draining", 30*time.Second) {
		t.Fatalf("the worker never said it drains\n%s", a.stderr.String())
	}
	a.signal(t, syscall.SIGTERM)
	if code := a.exit(t); code != 143 {
		t.Fatalf("the worker stopped hard exited %d, want 143\n%s", code, a.stderr.String())
	}
	if r := record(t, st, id); r.Final() || r.Attempt != 1 {
		t.Fatalf("the record after a hard stop: %s attempt %d, want the task still on attempt 1", r.Task.Status.State, r.Attempt)
	}
	b, bid := e.worker(t, nc.urls, nil, "--manifest", mf)
	if got := b.await(t, "task: start "); got != string(id) {
		t.Fatalf("the next worker started %s, want %s", got, id)
	}
	if r := record(t, st, id); r.Attempt != 2 || r.Worker != bid {
		t.Errorf("the task's record: attempt %d by %s, want attempt 2 by %s", r.Attempt, r.Worker, bid)
	}
	if task, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: id}); err != nil || task.Status.State != a2a.TaskStateCanceled {
		t.Errorf("canceling the rerun: %v %s", err, describe(task))
	}
}
