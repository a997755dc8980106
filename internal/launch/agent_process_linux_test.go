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

// SIGINT while the agent CLI works ends the run as cancelled (130), and
// the CLI's process group dies with it: neither the CLI nor the child it
// started outlives mur.
func TestProcessTransportInterruptKillsTheCLI(t *testing.T) {
	clis, err := fakeCLIs()
	if err != nil {
		t.Fatal(err)
	}
	p := processProject(t, "  command: "+filepath.Join(clis, "claude")+"\n")
	work := t.TempDir()
	// The CLI writes its pid and its child's here; reading the FIFO
	// returns once it has.
	if err := unix.Mkfifo(filepath.Join(work, "fake-pids"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(env.mur, "run", "--workdir", work, "--task", "hang")
	cmd.Dir = p.dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(p.dir, ".home"), "MUR_CACHE_DIR=" + env.cache}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	b, err := os.ReadFile(filepath.Join(work, "fake-pids"))
	if err != nil {
		t.Fatal(err)
	}
	var fds []unix.PollFd
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("fake-pids %q: %v", b, err)
		}
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(fd)
		pids, fds = append(pids, pid), append(fds, unix.PollFd{Fd: int32(fd), Events: unix.POLLIN})
	}
	if len(pids) != 2 {
		t.Fatalf("fake-pids %q: want the CLI's pid and its child's", b)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("mur exited %d after SIGINT, want 130\n%s", code, out.String())
	}
	for i, fd := range fds {
		one := []unix.PollFd{fd}
		if n, err := unix.Poll(one, int((30 * time.Second).Milliseconds())); err != nil || n != 1 {
			syscall.Kill(pids[i], syscall.SIGKILL)
			t.Errorf("pid %d of the CLI's group outlived the interrupted run (poll %d, %v)\n%s", pids[i], n, err, out.String())
		}
	}
	if !strings.Contains(out.String(), "status:  cancelled") {
		t.Errorf("mur does not report the run cancelled:\n%s", out.String())
	}
}
