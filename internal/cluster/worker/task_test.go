package worker

import (
	"errors"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// settle writes an attempt's outcome only while the record is that
// attempt's: an attempt that ran on after its delivery went to another
// worker must neither overwrite the later attempt's record nor (through
// errSuperseded) acknowledge the job that attempt still needs.
func TestSettleOnlyItsOwnAttempt(t *testing.T) {
	done := outcome{state: a2a.TaskStateCompleted, answer: "42"}
	cases := []struct {
		name    string
		record  queue.Record
		attempt int
		want    error
		state   a2a.TaskState
	}{
		{"its own attempt", queue.Record{Attempt: 2, Task: &a2a.Task{Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}}, 2, nil, a2a.TaskStateCompleted},
		{"an earlier attempt", queue.Record{Attempt: 3, Task: &a2a.Task{Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}}, 2, errSuperseded, a2a.TaskStateWorking},
		{"already ended", queue.Record{Attempt: 3, Task: &a2a.Task{Status: a2a.TaskStatus{State: a2a.TaskStateFailed}}}, 2, queue.ErrUnchanged, a2a.TaskStateFailed},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.record
			err := settle(done, false, c.attempt)(&r)
			if !errors.Is(err, c.want) && !(err == nil && c.want == nil) {
				t.Fatalf("settle: %v, want %v", err, c.want)
			}
			if c.want == errSuperseded && r.Task.Artifacts != nil {
				t.Error("a superseded attempt wrote its answer")
			}
			if r.Task.Status.State != c.state {
				t.Errorf("state %s, want %s", r.Task.Status.State, c.state)
			}
		})
	}
}
