package agentexample

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"

	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// askerYAML is a capsule whose tasks share its sessions (queue+sleep)
// and ask for input: the scripted model
// calls the tool "ask" (tool-io), which calls request-input("name?"),
// and answers only when the tool's result is the answer "Ada" (the
// driver checks it, else the task fails).
const askerYAML = `name: agent
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [{"id": "q", "name": "ask", "input": {"why": "ask"}}]},
      {"expect_results": [{"tool_call_id": "q", "is_error": false, "text": "Ada"}], "text": "hello Ada"}]}
artifacts:
  - {name: scripted, version: "0.1.0", runtime: driver}
  - {name: ask, version: "0.1.0", runtime: tool}
` + queueSleep

// TestClusterInputRequired: a task that asks for input on a worker
// comes back input-required through one gateway, and the answer sent
// through another reaches the worker's session, whose tool gets it. When
// the worker holding the question is gone, the answer is refused saying
// so, and the task, run again from the start by another worker, asks
// again and takes the answer. A cancel ends a task waiting for input.
func TestClusterInputRequired(t *testing.T) {
	e := setUp(t)
	mf := filepath.Join(e.asker(t), "murmur.yaml")
	nc := startNATS(t, 3)
	st := nc.ensure(t)
	_, base1 := e.gateway(t, nc.urls)
	_, base2 := e.gateway(t, nc.urls)
	a, aid := e.worker(t, nc.urls, nil, "--manifest", mf)
	c1, c2 := client(t, base1), client(t, base2)

	asked := ask(t, c1)
	if r := record(t, st, asked.ID); r.Worker != aid || r.Attempt != 1 {
		t.Fatalf("the record of the question names worker %s attempt %d, want %s attempt 1", r.Worker, r.Attempt, aid)
	}
	done := answerTask(t, c2, asked.ID)
	if done.Status.State != a2a.TaskStateCompleted || answerOf(done) != "hello Ada" {
		t.Fatalf("the answered task: %s", describe(done))
	}
	if !heard(done, "Ada") {
		t.Errorf("the task's history lacks the answer: %s", describe(done.History))
	}

	// A cancel, through either gateway, reaches the waiting question.
	asked = ask(t, c2)
	if task, err := c1.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: asked.ID}); err != nil || task.Status.State != a2a.TaskStateCanceled {
		t.Fatalf("canceling a task waiting for input: %v %s", err, describe(task))
	}
	for {
		state, id, _ := strings.Cut(a.await(t, "task: "), " ")
		if id != string(asked.ID) || state == "start" {
			continue
		}
		if state != "canceled" {
			t.Errorf("the waiting task ended %s, want canceled", state)
		}
		break
	}

	// The worker holding the question dies.
	asked = ask(t, c1)
	records := watchRecords(t, st)
	a.signal(t, syscall.SIGKILL)
	a.exit(t)
	m := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Ada"))
	m.TaskID = asked.ID
	for try := 1; ; try++ {
		_, err := c2.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: m})
		if err == nil {
			t.Fatal("an answer for a dead worker's question was taken")
		}
		if strings.Contains(err.Error(), "worker is gone") {
			break
		}
		// The cluster may route the first request to the dead worker's
		// server before it has dropped its interest: that one times out.
		if try == 3 {
			t.Fatalf("the answer for a dead worker: %v, want it refused saying the worker is gone", err)
		}
		t.Logf("the answer for a dead worker: %v", err)
	}
	e.worker(t, nc.urls, nil, "--manifest", mf)
	key := queue.TaskKey("agent", string(asked.ID))
	for again := false; !again; {
		u := <-records
		if u == nil || u.Key() != key {
			continue
		}
		var r queue.Record
		if err := json.Unmarshal(u.Value(), &r); err != nil {
			t.Fatal(err)
		}
		again = r.Attempt == 2 && r.Task.Status.State == a2a.TaskStateInputRequired
	}
	if done = answerTask(t, c1, asked.ID); done.Status.State != a2a.TaskStateCompleted || answerOf(done) != "hello Ada" {
		t.Errorf("the task asked again and answered: %s", describe(done))
	}
}

// ask sends a new task and returns it as the blocking send does: waiting
// for input with the tool's prompt.
func ask(t *testing.T, c *a2aclient.Client) *a2a.Task {
	t.Helper()
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("ask me"))})
	if err != nil {
		t.Fatal(err)
	}
	task := res.(*a2a.Task)
	if task.Status.State != a2a.TaskStateInputRequired || task.Status.Message == nil || !strings.Contains(partsText(task.Status.Message.Parts), "name?") {
		t.Fatalf("the new task: %s, want input-required asking name?", describe(task))
	}
	return task
}

// answerTask sends "Ada" to the task and returns it as the blocking send
// does.
func answerTask(t *testing.T, c *a2aclient.Client, id a2a.TaskID) *a2a.Task {
	t.Helper()
	m := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Ada"))
	m.TaskID = id
	res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: m})
	if err != nil {
		t.Fatalf("answering task %s: %v", id, err)
	}
	return res.(*a2a.Task)
}

func record(t *testing.T, st *queue.Stores, id a2a.TaskID) *queue.Record {
	t.Helper()
	r, _, err := queue.Get(t.Context(), st.Tasks, queue.TaskKey("agent", string(id)))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// heard reports whether the task's history holds a user message saying text.
func heard(task *a2a.Task, text string) bool {
	for _, m := range task.History {
		if m.Role == a2a.MessageRoleUser && partsText(m.Parts) == text {
			return true
		}
	}
	return false
}

func partsText(parts a2a.ContentParts) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text())
	}
	return b.String()
}

// asker is a project of askerYAML with its driver and the tool "ask"
// (the tool-io guest) installed.
func (e *example) asker(t *testing.T) string {
	t.Helper()
	dir, src := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(askerYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	ask := filepath.Join(src, "ask")
	copyFile(t, testguest.Path("tool-io"), filepath.Join(ask, "ask.wasm"))
	yaml := "name: ask\nversion: \"0.1.0\"\nruntime: tool\ndescription: asks its task for a name\nrequires_files: [ask.wasm]\n"
	if err := os.WriteFile(filepath.Join(ask, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	e.mustMur(t, src, "build", ask, "-o", src)
	e.mustMur(t, dir, "install", filepath.Join(src, "ask-0.1.0.mur.zip"))
	for _, zip := range e.pkgs {
		if strings.Contains(filepath.Base(zip), "scripted") {
			e.mustMur(t, dir, "install", zip)
		}
	}
	return dir
}
