//go:build linux

package agentexample

// A worker is an ordinary user's process on a machine that delegates it
// nothing (issue 28): mur worker as uid 65534, its home, project and
// store that user's own, no cgroup scope (--no-cgroup), serves the
// agent example through a gateway run by another user.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

func TestClusterWorkerAsUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test runs mur worker as uid 65534")
	}
	e := setUp(t)
	text, answer := taskText(t), finalAnswer(t)
	nc := startNATS(t, 3)
	nc.ensure(t)
	_, base := e.gateway(t, nc.urls)
	w, _ := e.workerAsNobody(t, nc.urls)
	cl := client(t, base)
	for i := range 5 {
		res, err := cl.SendMessage(t.Context(), &a2a.SendMessageRequest{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(text))})
		task, ok := res.(*a2a.Task)
		if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted || !strings.HasPrefix(answerOf(task), answer) {
			t.Fatalf("task %d: %v %s\nworker stderr:\n%.3000s", i, err, describe(res), w.stderr.String())
		}
	}
}

// uidOf is the real uid of process pid, from /proc.
// workerAsNobody starts mur worker as uid 65534 from a tree that user
// owns (its binary, project, home and cache), with --no-cgroup, and
// checks whom the kernel says it runs as; the tree is returned.
func (e *example) workerAsNobody(t *testing.T, urls string) (*proc, string) {
	t.Helper()
	tree := e.ownedBy(t, nobody)
	w, _ := e.worker(t, urls, func(c *exec.Cmd) {
		c.Path = filepath.Join(tree, "mur")
		c.Args[0] = c.Path
		c.Dir = filepath.Join(tree, "project")
		c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(tree, "home"), "MUR_CACHE_DIR=" + filepath.Join(tree, "cache")}
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}, "--no-cgroup")
	if pid := w.cmd.Process.Pid; uidOf(t, pid) != nobody {
		t.Fatalf("the worker (pid %d) runs as uid %d, want %d", pid, uidOf(t, pid), nobody)
	}
	return w, tree
}

func uidOf(t *testing.T, pid int) int {
	t.Helper()
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid))
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Sys().(*syscall.Stat_t).Uid)
}
