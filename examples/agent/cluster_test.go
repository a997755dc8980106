package agentexample

import (
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// TestClusterServesTheExample: a gateway and two workers on a three-node
// JetStream cluster answer tasks sent through the gateway with the
// script's answer.
func TestClusterServesTheExample(t *testing.T) {
	e := setUp(t)
	nc := startNATS(t, 3)
	nc.ensure(t)
	_, base := e.gateway(t, nc.urls)
	e.worker(t, nc.urls, nil, "--concurrency", "4")
	e.worker(t, nc.urls, nil, "--concurrency", "4")
	c := client(t, base)
	text, answer := taskText(t), finalAnswer(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			res, err := c.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
			if err != nil {
				t.Errorf("task %d: %v", i, err)
				return
			}
			task, ok := res.(*a2a.Task)
			if !ok || task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), answer) {
				t.Errorf("task %d: %#v", i, res)
			}
		})
	}
	wg.Wait()
}
