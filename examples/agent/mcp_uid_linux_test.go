//go:build linux

package agentexample

// The example's tools served over MCP to a normal user whose host
// delegates no cgroup: `mur mcp serve --no-cgroup` as uid 65534, over
// stdio, its native tool and shell command contained without the
// session's scope, as the operator asked.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestMCPServeAsUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test runs mur as uid 65534")
	}
	e := setUp(t)
	tree := e.ownedBy(t, nobody)
	dir := filepath.Join(tree, "workdir")
	copyFile(t, "task.md", filepath.Join(dir, "task.md"))
	for _, p := range []string{dir, filepath.Join(dir, "task.md")} {
		if err := os.Lchown(p, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(filepath.Join(tree, "mur"), "mcp", "serve", "--no-cgroup", "--workdir", dir)
	cmd.Dir = filepath.Join(tree, "project")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(tree, "home"), "MUR_CACHE_DIR=" + filepath.Join(tree, "cache")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	cs, stderr := connectStdio(t, cmd)
	checkTools(t, cs)
	callTheScript(t, cs)
	if err := cs.Close(); err != nil || cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("mur mcp serve as uid %d: %v, exit %d\nstderr:\n%s", nobody, err, cmd.ProcessState.ExitCode(), stderr)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, ".murmur", "ses_*", "logs", "bootstrap.log"))
	if len(logs) != 1 {
		t.Fatalf("bootstrap logs %v", logs)
	}
	if b, _ := os.ReadFile(logs[0]); !strings.Contains(string(b), "cgroup scope: none: the operator turned") {
		t.Errorf("logs/bootstrap.log does not say the scope was turned off:\n%s", b)
	}
}
