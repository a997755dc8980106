package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
	"golang.org/x/sys/unix"
)

// The systemd user manager's D-Bus names (org.freedesktop.systemd1(5)).
const (
	systemdName    = "org.freedesktop.systemd1"
	systemdPath    = dbus.ObjectPath("/org/freedesktop/systemd1")
	systemdManager = "org.freedesktop.systemd1.Manager"
	// unitExists is the error StartTransientUnit answers in mode "fail"
	// when the name is taken: a unit of an earlier process with this pid
	// that systemd has not collected yet.
	unitExists = "org.freedesktop.systemd1.UnitExists"
)

const (
	// systemdTimeout bounds the whole exchange with the user manager:
	// connecting, the call and the job's end. A manager that does not
	// answer in time leaves the process where it was.
	systemdTimeout = 10 * time.Second
	// maxUnitSerial bounds the names tried when earlier ones are taken.
	maxUnitSerial = 16
)

// unitName is security.md §12.2's murmur-<pid>-<serial>.scope.
func unitName(serial int) string {
	return fmt.Sprintf("murmur-%d-%d.scope", os.Getpid(), serial)
}

// sessionBusAddress is where the user's session bus listens, as a systemd
// session finds it: DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus
// when that is a socket. Nothing is ever launched to provide one.
func sessionBusAddress() (string, error) {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a, nil
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		return "", errors.New("no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset")
	}
	p := filepath.Join(dir, "bus")
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return "", fmt.Errorf("no session bus: DBUS_SESSION_BUS_ADDRESS is unset and %s is not a socket", p)
	}
	return "unix:path=" + p, nil
}

// userManager is a connection to the session bus on which the systemd
// user manager owns its name.
type userManager struct {
	conn *dbus.Conn
	// owner is the manager's unique bus name: only its signals count.
	owner string
}

// dialUserManager connects to the session bus and finds the manager on
// it; ctx bounds the connection's whole life.
func dialUserManager(ctx context.Context) (*userManager, error) {
	addr, err := sessionBusAddress()
	if err != nil {
		return nil, err
	}
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return nil, fmt.Errorf("connecting to the session bus %s: %w", addr, err)
	}
	var owner string
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetNameOwner", 0, systemdName).Store(&owner); err != nil {
		conn.Close()
		return nil, fmt.Errorf("no systemd user manager on the session bus %s (%w)", addr, err)
	}
	return &userManager{conn: conn, owner: owner}, nil
}

// systemdUserManager says why no systemd user manager can be asked for a
// scope (nil when one answers on the session bus), without asking it for
// anything.
func systemdUserManager(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, systemdTimeout)
	defer cancel()
	m, err := dialUserManager(ctx)
	if err != nil {
		return err
	}
	m.conn.Close()
	return nil
}

// property is one (sv) of StartTransientUnit's properties.
type property struct {
	Name  string
	Value dbus.Variant
}

// auxUnit is one a(sa(sv)) entry: a scope has none, but the signature
// needs the type.
type auxUnit struct {
	Name  string
	Props []property
}

// JoinSystemdScope moves this process into a transient scope of its own
// that the systemd user manager delegates to it (security.md §12.2): it
// calls StartTransientUnit for murmur-<pid>-<serial>.scope with this
// process as its one PID, Delegate=yes and CollectMode=inactive-or-failed
// (the unit is collected once it is empty, failed or not), waits for the
// job to end and checks /proc/self/cgroup that the process is in the
// unit. A process already in a scope of its own (an earlier session of
// the same process) stays there. The scope becomes the inherited cgroup
// NewCgroup builds under; the error says why there is none, and leaves
// the process where it was.
func JoinSystemdScope(ctx context.Context) (string, error) {
	if unit := ownUnit(); unit != "" {
		return unit, nil
	}
	ctx, cancel := context.WithTimeout(ctx, systemdTimeout)
	defer cancel()
	m, err := dialUserManager(ctx)
	if err != nil {
		return "", err
	}
	defer m.conn.Close()
	jobs := make(chan *dbus.Signal, 16)
	m.conn.Signal(jobs)
	if err := m.conn.AddMatchSignalContext(ctx, dbus.WithMatchSender(m.owner), dbus.WithMatchObjectPath(systemdPath),
		dbus.WithMatchInterface(systemdManager), dbus.WithMatchMember("JobRemoved")); err != nil {
		return "", fmt.Errorf("subscribing to the systemd user manager's jobs: %w", err)
	}
	for serial := 0; serial < maxUnitSerial; serial++ {
		unit := unitName(serial)
		err := m.startScope(ctx, unit, jobs)
		var de dbus.Error
		if errors.As(err, &de) && de.Name == unitExists {
			continue
		}
		if err != nil {
			return "", err
		}
		if !inUnit(unit) {
			return "", fmt.Errorf("the systemd user manager started %s but this process is not in it", unit)
		}
		return unit, nil
	}
	return "", fmt.Errorf("the systemd user manager has units named murmur-%d-0.scope to murmur-%d-%d.scope already", os.Getpid(), os.Getpid(), maxUnitSerial-1)
}

// startScope asks for unit and waits for its job to end.
func (m *userManager) startScope(ctx context.Context, unit string, jobs <-chan *dbus.Signal) error {
	props := []property{
		{"Description", dbus.MakeVariant("Murmur capsule runtime (mur) and its sessions' subprocesses")},
		{"PIDs", dbus.MakeVariant([]uint32{uint32(os.Getpid())})},
		{"Delegate", dbus.MakeVariant(true)},
		{"CollectMode", dbus.MakeVariant("inactive-or-failed")},
	}
	var job dbus.ObjectPath
	// "fail": a unit of that name is never replaced, only another name tried.
	err := m.conn.Object(systemdName, systemdPath).CallWithContext(ctx, systemdManager+".StartTransientUnit", 0,
		unit, "fail", props, []auxUnit{}).Store(&job)
	if err != nil {
		var de dbus.Error
		if errors.As(err, &de) && de.Name == unitExists {
			return de
		}
		return fmt.Errorf("the systemd user manager refused %s: %w", unit, err)
	}
	// The job may end before its path is read: a JobRemoved for the unit
	// is this job's either way (the name is this process's).
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("the systemd user manager's job for %s did not end in %s", unit, systemdTimeout)
		case s, ok := <-jobs:
			if !ok {
				return fmt.Errorf("the session bus closed while the systemd user manager started %s", unit)
			}
			var id uint32
			var path dbus.ObjectPath
			var name, result string
			if s.Sender != m.owner || s.Name != systemdManager+".JobRemoved" || dbus.Store(s.Body, &id, &path, &name, &result) != nil || name != unit {
				continue
			}
			if result != "done" {
				return fmt.Errorf("the systemd user manager's job %s for %s ended %q", path, unit, result)
			}
			return nil
		}
	}
}

// ownUnit is the transient scope of this process it sits in (or below,
// in the supervisor leaf), "" when none.
func ownUnit() string {
	prefix := fmt.Sprintf("murmur-%d-", os.Getpid())
	for _, p := range selfCgroupPaths() {
		for _, el := range strings.Split(p, "/") {
			if strings.HasPrefix(el, prefix) && isUnitName(el) {
				return el
			}
		}
	}
	return ""
}

// inUnit says whether /proc/self/cgroup puts this process in unit itself
// in some hierarchy (the unified one on systemd's hosts).
func inUnit(unit string) bool {
	for _, p := range selfCgroupPaths() {
		if filepath.Base(p) == unit {
			return true
		}
	}
	return false
}

// selfCgroupPaths are the paths /proc/self/cgroup gives, one per
// hierarchy.
func selfCgroupPaths() []string {
	var out []string
	_ = eachLine("/proc/self/cgroup", func(line string) {
		if parts := strings.SplitN(line, ":", 3); len(parts) == 3 {
			out = append(out, parts[2])
		}
	})
	return out
}

// isUnitName says whether name is a transient scope unit mur asks for:
// murmur-<pid>-<serial>.scope.
func isUnitName(name string) bool {
	rest, ok := strings.CutPrefix(name, "murmur-")
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, ".scope")
	pid, serial, two := strings.Cut(rest, "-")
	return ok && two && digits(pid) && digits(serial)
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
