package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/testing/natstest"
)

// TestRequestsRideOutAnElection: the server that leads the tasks bucket
// and the job stream goes away; a gateway's requests made at once, while
// the others elect a new leader and answer nothing or "temporarily
// unavailable", are answered all the same, none repeated.
func TestRequestsRideOutAnElection(t *testing.T) {
	c := natstest.Start(t, 3)
	st := c.Ensure(t)
	conn := natstest.Connect(t, c.URLs)
	g := &gateway{o: Options{Conn: conn, Stores: st}, log: slog.Default()}
	h := &handler{g: g, name: "agent"}
	sent, err := h.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("before")),
		Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatal(err)
	}
	before := sent.(*a2a.Task)

	// Every request reads or writes the tasks bucket: its leader goes.
	leader := leaderOf(t, conn, "KV_"+queue.TasksBucket)
	for i, s := range c.Servers {
		if fmt.Sprintf("n%d", i) == leader {
			s.Shutdown()
		}
	}

	got, err := h.GetTask(t.Context(), &a2a.GetTaskRequest{ID: before.ID})
	if err != nil || got.ID != before.ID {
		t.Fatalf("GetTask during the election: %v", err)
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart("during"))
	res, err := h.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: msg, Config: &a2a.SendMessageConfig{ReturnImmediately: true}})
	if err != nil {
		t.Fatalf("SendMessage during the election: %v", err)
	}
	// Queued once, whatever was retried.
	var n uint64
	err = queue.Retry(t.Context(), 30*time.Second, func(ctx context.Context) error {
		s, err := conn.JS.Stream(ctx, queue.TasksStream)
		if err == nil {
			n = s.CachedInfo().State.Msgs
		}
		return err
	})
	if err != nil || n != 2 || res.(*a2a.Task).ID == before.ID {
		t.Errorf("%d jobs queued for two messages (task %s): %v", n, res.(*a2a.Task).ID, err)
	}
}

// leaderOf is the name of the server that leads stream, once it has one.
func leaderOf(t *testing.T, conn *queue.Conn, stream string) string {
	t.Helper()
	var leader string
	err := queue.Retry(t.Context(), 30*time.Second, func(ctx context.Context) error {
		s, err := conn.JS.Stream(ctx, stream)
		if err != nil {
			return err
		}
		if cl := s.CachedInfo().Cluster; cl != nil && cl.Leader != "" {
			leader = cl.Leader
			return nil
		}
		return context.DeadlineExceeded
	})
	if err != nil {
		t.Fatalf("%s has no leader: %v", stream, err)
	}
	return leader
}
