package launch_test

import (
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
)

// CancelTask ends a task whose tool is still running (a shell sleep the
// scripted driver asked for) canceled through the loop's context, and the
// capsule goes on serving: each version cancels its own task, one after
// the other, through the same `mur run`.
func TestAgentCapsuleServedCancel(t *testing.T) {
	p := &project{t: t, dir: t.TempDir()}
	yaml := `name: sleeper
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  driver:
    artifact: scripted
    config: {"turns": [{"tool_calls": [` + shellCall("nap", "sleep 600") + `]}, {"text": "never"}]}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
capabilities:
  shell:
    allow: [sh, sleep]
lifecycle:
  task_acceptance: queue
  after_task: sleep
`
	c := serveCapsule(t, p, yaml, "scripted")
	for _, v := range []a2a.ProtocolVersion{a2a.Version, a2av0.Version} {
		client := sdkClient(t, c.base, v)
		var id a2a.TaskID
		for ev, err := range client.SendStreamingMessage(t.Context(), &a2a.SendMessageRequest{
			Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("nap"))}) {
			if err != nil {
				t.Fatalf("%s stream: %v\n%s", v, err, c.stderr.String())
			}
			// The tool call's start is the sign the sleep runs: cancel
			// must reach a tool, not only a task still queued.
			if st, ok := ev.(*a2a.TaskStatusUpdateEvent); ok && st.Status.State == a2a.TaskStateWorking && id != "" {
				break
			}
			id = ev.TaskInfo().TaskID
		}
		if id == "" {
			t.Fatalf("%s: the stream named no task", v)
		}
		task, err := client.CancelTask(t.Context(), &a2a.CancelTaskRequest{ID: id})
		if err != nil {
			t.Fatalf("%s cancel: %v\n%s", v, err, c.stderr.String())
		}
		if task.Status.State != a2a.TaskStateCanceled {
			t.Errorf("%s: cancel left the task %s, want canceled", v, task.Status.State)
		}
		got, err := client.GetTask(t.Context(), &a2a.GetTaskRequest{ID: id})
		if err != nil || got.Status.State != a2a.TaskStateCanceled {
			t.Errorf("%s: the task fetched after cancel: %v %v", v, got, err)
		}
	}
}
