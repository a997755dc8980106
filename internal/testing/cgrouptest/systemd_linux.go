package cgrouptest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"golang.org/x/sys/unix"
)

// busConfig is a session bus any local user may connect to: the stand-in
// runs as root (it makes cgroups), the mur under test as a user.
const busConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

const (
	managerPath  = dbus.ObjectPath("/org/freedesktop/systemd1")
	managerIface = "org.freedesktop.systemd1.Manager"
)

// SystemdOptions say how the stand-in answers.
type SystemdOptions struct {
	// Result is the JobRemoved result of every job ("" is "done").
	Result string
	// Exists is how many calls, the first ones, are answered
	// org.freedesktop.systemd1.UnitExists (a unit of that name not yet
	// collected).
	Exists int
	// Stay answers done without moving the PIDs (a manager that lies).
	Stay bool
}

// Systemd is a real dbus-daemon serving a private session bus, with a
// stand-in for the systemd user manager on it: its
// org.freedesktop.systemd1.Manager.StartTransientUnit makes the scope's
// cgroup in each hierarchy (under cgroups of this test's own), hands it
// to the caller's uid when Delegate is true, moves the PIDs in (each
// must be the caller's) and emits JobRemoved, as systemd does.
type Systemd struct {
	// Address is the bus's DBUS_SESSION_BUS_ADDRESS.
	Address string
	// Socket is the bus's socket ($XDG_RUNTIME_DIR/bus for a
	// XDG_RUNTIME_DIR of its directory).
	Socket string
	opts   SystemdOptions
	conn   *dbus.Conn
	// parents are where units are made: a slice-like cgroup of this
	// test's own in the unified hierarchy (systemd names its units
	// there) and, on a hybrid host, in the v1 memory, pids, cpu (and
	// blkio) ones, whose controllers the scope then has.
	parents []string

	mu    sync.Mutex
	calls []Call
	units map[string][]string
	jobs  uint32
}

// Call is one StartTransientUnit the stand-in answered.
type Call struct {
	Unit, Mode  string
	UID         uint32
	PIDs        []uint32
	Delegate    bool
	CollectMode string
	// Props are every property's name, in order.
	Props []string
}

// StartSystemd starts the bus and the stand-in; both end with the test,
// and the units' cgroups are removed then (the test checks first that
// nothing was left in them, with Left).
func StartSystemd(t testing.TB, o SystemdOptions) *Systemd {
	t.Helper()
	dir, err := os.MkdirTemp("", "mur-bus-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// Any user reaches the socket: the bus's policy says who may connect.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := &Systemd{Socket: filepath.Join(dir, "bus"), opts: o, units: map[string][]string{}}
	s.parents = Make(t, "mur-systemd", true)
	if !Unified(t) {
		s.parents = append(s.parents, Make(t, "mur-systemd", false)...)
	}
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, fmt.Appendf(nil, busConfig, s.Socket), 0o644); err != nil {
		t.Fatal(err)
	}
	daemon := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1", "--nopidfile")
	out, err := daemon.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := daemon.Start(); err != nil {
		t.Fatalf("starting dbus-daemon (Debian package dbus): %v", err)
	}
	t.Cleanup(func() {
		daemon.Process.Kill()
		daemon.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	go io.Copy(io.Discard, out)
	s.Address = strings.TrimSpace(line)
	if s.conn, err = dbus.Connect(s.Address); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.conn.Close() })
	if err := s.conn.Export(manager{s}, managerPath, managerIface); err != nil {
		t.Fatal(err)
	}
	if r, err := s.conn.RequestName("org.freedesktop.systemd1", dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning org.freedesktop.systemd1: %v %v", r, err)
	}
	t.Cleanup(s.remove)
	return s
}

// Calls are the StartTransientUnit calls answered so far.
func (s *Systemd) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call{}, s.calls...)
}

// Units are the units made so far, each with its cgroups.
func (s *Systemd) Units() map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]string{}
	for u, d := range s.units {
		out[u] = append([]string{}, d...)
	}
	return out
}

// Left says what is still in the units' cgroups (processes, and
// cgroups below them other than an empty murmur-supervisor leaf): what
// systemd would find in a scope whose mur is gone, which keeps it alive.
func (s *Systemd) Left() []string {
	var left []string
	for _, dirs := range s.Units() {
		for _, d := range dirs {
			filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
				if err != nil || !e.IsDir() {
					return nil
				}
				if procs, _ := os.ReadFile(filepath.Join(p, "cgroup.procs")); len(strings.TrimSpace(string(procs))) > 0 {
					left = append(left, fmt.Sprintf("%s: processes %s", p, strings.Fields(string(procs))))
				}
				if p != d && filepath.Base(p) != "murmur-supervisor" {
					left = append(left, p)
				}
				return nil
			})
		}
	}
	return left
}

// remove kills what is left in the units and removes their cgroups, as
// systemd collects a unit (the test's cleanup, never what it checks).
func (s *Systemd) remove() {
	for _, dirs := range s.Units() {
		for _, d := range dirs {
			var all []string
			filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
				if err == nil && e.IsDir() {
					all = append(all, p)
				}
				return nil
			})
			for i := len(all) - 1; i >= 0; i-- {
				os.WriteFile(filepath.Join(all[i], "cgroup.kill"), []byte("1"), 0)
				if procs, err := os.ReadFile(filepath.Join(all[i], "cgroup.procs")); err == nil {
					for _, f := range strings.Fields(string(procs)) {
						if pid, err := strconv.Atoi(f); err == nil {
							_ = unix.Kill(pid, unix.SIGKILL)
						}
					}
				}
				// The killed leave once reaped: a bounded wait, cleanup only.
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
					if err := os.Remove(all[i]); err == nil || errors.Is(err, os.ErrNotExist) {
						break
					}
				}
			}
		}
	}
}

// manager is the exported org.freedesktop.systemd1.Manager.
type manager struct{ s *Systemd }

type property struct {
	Name  string
	Value dbus.Variant
}

type auxUnit struct {
	Name  string
	Props []property
}

// StartTransientUnit is systemd's (name, mode, properties, aux) → job.
func (m manager) StartTransientUnit(sender dbus.Sender, name, mode string, props []property, aux []auxUnit) (dbus.ObjectPath, *dbus.Error) {
	s := m.s
	var uid uint32
	if err := s.conn.BusObject().Call("org.freedesktop.DBus.GetConnectionUnixUser", 0, string(sender)).Store(&uid); err != nil {
		return "", dbus.MakeFailedError(err)
	}
	c := Call{Unit: name, Mode: mode, UID: uid}
	for _, p := range props {
		c.Props = append(c.Props, p.Name)
		switch p.Name {
		case "PIDs":
			if err := p.Value.Store(&c.PIDs); err != nil {
				return "", dbus.MakeFailedError(err)
			}
		case "Delegate":
			if err := p.Value.Store(&c.Delegate); err != nil {
				return "", dbus.MakeFailedError(err)
			}
		case "CollectMode":
			if err := p.Value.Store(&c.CollectMode); err != nil {
				return "", dbus.MakeFailedError(err)
			}
		}
	}
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.jobs++
	job := dbus.ObjectPath(fmt.Sprintf("/org/freedesktop/systemd1/job/%d", s.jobs))
	id := s.jobs
	_, exists := s.units[name]
	exists = exists || len(s.calls) <= s.opts.Exists
	s.mu.Unlock()
	if exists {
		return "", dbus.NewError("org.freedesktop.systemd1.UnitExists", []any{"Unit " + name + " already exists."})
	}
	if len(aux) > 0 || !strings.HasSuffix(name, ".scope") || len(c.PIDs) == 0 {
		return "", dbus.NewError("org.freedesktop.DBus.Error.InvalidArgs", []any{"a scope needs PIDs and no auxiliary units"})
	}
	for _, pid := range c.PIDs {
		if owner, err := processUID(pid); err != nil || owner != uid {
			return "", dbus.NewError("org.freedesktop.DBus.Error.AccessDenied", []any{fmt.Sprintf("process %d is not the caller's", pid)})
		}
	}
	result := s.opts.Result
	if result == "" {
		result = "done"
	}
	if result == "done" {
		// A failed job starts nothing.
		dirs, err := s.makeUnit(name, c)
		s.mu.Lock()
		s.units[name] = dirs
		s.mu.Unlock()
		if err != nil {
			return "", dbus.MakeFailedError(err)
		}
	}
	// systemd runs the job after answering; the signal may reach the
	// caller before the reply or after it.
	go s.conn.Emit(managerPath, managerIface+".JobRemoved", id, job, name, result)
	return job, nil
}

// makeUnit makes the unit's cgroup in each hierarchy, delegates it and
// moves the PIDs in.
func (s *Systemd) makeUnit(name string, c Call) ([]string, error) {
	var dirs []string
	for _, parent := range s.parents {
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return dirs, err
		}
		dirs = append(dirs, dir)
		if c.Delegate {
			if err := chownCgroup(dir, int(c.UID)); err != nil {
				return dirs, err
			}
		}
	}
	if s.opts.Stay {
		return dirs, nil
	}
	for _, dir := range dirs {
		for _, pid := range c.PIDs {
			if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(int(pid))), 0); err != nil {
				return dirs, err
			}
		}
	}
	return dirs, nil
}

// chownCgroup hands a cgroup to uid as Delegate=yes does: the directory
// and the files in it.
func chownCgroup(dir string, uid int) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if err := os.Chown(dir, uid, uid); err != nil {
		return err
	}
	for _, e := range entries {
		_ = os.Chown(filepath.Join(dir, e.Name()), uid, uid) // a file the kernel keeps root's stays so
	}
	return nil
}

// processUID is the real uid of process pid.
func processUID(pid uint32) (uint32, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				n, err := strconv.ParseUint(f[0], 10, 32)
				return uint32(n), err
			}
		}
	}
	return 0, fmt.Errorf("no Uid line in /proc/%d/status", pid)
}
