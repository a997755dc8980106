//go:build linux

package launch_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// SIGINT while a shell command runs ends the run as cancelled, and the
// command's whole process group dies with it: a grandchild sleep 1000
// does not outlive mur.
func TestAgentShellInterruptKillsTheCommand(t *testing.T) {
	turns := `[{"tool_calls": [` + shellCall("wait", "sleep 1000 & echo $! > ready; wait") + `]}, {"text": "never"}]`
	p := shellProject(t, turns, "")
	work := t.TempDir()
	if err := unix.Mkfifo(filepath.Join(work, "ready"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(env.mur, "run", "--workdir", work, "--task", "wait")
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	b, err := os.ReadFile(filepath.Join(work, "ready")) // returns once the command wrote the pid
	sleeper, perr := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || perr != nil {
		t.Fatalf("the command never reported its grandchild: %q, %v, %v", b, err, perr)
	}
	pidfd, err := unix.PidfdOpen(sleeper, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(pidfd)
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code == 0 || err == nil {
		t.Errorf("mur exited %d after SIGINT, want a failure\n%s", code, out.String())
	}
	fds := []unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}
	if n, err := unix.Poll(fds, int((30 * time.Second).Milliseconds())); err != nil || n != 1 {
		syscall.Kill(sleeper, syscall.SIGKILL)
		t.Fatalf("the grandchild sleep (pid %d) outlived the interrupted run (poll %d, %v)\n%s", sleeper, n, err, out.String())
	}
	t.Logf("mur after SIGINT: exit %d\n%s", cmd.ProcessState.ExitCode(), out.String())
}
