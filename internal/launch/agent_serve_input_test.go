package launch_test

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/testing/a2atask"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// An input-required round trip through the real loop: the WASM tool
// "ask" calls murmur:task/task#request-input, the blocking send comes
// back input-required with its prompt, and the next message for the task
// resumes the tool with the answer, which the scripted driver checks
// arrived as the tool's result before it answers.
func TestAgentCapsuleServedInputRequired(t *testing.T) {
	p := &project{t: t, dir: t.TempDir()}
	yaml := `name: asker
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [{"id": "q", "name": "ask", "input": {"why": "ask"}}]},
      {"expect_results": [{"tool_call_id": "q", "is_error": false, "text": "blue"}], "text": "the answer was heard"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
  - name: ask
    version: "0.1.0"
    runtime: tool
lifecycle:
  task_acceptance: queue
  after_task: sleep
`
	c := serveCapsule(t, p, yaml, "scripted", "ask")
	for _, v := range []a2a.ProtocolVersion{a2a.Version, a2av0.Version} {
		client := sdkClient(t, c.base, v)
		send := func(text string, id a2a.TaskID) *a2a.Task {
			t.Helper()
			m := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))
			m.TaskID = id
			res, err := client.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: m})
			if err != nil {
				t.Fatalf("%s send %q: %v\n%s", v, text, err, c.stderr.String())
			}
			task, ok := res.(*a2a.Task)
			if !ok {
				t.Fatalf("%s send returned %T", v, res)
			}
			return task
		}
		asked := send("ask me", "")
		if asked.Status.State != a2a.TaskStateInputRequired || !strings.Contains(a2atask.Text(asked), "name?") {
			t.Fatalf("%s: %s %q, want input-required asking name?", v, asked.Status.State, a2atask.Text(asked))
		}
		done := send("blue", asked.ID)
		if done.ID != asked.ID || done.Status.State != a2a.TaskStateCompleted || !strings.Contains(a2atask.Text(done), "the answer was heard") {
			t.Errorf("%s: the answer left task %s %s %q, want %s completed with the answer", v, done.ID, done.Status.State, a2atask.Text(done), asked.ID)
		}
	}
}
