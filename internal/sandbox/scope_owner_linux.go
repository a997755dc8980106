package sandbox

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// scopeXattr is the extended attribute of a leaf holding its scopeRecord
// (cgroupfs keeps user.* attributes since Linux 5.7).
const scopeXattr = "user.mur.scope"

// claim locks every leaf shared for as long as this process (and the
// reaper, which inherits the descriptors) lives, and only then marks it
// with the scope's record: a sweep never sees a marked leaf unlocked
// while its owner lives, and never touches an unmarked one.
func (c *Cgroup) claim() error {
	rec := scopeRecord{Owner: os.Getpid(), Leaves: c.leaves}.encode()
	for _, leaf := range c.leaves {
		f, err := openLeaf(leaf)
		if err != nil {
			return err
		}
		c.locks = append(c.locks, f)
		if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); err != nil {
			return fmt.Errorf("locking %s: %w", leaf, err)
		}
		if err := unix.Fsetxattr(int(f.Fd()), scopeXattr, rec, 0); err != nil {
			return fmt.Errorf("marking %s as this session's scope (extended attribute %s, Linux 5.7 or later): %w", leaf, scopeXattr, err)
		}
	}
	return nil
}

// openLeaf opens a leaf directory to lock it, never through a final
// symlink.
func openLeaf(leaf string) (*os.File, error) {
	fd, err := unix.Open(leaf, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: leaf, Err: err}
	}
	return os.NewFile(uintptr(fd), leaf), nil
}

// readScopeRecord reads and decodes leaf's record, checking that leaf is
// a cgroup (v1 or v2) directory.
func readScopeRecord(leaf string) (scopeRecord, error) {
	var fs unix.Statfs_t
	if err := unix.Statfs(leaf, &fs); err != nil {
		return scopeRecord{}, &os.PathError{Op: "statfs", Path: leaf, Err: err}
	}
	if fs.Type != unix.CGROUP_SUPER_MAGIC && fs.Type != unix.CGROUP2_SUPER_MAGIC {
		return scopeRecord{}, fmt.Errorf("%s is not in a cgroup filesystem", leaf)
	}
	buf := make([]byte, 4096)
	n, err := unix.Lgetxattr(leaf, scopeXattr, buf)
	if errors.Is(err, unix.ERANGE) {
		return scopeRecord{}, fmt.Errorf("%s: the scope record is too long", leaf)
	}
	if err != nil {
		return scopeRecord{}, &os.PathError{Op: "getxattr " + scopeXattr, Path: leaf, Err: err}
	}
	return decodeScopeRecord(buf[:n])
}
