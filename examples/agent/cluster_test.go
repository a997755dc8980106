package agentexample

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/mur-go/mur/internal/cluster/queue"
)

// TestClusterLosesNoTask sends 200 tasks from 8 clients through a
// gateway to two workers on a three-server JetStream cluster (R3) and
// takes part of it away mid-run: every task completes with the script's
// answer all the same.
func TestClusterLosesNoTask(t *testing.T) {
	cases := []struct {
		name string
		// fail takes part of the cluster away once tasks run on worker a.
		fail func(t *testing.T, nc *natsCluster, a *proc)
		// rerun says a task of a's must have been run again.
		rerun bool
	}{
		{"a worker SIGKILLed", func(t *testing.T, _ *natsCluster, a *proc) { a.signal(t, syscall.SIGKILL) }, true},
		{"a NATS server shut down", func(_ *testing.T, nc *natsCluster, _ *proc) { nc.Servers[1].Shutdown() }, false},
	}
	e := setUp(t)
	text, answer := taskText(t), finalAnswer(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nc := startNATS(t, 3)
			st := nc.ensure(t)
			g, base := e.gateway(t, nc.urls)
			a, aid := e.worker(t, nc.urls, nil, "--concurrency", "8")
			e.worker(t, nc.urls, nil, "--concurrency", "8")
			cl := client(t, base)

			began := time.Now()
			const clients, each = 8, 25
			done := make(chan string, clients*each)
			var wg sync.WaitGroup
			for i := range clients {
				wg.Go(func() {
					for j := range each {
						res, err := cl.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
						task, ok := res.(*a2a.Task)
						if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), answer) {
							t.Errorf("client %d task %d: %v %s", i, j, err, describe(res))
							done <- ""
							continue
						}
						done <- string(task.ID)
					}
				})
			}
			// Mid-run: 40 tasks answered, and one runs on a.
			for range 40 {
				<-done
			}
			inFlight := map[string]bool{}
			for len(inFlight) == 0 || len(a.lines) > 0 {
				l := <-a.lines
				if id, ok := strings.CutPrefix(l, "task: start "); ok {
					inFlight[id] = true
				} else if f := strings.Fields(l); len(f) == 3 && f[0] == "task:" {
					delete(inFlight, f[2])
				}
			}
			c.fail(t, nc, a)
			wg.Wait()
			t.Logf("200 tasks in %s", time.Since(began))
			close(done)
			n := 40
			for range done {
				n++
			}
			if n != clients*each || t.Failed() {
				t.Fatalf("%d tasks answered, want %d\ngateway:\n%.3000s\nworker a:\n%.3000s", n, clients*each, g.stderr.String(), a.stderr.String())
			}
			if c.rerun {
				// What a ran when it died: everything it started and did
				// not say it ended. Each completed, and what it had not
				// recorded yet ran again, as a new attempt, elsewhere.
				for l := range a.lines {
					if id, ok := strings.CutPrefix(l, "task: start "); ok {
						inFlight[id] = true
					} else if f := strings.Fields(l); len(f) == 3 && f[0] == "task:" {
						delete(inFlight, f[2])
					}
				}
				again := 0
				for id := range inFlight {
					r, _, err := queue.Get(t.Context(), st.Tasks, queue.TaskKey("agent", id))
					if err != nil {
						t.Fatal(err)
					}
					if r.Task.Status.State != a2a.TaskStateCompleted {
						t.Errorf("task %s, killed with its worker, is %s", id, r.Task.Status.State)
					}
					if r.Attempt >= 2 && r.Worker != aid {
						again++
					}
				}
				if again == 0 {
					t.Errorf("none of the %d tasks the killed worker ran was run again", len(inFlight))
				}
			}
		})
	}
}

func describe(v any) string {
	b, _ := json.Marshal(v)
	return fmt.Sprintf("%.600s", b)
}
