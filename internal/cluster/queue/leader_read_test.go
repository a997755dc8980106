package queue_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mur-go/mur/internal/cluster/queue"
	"github.com/mur-go/mur/internal/testing/natstest"
)

// TestRecordReadBackOnAnyServer: a record written through the tasks
// bucket's leader is read back at once by a client of another server,
// every time. A replica's direct read would answer before it applied
// the write ("key not found" for a task just created, which a gateway
// then reports as unknown); reads through the leader cannot.
func TestRecordReadBackOnAnyServer(t *testing.T) {
	c := natstest.Start(t, 3)
	c.Ensure(t)
	probe := natstest.Connect(t, c.URLs)
	s, err := probe.JS.Stream(t.Context(), "KV_"+queue.TasksBucket)
	if err != nil {
		t.Fatal(err)
	}
	// The bucket's stream may still be electing its leader.
	var info *jetstream.StreamInfo
	err = queue.Retry(t.Context(), 30*time.Second, func(ctx context.Context) error {
		info, err = s.Info(ctx)
		if err == nil && (info.Cluster == nil || info.Cluster.Leader == "") {
			err = context.DeadlineExceeded
		}
		return err
	})
	if err != nil {
		t.Fatalf("the tasks bucket has no leader: %v", err)
	}
	var leaderURL, replicaURL string
	replica := -1
	for i, srv := range c.Servers {
		if fmt.Sprintf("n%d", i) == info.Cluster.Leader {
			leaderURL = srv.URL()
		} else {
			replicaURL, replica = srv.URL(), i
		}
	}
	// A replica of a stream that allows direct reads answers them once it
	// has caught up (the server checks every 2 s): the test reads there
	// when it does, as on a cluster that has run a while.
	for info.Config.AllowDirect && !c.DirectGets(replica, info.Config.Name) {
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	// Each side opens the buckets as a gateway or worker does.
	open := func(url string) *queue.Stores {
		conn := natstest.Connect(t, url)
		st, err := queue.Ensure(t.Context(), conn.JS, queue.Setup{Replicas: 3})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	writer, reader := open(leaderURL), open(replicaURL)
	// Writers side by side, as a gateway's requests are: the replica
	// falls behind the leader most under load.
	const writers, each, n = 8, 50, 8 * 50
	var mu sync.Mutex
	var missed []string
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprintf("tsk_%016d%016d", w, i)
				key := queue.TaskKey("agent", id)
				if err := queue.Create(t.Context(), writer.Tasks, key, &queue.Record{Task: &a2a.Task{ID: a2a.TaskID(id)}}); err != nil {
					t.Error(err)
					return
				}
				if _, _, err := queue.Get(t.Context(), reader.Tasks, key); err != nil {
					mu.Lock()
					missed = append(missed, fmt.Sprintf("%s: %v", id, err))
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if len(missed) > 0 {
		t.Errorf("%d of %d records just written were not read back on another server:\n%s", len(missed), n, strings.Join(missed[:min(5, len(missed))], "\n"))
	}
}
