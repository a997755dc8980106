//go:build linux

package launch_test

// Nothing a session starts may outlive it, however mur ends: a hostile
// shell command (or agent CLI) leaves a daemon in a session of its own,
// which no process group kill reaches, and mur is then SIGKILLed. The
// scope's reaper must kill it and remove the scope; when the reaper is
// killed too, the next `mur run` or `mur doctor` must.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/testing/cgrouptest"
)

// daemonCommand starts a double-forked daemon: the subshell forks setsid
// and exits, so the daemon (a new session, reparented away from the
// call) writes its pid and sleeps; the call itself then blocks, keeping
// mur in the session.
const daemonCommand = `(setsid sh -c 'echo $$ > daemon.pid; exec sleep 1000' </dev/null >/dev/null 2>&1 &); exec sleep 1000`

// orphanBound bounds every wait on a condition of these tests.
const orphanBound = 30 * time.Second

// asUser is how these tests start mur: as this process's uid, or as an
// unprivileged one inside a cgroup delegated to it.
type asUser struct {
	name string
	// mur is the binary to run; tree the directory everything lives in.
	mur, tree string
	start     func(*exec.Cmd)
}

// users are the uids these tests run mur as: this one and, as root,
// nobody. As root each runs mur in a cgroup of its own (delegated to
// nobody), so the scopes these tests leave stale are where only their own
// mur doctor or mur run looks, never another test's sweep.
func users(t *testing.T) []asUser {
	t.Helper()
	if os.Geteuid() != 0 {
		// No cgroup can be delegated: mur builds its scope where it sits.
		return []asUser{{name: "self", mur: env.mur, tree: t.TempDir(), start: func(*exec.Cmd) {}}}
	}
	root := asUser{name: "root", mur: env.mur, tree: t.TempDir(), start: cgrouptest.Delegate(t, 0)}
	return []asUser{root, nobody(t)}
}

// nobody is uid 65534 in a tree of its own holding a copy of mur, in a
// cgroup delegated to it.
func nobody(t *testing.T) asUser {
	tree, err := os.MkdirTemp("", "mur-orphans-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	mur := filepath.Join(tree, "mur")
	if err := copyFile(env.mur, mur); err != nil {
		t.Fatal(err)
	}
	inScope := cgrouptest.Delegate(t, 65534)
	return asUser{name: "nobody", mur: mur, tree: tree, start: func(c *exec.Cmd) {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		inScope(c)
	}}
}

// own gives the tree to the user (nothing to do for this process's).
func (u asUser) own(t *testing.T) {
	t.Helper()
	if u.name == "nobody" {
		if err := chownTree(u.tree, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
}

// command is mur args in dir as the user, with a HOME and cache of the
// tree.
func (u asUser) command(dir string, args ...string) *exec.Cmd {
	c := exec.Command(u.mur, args...)
	c.Dir = dir
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, ".home"), "MUR_CACHE_DIR=" + u.cacheDir()}
	u.start(c)
	return c
}

func (u asUser) cacheDir() string {
	if u.name == "nobody" {
		return filepath.Join(u.tree, "cache")
	}
	return env.cache
}

// vehicle is how a hostile capsule leaves its daemon.
type vehicle struct {
	name string
	// artifact and capabilities are the manifest's lines for it; call
	// the scripted driver's first turn.
	artifact, capabilities, call string
}

// vehicles are a native tool (testdata/hostile as daemon) and a
// shell.allow command, for root and an unprivileged uid alike.
func vehicles() []vehicle {
	native := vehicle{name: "native", artifact: "  - name: daemon\n    version: \"0.1.0\"\n    runtime: tool\n",
		call: `{"id": "daemon", "name": "daemon", "input": {}}`}
	shell := vehicle{name: "shell", capabilities: "capabilities:\n  shell:\n    allow: [sh, setsid, sleep]\n",
		call: shellCall("daemon", daemonCommand)}
	return []vehicle{native, shell}
}

// daemonProject is an agent capsule in dir whose scripted driver has v
// leave a daemon.
func daemonProject(t *testing.T, dir string, v vehicle) {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeDaemonManifest(t, dir, v, `[{"tool_calls": [`+v.call+`]}, {"text": "never reached"}]`)
	install := []string{filepath.Join(pkgs, "scripted-0.1.0.mur.zip")}
	if v.artifact != "" {
		install = append(install, filepath.Join(env.pkgs, "daemon-0.1.0.mur.zip"))
	}
	for _, pkg := range install {
		if _, stderr, code := runMur(dir, nil, "install", pkg); code != 0 {
			t.Fatalf("mur install %s: exit %d\n%s", pkg, code, stderr)
		}
	}
}

func writeDaemonManifest(t *testing.T, dir string, v vehicle, turns string) {
	t.Helper()
	yaml := fmt.Sprintf(`name: orphans
version: "0.1.0"
inference:
  endpoint: http://localhost:9
  model: scripted-model
  api_key: sk-inference-key
  driver:
    artifact: scripted
    config: {"turns": %s}
artifacts:
  - name: scripted
    version: "0.1.0"
    runtime: driver
%s%s`, turns, v.artifact, v.capabilities)
	if err := os.WriteFile(filepath.Join(dir, "murmur.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
}

// liveMur is a mur run the test kills.
type liveMur struct {
	cmd    *exec.Cmd
	out    bytes.Buffer
	exited chan struct{}
}

func startMur(t *testing.T, c *exec.Cmd) *liveMur {
	t.Helper()
	m := &liveMur{cmd: c, exited: make(chan struct{})}
	c.Stdout, c.Stderr = &m.out, &m.out
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.Wait()
		close(m.exited)
	}()
	t.Cleanup(func() {
		c.Process.Kill()
		<-m.exited
	})
	return m
}

// waitFile waits, while mur runs, for a file matching glob to hold a
// complete line.
func (m *liveMur) waitFile(t *testing.T, glob string) (string, string) {
	t.Helper()
	for deadline := time.Now().Add(4 * orphanBound); time.Now().Before(deadline); {
		matches, _ := filepath.Glob(glob)
		for _, p := range matches {
			if b, err := os.ReadFile(p); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
				return p, strings.TrimSpace(string(b))
			}
		}
		select {
		case <-m.exited:
			t.Fatalf("mur ended before %s appeared:\n%s", glob, m.out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("%s did not appear in %v:\n%s", glob, 4*orphanBound, m.out.String())
	return "", ""
}

// kill SIGKILLs mur and waits for it.
func (m *liveMur) kill(t *testing.T) {
	t.Helper()
	if err := m.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-m.exited
}

// pinned is a process the test watches through a pidfd, so a reused pid
// is never mistaken for it.
type pinned struct {
	pid, fd int
}

func pin(t *testing.T, pidText string) pinned {
	t.Helper()
	pid, err := strconv.Atoi(pidText)
	if err != nil {
		t.Fatalf("pid %q: %v", pidText, err)
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		t.Fatalf("pidfd_open(%d): %v", pid, err)
	}
	p := pinned{pid: pid, fd: fd}
	t.Cleanup(func() {
		_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		unix.Close(fd)
	})
	return p
}

// goneWithin reports whether the process exits within d.
func (p pinned) goneWithin(d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(p.fd), Events: unix.POLLIN}}
	for deadline := time.Now().Add(d); ; {
		n, err := unix.Poll(fds, int(time.Until(deadline).Milliseconds()))
		if err == unix.EINTR {
			continue
		}
		return err == nil && n == 1
	}
}

// scopeDirs are the session's scope leaves, from its bootstrap.log.
func scopeDirs(t *testing.T, sessionDir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(sessionDir, "logs", "bootstrap.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		_, rest, ok := strings.Cut(line, "cgroup scope: ")
		if !ok {
			continue
		}
		dirs, _, _ := strings.Cut(rest, " (memory ")
		f := strings.Fields(dirs)
		if len(f) < 2 {
			break
		}
		t.Cleanup(func() { removeScope(f[1:]) })
		return f[1:]
	}
	t.Fatalf("no cgroup scope line in bootstrap.log:\n%s", b)
	return nil
}

// removeScope is the test's own cleanup of a scope the code under test
// left: its members killed, its leaves removed.
func removeScope(dirs []string) {
	for deadline := time.Now().Add(orphanBound); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		left := 0
		for _, d := range dirs {
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
					syscall.Kill(pid, syscall.SIGKILL)
				}
			}
			if err := os.Remove(d); err != nil && !errors.Is(err, os.ErrNotExist) {
				left++
			}
		}
		if left == 0 {
			return
		}
	}
}

// assertRemoved checks, within the bound, that every dir is gone.
func assertRemoved(t *testing.T, dirs []string) {
	t.Helper()
	for deadline := time.Now().Add(orphanBound); ; time.Sleep(10 * time.Millisecond) {
		var left []string
		for _, d := range dirs {
			if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
				left = append(left, d)
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("the scope's cgroups outlived the session: %v", left)
			return
		}
	}
}

// reaperOf is mur's scope reaper (0 if it has none).
func reaperOf(mur int) int {
	procs, _ := filepath.Glob("/proc/[0-9]*")
	for _, p := range procs {
		stat, err := os.ReadFile(filepath.Join(p, "stat"))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 2 || f[1] != strconv.Itoa(mur) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		if args := strings.Split(string(cmdline), "\x00"); len(args) > 1 && args[1] == sandbox.ReaperMode {
			pid, _ := strconv.Atoi(filepath.Base(p))
			return pid
		}
	}
	return 0
}

// startDaemonSession runs the daemon capsule until its daemon runs and
// returns mur, the pinned daemon and the scope's leaves.
func startDaemonSession(t *testing.T, u asUser, dir string) (*liveMur, pinned, []string) {
	t.Helper()
	m := startMur(t, u.command(dir, "run", "--task", "leave a daemon"))
	pidFile, pidText := m.waitFile(t, filepath.Join(dir, "workdir", "ses_*", "daemon.pid"))
	daemon := pin(t, pidText)
	// The shell writes its pid before it execs sleep, so the pid may
	// still show the shell that is about to become the daemon.
	if cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", daemon.pid)); !bytes.HasPrefix(cmdline, []byte("sleep\x00")) && !bytes.Contains(cmdline, []byte("\x00__daemon\x00")) && !bytes.Contains(cmdline, []byte("> daemon.pid; exec sleep")) {
		t.Fatalf("daemon.pid names %d, which runs %q", daemon.pid, cmdline)
	}
	dirs := scopeDirs(t, filepath.Dir(pidFile))
	t.Logf("daemon %d in the scope %v", daemon.pid, dirs)
	return m, daemon, dirs
}

// SIGKILL of mur: the reaper kills the daemon and removes the scope.
func TestDaemonDiesWithKilledMur(t *testing.T) {
	for _, u := range users(t) {
		for _, v := range vehicles() {
			t.Run(u.name+"/"+v.name, func(t *testing.T) {
				dir := filepath.Join(u.tree, "kill-"+v.name)
				daemonProject(t, dir, v)
				u.own(t)
				m, daemon, dirs := startDaemonSession(t, u, dir)
				m.kill(t)
				if !daemon.goneWithin(orphanBound) {
					t.Errorf("the daemon %d outlived mur's SIGKILL by %v", daemon.pid, orphanBound)
				}
				assertRemoved(t, dirs)
			})
		}
	}
}

// The reaper killed too (mur stopped first, so it cannot start another):
// the daemon survives until the next mur doctor, or the next mur run,
// kills it and removes the scope.
func TestStaleScopeIsSwept(t *testing.T) {
	for _, u := range users(t) {
		v := vehicles()[0]
		for _, by := range []string{"doctor", "run"} {
			t.Run(u.name+"/"+by, func(t *testing.T) {
				dir := filepath.Join(u.tree, "sweep-"+by)
				daemonProject(t, dir, v)
				u.own(t)
				m, daemon, dirs := startDaemonSession(t, u, dir)
				if err := m.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
					t.Fatal(err)
				}
				if r := reaperOf(m.cmd.Process.Pid); r == 0 {
					t.Errorf("mur %d has no scope reaper", m.cmd.Process.Pid)
				} else if !pin(t, strconv.Itoa(r)).killed(t) {
					t.Fatalf("the reaper %d survived SIGKILL", r)
				}
				m.kill(t)
				if daemon.goneWithin(0) {
					t.Fatal("the daemon died with mur although its reaper was killed first: nothing left to sweep")
				}
				var out []byte
				switch by {
				case "doctor":
					out, _ = u.command(dir, "doctor").CombinedOutput()
					if !strings.Contains(string(out), "stale cgroup scopes: removed what a mur that is gone left behind: murmur-") {
						t.Errorf("mur doctor does not report the stale scope:\n%s", out)
					}
				case "run":
					writeDaemonManifest(t, dir, v, `[{"text": "done"}]`)
					var err error
					if out, err = u.command(dir, "run", "--task", "again").CombinedOutput(); err != nil {
						t.Fatalf("the next mur run: %v\n%s", err, out)
					}
					if !strings.Contains(string(out), "removed a cgroup scope left by a mur that is gone") {
						t.Errorf("mur run does not report the stale scope:\n%s", out)
					}
				}
				t.Logf("mur %s:\n%s", by, out)
				if !daemon.goneWithin(orphanBound) {
					t.Errorf("the daemon %d outlived mur %s:\n%s", daemon.pid, by, out)
				}
				assertRemoved(t, dirs)
			})
		}
	}
}

// killed SIGKILLs p and says whether it exited within the bound.
func (p pinned) killed(t *testing.T) bool {
	t.Helper()
	if err := unix.PidfdSendSignal(p.fd, unix.SIGKILL, nil, 0); err != nil {
		t.Fatal(err)
	}
	return p.goneWithin(orphanBound)
}

// transport: process: the agent CLI and the daemon it left die with a
// SIGKILLed mur (the CLI starts in the session's scope).
func TestProcessCLIDaemonDiesWithKilledMur(t *testing.T) {
	clis, err := fakeCLIs()
	if err != nil {
		t.Fatal(err)
	}
	p := processProject(t, "  command: "+filepath.Join(clis, "claude")+"\n")
	work := t.TempDir()
	m := startMur(t, asUser{mur: env.mur, start: func(*exec.Cmd) {}}.command(p.dir, "run", "--workdir", work, "--task", "daemon"))
	_, pids := m.waitFile(t, filepath.Join(work, "fake-pids"))
	var procs []pinned
	for _, f := range strings.Fields(pids) {
		procs = append(procs, pin(t, f))
	}
	if len(procs) != 2 {
		t.Fatalf("fake-pids %q: want the CLI's pid and its daemon's", pids)
	}
	m.kill(t)
	for i, proc := range procs {
		if !proc.goneWithin(orphanBound) {
			t.Errorf("%s %d outlived mur's SIGKILL by %v", []string{"the CLI", "its daemon"}[i], proc.pid, orphanBound)
		}
	}
}
