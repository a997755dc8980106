package session

import (
	"context"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/agent"
)

// gatedSource hands out a task when gate is closed.
type gatedSource struct{ gate chan struct{} }

func (g gatedSource) Next(ctx context.Context) (agent.Task, bool, error) {
	select {
	case <-g.gate:
		return agent.Task{ID: "tsk_1"}, true, nil
	case <-ctx.Done():
		return agent.Task{}, false, ctx.Err()
	}
}

func (gatedSource) Done(context.Context, agent.Task, agent.TaskResult) {}

func TestIdleSourceReleasesOnlyWhenIdle(t *testing.T) {
	tests := []struct {
		name    string
		after   time.Duration
		release bool
	}{
		{"a long wait releases", time.Millisecond, true},
		{"a task in time does not", time.Hour, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			released := make(chan struct{}, 1)
			gate := make(chan struct{})
			s := idleSource{TaskSource: gatedSource{gate}, after: tt.after, release: func() { released <- struct{}{} }}
			got := make(chan agent.Task, 1)
			go func() {
				task, _, _ := s.Next(t.Context())
				got <- task
			}()
			if tt.release {
				<-released // the wait outlasted after
			}
			close(gate)
			if task := <-got; task.ID != "tsk_1" {
				t.Fatalf("Next = %+v", task)
			}
			select {
			case <-released:
				if !tt.release {
					t.Fatal("released although the task came in time")
				}
			default:
			}
		})
	}
}
