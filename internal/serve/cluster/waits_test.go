package cluster

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/testing/natstest"
)

// TestWaiterOutlivesItsWatch: a request waiting for a task's end sees
// it even when the gateway's watch of the records has gone silent (its
// consumer lost with a server and not yet remade): the waiter reads its
// record again on its own.
func TestWaiterOutlivesItsWatch(t *testing.T) {
	st := natstest.Start(t, 1).Ensure(t)
	w, err := startWaits(t.Context(), st.Tasks, slog.Default())
	if err != nil {
		t.Fatal(err)
	}
	key := queue.TaskKey("agent", "tsk_1")
	if err := queue.Create(t.Context(), st.Tasks, key, &queue.Record{Task: &a2a.Task{ID: "tsk_1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}}); err != nil {
		t.Fatal(err)
	}
	w.stop() // the watch wakes nobody from here on

	read := make(chan struct{})
	var once sync.Once
	type result struct {
		r   *queue.Record
		err error
	}
	done := make(chan result, 1)
	go func() {
		// Bounded: a waiter nothing wakes would wait for ever.
		ctx, cancel := context.WithTimeout(t.Context(), 5*backstop)
		defer cancel()
		r, err := w.until(ctx, key, func(r *queue.Record) bool {
			once.Do(func() { close(read) })
			return r.Final()
		})
		done <- result{r, err}
	}()
	<-read // the waiter has read the record as working: only now does it end
	if _, err := queue.Update(t.Context(), st.Tasks, key, func(r *queue.Record) error {
		r.Task.Status = a2a.TaskStatus{State: a2a.TaskStateCompleted}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	res := <-done
	if res.err != nil || !res.r.Final() {
		t.Fatalf("the waiter got %+v, %v after %s: it never read the record again", res.r, res.err, time.Since(began))
	}
}
