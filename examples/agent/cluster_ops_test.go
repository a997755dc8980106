package agentexample

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// sleeperYAML is a capsule whose task runs until it is stopped: the
// scripted model asks for a shell sleep.
const sleeperYAML = `name: agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [{"id": "nap", "name": "sleep", "input": {"command": "600"}}]}, {"text": "woke"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
capabilities:
  shell:
    allow: [sleep]
`

// TestClusterCancelReachesTheWorker: tasks/cancel through the gateway
// stops a task running on a worker (a shell sleep of ten minutes), and
// the task ends canceled.
func TestClusterCancelReachesTheWorker(t *testing.T) {
	e := setUp(t)
	dir := e.sleeper(t)
	nc := startNATS(t, 3)
	st := nc.ensure(t)
	_, base := e.gateway(t, nc.urls)
	w, _ := e.worker(t, nc.urls, nil, "--manifest", filepath.Join(dir, "murmur.yaml"))
	c := client(t, base)
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("nap")),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := res.(*a2a.Task).ID
	if got := w.await(t, "task: start "); got != string(id) {
		t.Fatalf("the worker started %s, want %s", got, id)
	}
	task, err := c.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	if task.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("cancel answered %s, want canceled", task.Status.State)
	}
	if got := w.await(t, "task: "); got != "canceled "+string(id) {
		t.Errorf("the worker said %q, want the task canceled", got)
	}
	r, _, err := queue.Get(t.Context(), st.Tasks, queue.TaskKey("agent", string(id)))
	if err != nil || r.Task.Status.State != a2a.TaskStateCanceled {
		t.Errorf("the record after cancel: %+v %v", r, err)
	}
}

// TestClusterWorkerDrains: SIGTERM while a worker runs a task: it
// finishes the task, takes nothing new and exits 0.
func TestClusterWorkerDrains(t *testing.T) {
	e := setUp(t)
	nc := startNATS(t, 3)
	nc.ensure(t)
	_, base := e.gateway(t, nc.urls)
	w, _ := e.worker(t, nc.urls, nil)
	c := client(t, base)
	text, answer := taskText(t), finalAnswer(t)
	type result struct {
		task *a2a.Task
		err  error
	}
	done := make(chan result, 2)
	send := func() {
		res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
		task, _ := res.(*a2a.Task)
		done <- result{task, err}
	}
	go send()
	id := w.await(t, "task: start ")
	w.signal(t, syscall.SIGTERM)
	if got := w.await(t, "task: "); got != "completed "+id {
		t.Errorf("the draining worker said %q, want its task completed", got)
	}
	w.await(t, "worker: ")
	if code := w.exit(t); code != 0 {
		t.Errorf("the drained worker exited %d, want 0\nstderr:\n%s", code, w.stderr.String())
	}
	r := <-done
	if r.err != nil || r.task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(r.task), answer) {
		t.Errorf("the drained task: %v %s", r.err, describe(r.task))
	}
	// What comes after waits for another worker.
	go send()
	e.worker(t, nc.urls, nil)
	if r := <-done; r.err != nil || r.task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("the task sent after the drain: %v %s", r.err, describe(r.task))
	}
}

// TestClusterResentMessageRunsOnce: the same message (same messageId)
// sent twice, through two gateways, is one task, run once.
func TestClusterResentMessageRunsOnce(t *testing.T) {
	e := setUp(t)
	nc := startNATS(t, 3)
	nc.ensure(t)
	_, base1 := e.gateway(t, nc.urls)
	_, base2 := e.gateway(t, nc.urls)
	w, _ := e.worker(t, nc.urls, nil)
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(taskText(t)))
	var ids []a2a.TaskID
	for _, base := range []string{base1, base2, base1} {
		res, err := client(t, base).SendMessage(t.Context(), &a2a.SendMessageRequest{Message: msg})
		if err != nil {
			t.Fatal(err)
		}
		task := res.(*a2a.Task)
		if task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("the resent message's task is %s", task.Status.State)
		}
		ids = append(ids, task.ID)
	}
	if ids[0] != ids[1] || ids[1] != ids[2] {
		t.Fatalf("one message made tasks %v, want one", ids)
	}
	// One start, then the next task's: a second message runs as usual.
	if got := w.await(t, "task: start "); got != string(ids[0]) {
		t.Fatalf("the worker started %s", got)
	}
	res, err := client(t, base2).SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(taskText(t)))})
	if err != nil {
		t.Fatal(err)
	}
	next := res.(*a2a.Task).ID
	if got := w.await(t, "task: start "); got != string(next) {
		t.Errorf("after the resent message the worker started %s, want the next task %s: the resend ran again", got, next)
	}
}

// sleeper is a project of sleeperYAML with its driver installed.
func (e *example) sleeper(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(sleeperYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, zip := range e.pkgs {
		if strings.Contains(filepath.Base(zip), "scripted") {
			e.mustMur(t, dir, "install", zip)
		}
	}
	return dir
}
