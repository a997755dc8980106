package sandbox

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Who writes a new user namespace's id maps. mur marks itself
// non-dumpable first (cmd/mur), and the kernel then gives every
// /proc/<pid> file of it, and of a child it forks until that child execs,
// to root: a runtime that is not root cannot open its child's uid_map,
// so Go's SysProcAttr.UidMappings fail the fork with EACCES. The
// trampoline, once exec'd, is dumpable again and owns /proc/self, and
// user_namespaces(7) lets any process map the one uid and gid it runs as
// (a single line each, setgroups denied before the gid map): so where
// the runtime is not root, the trampoline maps itself.

// parentMapsIDs reports whether the runtime writes a child's id maps: as
// root it may open a non-dumpable child's /proc files and map any id,
// which a Credential switching the child to another uid needs (the child
// switches before it execs, so the map must exist by then).
func parentMapsIDs() bool { return os.Geteuid() == 0 }

// mapSelf writes this process's id maps in the user namespace it was
// cloned into, ids onto themselves, setgroups denied first. It needs
// CAP_SYS_ADMIN in that namespace (Wrap's ambient set) and is the
// trampoline's first step there: until then its uid is the overflow
// uid inside. A nil ids does nothing.
func mapSelf(ids *IDs) error {
	if ids == nil {
		return nil
	}
	// An exec-only mur binary (mode 0711) leaves the exec'd trampoline
	// non-dumpable too, its /proc/self files root's: it takes them back.
	// It holds nothing the tool it becomes will not (the tool's argv and
	// environment), and any binary mur can read is dumpable here anyway.
	if d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0); err == nil && d != 1 {
		if err := unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0); err != nil {
			return fmt.Errorf("user namespace: prctl(PR_SET_DUMPABLE): %w", err)
		}
	}
	for _, f := range []struct{ name, text string }{
		{"setgroups", "deny"},
		{"uid_map", fmt.Sprintf("%d %d 1\n", ids.UID, ids.UID)},
		{"gid_map", fmt.Sprintf("%d %d 1\n", ids.GID, ids.GID)},
	} {
		if err := writeProcSelf(f.name, f.text); err != nil {
			return fmt.Errorf("user namespace: mapping uid %d and gid %d: /proc/self/%s: %w", ids.UID, ids.GID, f.name, err)
		}
	}
	return nil
}

// writeProcSelf writes text to /proc/self/name in one write, as the id
// map files require.
func writeProcSelf(name, text string) error {
	fd, err := unix.Open("/proc/self/"+name, unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if _, err := unix.Write(fd, []byte(text)); err != nil {
		return err
	}
	return nil
}
