//go:build linux

package agentexample

// The README's main job as a normal user on a normal machine (issue 25):
// `mur run -v --task task.md` as uid 65534, whose capsule has a shell
// command and a native tool, so its session needs a cgroup scope. With a
// cgroup subtree delegated to the user, or a systemd user manager that
// delegates a transient scope, the scope is built there; on a host that
// delegates nothing, the operator's --no-cgroup runs it without one.
// (The shell command also needs the user namespaces an unprivileged uid
// is given: where mur cannot make them, the run is refused E-CAP-005,
// which is another issue's.)

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/testing/cgrouptest"
)

const nobody = 65534

func TestAgentExampleAsUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test delegates cgroups and runs mur as uid 65534")
	}
	e := setUp(t)
	answer := finalAnswer(t)
	cases := []struct {
		name string
		// start puts mur where the case says: in a delegated cgroup, on a
		// session bus, or neither.
		start func(t *testing.T, c *exec.Cmd)
		args  []string
		// scope is what bootstrap.log says of the session's scope.
		scope string
	}{
		{"a delegated cgroup subtree", func(t *testing.T, c *exec.Cmd) { cgrouptest.Delegate(t, nobody)(c) }, nil, "cgroup scope: cgroup"},
		{"a systemd transient scope", func(t *testing.T, c *exec.Cmd) {
			c.Env = append(c.Env, "DBUS_SESSION_BUS_ADDRESS="+cgrouptest.StartSystemd(t, cgrouptest.SystemdOptions{}).Address)
		}, nil, "in the systemd user manager's transient scope murmur-"},
		{"--no-cgroup, nothing delegated", func(*testing.T, *exec.Cmd) {}, []string{"--no-cgroup"}, "cgroup scope: none: the operator turned"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tree := e.ownedBy(t, nobody)
			cmd := exec.Command(filepath.Join(tree, "mur"), append([]string{"run", "-v", "--task", "task.md"}, c.args...)...)
			cmd.Dir = filepath.Join(tree, "project")
			cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(tree, "home"), "MUR_CACHE_DIR=" + filepath.Join(tree, "cache")}
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
			c.start(t, cmd)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if err != nil || !strings.Contains(stdout.String(), "\nstatus:  ok\n") {
				t.Fatalf("mur run as uid %d: %v\nstdout:\n%s\nstderr:\n%s", nobody, err, stdout.String(), stderr.String())
			}
			workdir := lineValue(t, stdout.String(), "workdir: ")
			if result, err := os.ReadFile(filepath.Join(workdir, "out", "result.txt")); err != nil || !strings.HasPrefix(string(result), answer) {
				t.Errorf("out/result.txt is %q (%v), want the script's answer", result, err)
			}
			if log, _ := os.ReadFile(filepath.Join(workdir, "logs", "bootstrap.log")); !strings.Contains(string(log), c.scope) {
				t.Errorf("logs/bootstrap.log does not say %q:\n%s", c.scope, log)
			}
			transcriptIsTheUsers(t, tree, workdir)
		})
	}
}

// transcriptIsTheUsers checks that the session's transcript, which holds
// all the model and the tools said, is the user's alone: mur trace
// transcript shows it to the user who ran the session and to nobody
// else.
func transcriptIsTheUsers(t *testing.T, tree, workdir string) {
	t.Helper()
	fi, err := os.Stat(filepath.Join(workdir, "transcript.jsonl"))
	if st, ok := fi.Sys().(*syscall.Stat_t); err != nil || !ok || st.Uid != nobody || fi.Mode().Perm() != 0o600 {
		t.Errorf("transcript.jsonl: %v, mode %v; want uid %d's alone", err, fi.Mode(), nobody)
	}
	for _, uid := range []uint32{nobody, nobody - 1} {
		cmd := exec.Command(filepath.Join(tree, "mur"), "trace", "transcript", workdir)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(tree, "home")}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		out, err := cmd.CombinedOutput()
		switch {
		case uid == nobody && (err != nil || !strings.Contains(string(out), "tool fingerprint (native) · ok")):
			t.Errorf("mur trace transcript as the session's user: %v\n%s", err, out)
		case uid != nobody && (err == nil || !strings.Contains(string(out), "permission denied")):
			t.Errorf("mur trace transcript as uid %d, another user: %v\n%s", uid, err, out)
		}
	}
}

// ownedBy is a copy of the installed example (mur, the project with its
// store and lock) in a tree of uid's own, as a user who ran publish.sh
// --install would have it.
func (e *example) ownedBy(t *testing.T, uid int) string {
	t.Helper()
	tree, err := os.MkdirTemp("", "mur-agent-example-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	// As with umask 022: what the user has is readable by others.
	if err := os.Chmod(tree, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, e.bin, filepath.Join(tree, "mur"))
	if out, err := exec.Command("cp", "-a", e.project, filepath.Join(tree, "project")).CombinedOutput(); err != nil {
		t.Fatalf("copying the project: %v\n%s", err, out)
	}
	for _, d := range []string{"home", "cache"} {
		if err := os.Mkdir(filepath.Join(tree, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	err = filepath.Walk(tree, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}
