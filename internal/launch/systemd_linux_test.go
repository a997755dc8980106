//go:build linux

package launch_test

// A normal user on a normal systemd host (issue 25): no cgroup is
// delegated to the user's login session, so mur asks the systemd user
// manager on the session bus for a transient scope with Delegate=yes and
// builds the session's scope there (security.md §12.2). A stand-in for
// the manager on a real dbus-daemon (cgrouptest.StartSystemd) makes the
// unit's cgroups under this test's own, hands them to the caller and
// moves it in, so mur's client side runs as it would against systemd.
// The capsule's subprocess is a native tool: shell capsules are refused
// as an unprivileged uid where user namespaces are unavailable (another
// issue).

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/testing/cgrouptest"
)

// needRoot skips where the test cannot make cgroups or run mur as
// another uid (CI runs as root).
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: the test makes cgroups and runs mur as uid 65534")
	}
}

// nobodyWithout is uid 65534 in a tree of its own holding a copy of mur,
// with no cgroup delegated to it; extra is added to mur's environment.
func nobodyWithout(t *testing.T, extra []string) asUser {
	t.Helper()
	tree, err := os.MkdirTemp("", "mur-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tree) })
	mur := filepath.Join(tree, "mur")
	if err := copyFile(env.mur, mur); err != nil {
		t.Fatal(err)
	}
	return asUser{name: "nobody", mur: mur, tree: tree, start: func(c *exec.Cmd) {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		c.Env = append(c.Env, extra...)
	}}
}

// nativeProject is an agent capsule in dir whose scripted driver calls
// the native tool victim (testdata/record) once, then answers "done".
func nativeProject(t *testing.T, dir string) {
	t.Helper()
	pkgs, err := agentPkgs()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	v := vehicle{artifact: "  - name: victim\n    version: \"0.1.0\"\n    runtime: tool\n"}
	writeDaemonManifest(t, dir, v, `[{"tool_calls": [{"id": "rec", "name": "victim", "input": {"data": "hello"}}]}, {"text": "done"}]`)
	for _, pkg := range []string{filepath.Join(pkgs, "scripted-0.1.0.mur.zip"), filepath.Join(env.pkgs, "victim-0.1.0.mur.zip")} {
		if _, stderr, code := runMur(dir, nil, "install", pkg); code != 0 {
			t.Fatalf("mur install %s: exit %d\n%s", pkg, code, stderr)
		}
	}
}

// murRun is one mur run's outcome.
type murRun struct {
	pid            int
	stdout, stderr string
	code           int
}

func (u asUser) run(t *testing.T, dir string, args ...string) murRun {
	t.Helper()
	c := u.command(dir, args...)
	var out, errb strings.Builder
	c.Stdout, c.Stderr = &out, &errb
	err := c.Run()
	r := murRun{stdout: out.String(), stderr: errb.String(), code: c.ProcessState.ExitCode()}
	if c.Process != nil {
		r.pid = c.Process.Pid
	}
	if err != nil && r.code <= 0 {
		t.Fatalf("mur %v: %v", args, err)
	}
	return r
}

// sessionDir is the one session directory under dir's workdir.
func sessionDir(t *testing.T, dir string) string {
	t.Helper()
	s, _ := filepath.Glob(filepath.Join(dir, "workdir", "ses_*"))
	if len(s) != 1 {
		t.Fatalf("want one session directory, found %v", s)
	}
	return s[0]
}

func TestSystemdScope(t *testing.T) {
	needRoot(t)
	cases := []struct {
		name string
		opts cgrouptest.SystemdOptions
		// runtimeDir finds the bus as $XDG_RUNTIME_DIR/bus instead of
		// through DBUS_SESSION_BUS_ADDRESS.
		runtimeDir bool
		serial     int
		// refused is what E-RUN-012 says ("" for a run that ends ok).
		refused string
	}{
		{name: "the transient scope", serial: 0},
		{name: "the bus in XDG_RUNTIME_DIR", runtimeDir: true, serial: 0},
		{name: "a name not yet collected", opts: cgrouptest.SystemdOptions{Exists: 2}, serial: 2},
		{name: "a failed job", opts: cgrouptest.SystemdOptions{Result: "failed"}, refused: `ended "failed"`},
		{name: "a manager that does not move mur", opts: cgrouptest.SystemdOptions{Stay: true}, refused: "but this process is not in it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sd := cgrouptest.StartSystemd(t, c.opts)
			bus := []string{"DBUS_SESSION_BUS_ADDRESS=" + sd.Address}
			if c.runtimeDir {
				bus = []string{"XDG_RUNTIME_DIR=" + filepath.Dir(sd.Socket)}
			}
			u := nobodyWithout(t, bus)
			dir := filepath.Join(u.tree, "project")
			nativeProject(t, dir)
			u.own(t)
			r := u.run(t, dir, "run", "--task", "record hello")
			calls := sd.Calls()
			if len(calls) != c.opts.Exists+1 {
				t.Fatalf("StartTransientUnit was called %d times, want %d: %+v\n%s", len(calls), c.opts.Exists+1, calls, r.stderr)
			}
			unit := fmt.Sprintf("murmur-%d-%d.scope", r.pid, c.serial)
			want := cgrouptest.Call{Unit: unit, Mode: "fail", UID: 65534, PIDs: []uint32{uint32(r.pid)}, Delegate: true,
				CollectMode: "inactive-or-failed", Props: []string{"Description", "PIDs", "Delegate", "CollectMode"}}
			if got := calls[len(calls)-1]; !equalCall(got, want) {
				t.Errorf("StartTransientUnit(%+v), want %+v", got, want)
			}
			if c.refused != "" {
				if r.code != 1 || !strings.Contains(r.stderr, "error[E-RUN-012]") || !strings.Contains(r.stderr, c.refused) ||
					!strings.Contains(r.stderr, "in the inherited cgroup: ") {
					t.Fatalf("mur run: exit %d, want E-RUN-012 saying %q and why the inherited cgroup holds none\n%s", r.code, c.refused, r.stderr)
				}
				return
			}
			if r.code != 0 || !strings.Contains(r.stdout, "\nstatus:  ok\n") {
				t.Fatalf("mur run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			ses := sessionDir(t, dir)
			if rec, err := os.ReadFile(filepath.Join(ses, "record.txt")); err != nil || !strings.Contains(string(rec), "hello") {
				t.Errorf("the native tool did not run: record.txt %q, %v", rec, err)
			}
			boot, _ := os.ReadFile(filepath.Join(ses, "logs", "bootstrap.log"))
			if !strings.Contains(string(boot), "; in the systemd user manager's transient scope "+unit) {
				t.Errorf("bootstrap.log does not name the scope %s:\n%s", unit, boot)
			}
			// The session's leaves were in the unit's delegated cgroups.
			dirs := scopeDirsIn(t, string(boot))
			units := sd.Units()[unit]
			for _, d := range dirs {
				if !slices.ContainsFunc(units, func(u string) bool { return filepath.Dir(d) == u }) {
					t.Errorf("the session's leaf %s is not in the unit's cgroups %v", d, units)
				}
			}
			// Nothing outlived the session: what systemd would collect.
			if left := sd.Left(); len(left) > 0 {
				t.Errorf("the unit still holds %v after mur ended", left)
			}
		})
	}
}

// equalCall compares two calls field by field.
func equalCall(a, b cgrouptest.Call) bool {
	return a.Unit == b.Unit && a.Mode == b.Mode && a.UID == b.UID && slices.Equal(a.PIDs, b.PIDs) &&
		a.Delegate == b.Delegate && a.CollectMode == b.CollectMode && slices.Equal(a.Props, b.Props)
}

// scopeDirsIn are the scope's leaves named by bootstrap.log's line.
func scopeDirsIn(t *testing.T, boot string) []string {
	t.Helper()
	for _, line := range strings.Split(boot, "\n") {
		if _, rest, ok := strings.Cut(line, "cgroup scope: "); ok {
			dirs, _, _ := strings.Cut(rest, " (memory ")
			if f := strings.Fields(dirs); len(f) > 1 {
				return f[1:]
			}
		}
	}
	t.Fatalf("no cgroup scope line in bootstrap.log:\n%s", boot)
	return nil
}

// Nothing a session starts outlives it in a systemd scope either: the
// reaper kills a SIGKILLed mur's daemon in the unit's cgroups, and when
// the reaper is killed too, the next mur run (in a unit of its own)
// sweeps the one beside it.
func TestSystemdScopeOutlivesNothing(t *testing.T) {
	needRoot(t)
	sd := cgrouptest.StartSystemd(t, cgrouptest.SystemdOptions{})
	u := nobodyWithout(t, []string{"DBUS_SESSION_BUS_ADDRESS=" + sd.Address})
	// A native tool leaves the daemon (testdata/hostile).
	v := vehicle{name: "native", artifact: "  - name: daemon\n    version: \"0.1.0\"\n    runtime: tool\n",
		call: `{"id": "daemon", "name": "daemon", "input": {}}`}
	for _, reaper := range []bool{false, true} {
		t.Run(fmt.Sprintf("reaper killed %v", reaper), func(t *testing.T) {
			dir := filepath.Join(u.tree, fmt.Sprintf("daemon-%v", reaper))
			daemonProject(t, dir, v)
			u.own(t)
			m, daemon, dirs := startDaemonSession(t, u, dir)
			unit := fmt.Sprintf("murmur-%d-0.scope", m.cmd.Process.Pid)
			if units := sd.Units()[unit]; !slices.Contains(units, filepath.Dir(dirs[0])) {
				t.Fatalf("the session's leaf %s is not in %s's cgroups %v", dirs[0], unit, units)
			}
			if reaper {
				if err := m.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
					t.Fatal(err)
				}
				if r := reaperOf(m.cmd.Process.Pid); r == 0 {
					t.Fatalf("mur %d has no scope reaper", m.cmd.Process.Pid)
				} else if !pin(t, fmt.Sprint(r)).killed(t) {
					t.Fatalf("the reaper %d survived SIGKILL", r)
				}
			}
			m.kill(t)
			if reaper {
				if daemon.goneWithin(0) {
					t.Fatal("the daemon died with mur although its reaper was killed first: nothing left to sweep")
				}
				writeDaemonManifest(t, dir, v, `[{"text": "done"}]`)
				r := u.run(t, dir, "run", "--task", "again")
				if r.code != 0 || !strings.Contains(r.stderr, "removed a cgroup scope left by a mur that is gone") {
					t.Errorf("the next mur run (exit %d) does not report the stale scope in %s:\n%s", r.code, unit, r.stderr)
				}
			}
			if !daemon.goneWithin(orphanBound) {
				t.Errorf("the daemon %d outlived its session in %s", daemon.pid, unit)
			}
			assertRemoved(t, dirs)
		})
	}
}
