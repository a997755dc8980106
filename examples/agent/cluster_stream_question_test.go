package agentexample

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
)

// TestClusterStreamsEndAtTheQuestion: as a stream of mur run's, a
// gateway's stream ends at the task's question (input-required) instead
// of holding the client until the task ends; a resubscribe to the waiting
// task replays it and ends there too; the streamed answer, sent through
// the other gateway, starts after the question it answers and ends with
// the task.
func TestClusterStreamsEndAtTheQuestion(t *testing.T) {
	e := setUp(t)
	mf := filepath.Join(e.asker(t), "murmur.yaml")
	nc := startNATS(t, 3)
	nc.ensure(t)
	_, base1 := e.gateway(t, nc.urls)
	_, base2 := e.gateway(t, nc.urls)
	e.worker(t, nc.urls, nil, "--manifest", mf)
	c1, c2 := client(t, base1), client(t, base2)

	id, states := streamStates(t, c1, a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("ask me")))
	if states[len(states)-1] != a2a.TaskStateInputRequired {
		t.Fatalf("the new task's stream: %v, want it to end at input-required", states)
	}
	var resub []a2a.TaskState
	ctx, cancel := context.WithTimeout(t.Context(), streamBound)
	defer cancel()
	for ev, err := range c2.SubscribeToTask(ctx, &a2a.SubscribeToTaskRequest{ID: id}) {
		if err != nil {
			t.Fatalf("the resubscribe to the waiting task, which should have ended at its question: %v", err)
		}
		resub = append(resub, stateOf(ev)...)
	}
	if len(resub) == 0 || resub[len(resub)-1] != a2a.TaskStateInputRequired {
		t.Errorf("the resubscribe to the waiting task: %v, want it to end at input-required", resub)
	}

	m := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("Ada"))
	m.TaskID = id
	_, states = streamStates(t, c2, m)
	if states[len(states)-1] != a2a.TaskStateCompleted || slices.Contains(states, a2a.TaskStateInputRequired) {
		t.Errorf("the answer's stream: %v, want … completed, without the question it answered", states)
	}
}

// streamBound is how long a stream may run here: a stream that does not
// end at the question would otherwise hold the test until go test's own
// timeout.
const streamBound = time.Minute

// streamStates sends m as a streaming message and returns its task and
// the states its stream carried, to the stream's end.
func streamStates(t *testing.T, c *a2aclient.Client, m *a2a.Message) (a2a.TaskID, []a2a.TaskState) {
	t.Helper()
	var id a2a.TaskID
	var states []a2a.TaskState
	ctx, cancel := context.WithTimeout(t.Context(), streamBound)
	defer cancel()
	for ev, err := range c.SendStreamingMessage(ctx, &a2a.SendMessageRequest{Message: m}) {
		if err != nil {
			t.Fatalf("the stream after %v: %v", states, err)
		}
		id = ev.TaskInfo().TaskID
		states = append(states, stateOf(ev)...)
	}
	if len(states) == 0 {
		t.Fatal("an empty stream")
	}
	return id, states
}

func stateOf(ev a2a.Event) []a2a.TaskState {
	switch ev := ev.(type) {
	case *a2a.Task:
		return []a2a.TaskState{ev.Status.State}
	case *a2a.TaskStatusUpdateEvent:
		return []a2a.TaskState{ev.Status.State}
	}
	return nil
}
