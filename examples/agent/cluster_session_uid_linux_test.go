//go:build linux

package agentexample

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// TestClusterWorkerKeepsItsSessionsUnprivileged: a worker run as uid
// 65534 (its tree its own, --no-cgroup) keeps a queue+sleep capsule's
// session and runs the tasks one after another in it, task.md written
// and cleared in a workdir that user owns.
func TestClusterWorkerKeepsItsSessionsUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test runs mur worker as uid 65534")
	}
	e := setUp(t)
	text, answer := taskText(t), finalAnswer(t)
	e.withManifestTail(t, queueSleep)
	nc := startNATS(t, 3)
	nc.ensure(t)
	_, base := e.gateway(t, nc.urls)
	w, tree := e.workerAsNobody(t, nc.urls)
	cl := client(t, base)
	const tasks = 4
	for i := range tasks {
		res, err := cl.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
		task, ok := res.(*a2a.Task)
		if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), answer) {
			t.Fatalf("task %d: %v %s\nworker stderr:\n%.3000s", i, err, describe(res), w.stderr.String())
		}
	}
	w.signal(t, syscall.SIGTERM)
	if code := w.exit(t); code != 0 {
		t.Fatalf("the worker exited %d\n%s", code, w.stderr.String())
	}
	ran := tasksPerSession(t, filepath.Join(tree, "project", "workdir"))
	if len(ran) != 1 {
		t.Fatalf("the tasks ran in sessions %v, want one (--concurrency 1, queue+sleep)", ran)
	}
	for dir, n := range ran {
		if n != tasks {
			t.Errorf("session %s ran %d tasks, want %d", dir, n, tasks)
		}
		if _, err := os.Lstat(filepath.Join(tree, "project", "workdir", dir, "task.md")); !os.IsNotExist(err) {
			t.Errorf("task.md is left in the session after its task: %v", err)
		}
	}
}
