package queue_test

import (
	"context"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/testing/natstest"
)

// A gateway or worker may start while the cluster is still electing its
// JetStream leader (the servers just came up, or one went away): setting
// up the streams and buckets waits it out instead of failing the start.
func TestEnsureRidesOutAClusterStillElecting(t *testing.T) {
	c := natstest.Start(t, 3)
	conn := natstest.Connect(t, c.URLs)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	st, err := queue.Ensure(ctx, conn.JS, queue.Setup{Replicas: 3})
	if err != nil {
		t.Fatalf("setting up on a cluster just started: %v", err)
	}
	if _, err := st.Capsules.Status(ctx); err != nil {
		t.Fatal(err)
	}
}
