package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// The mount primitives of the composed root. Every source is an O_PATH
// descriptor opened before the root's tmpfs covers anything, cloned with
// open_tree and attached with move_mount to a target descriptor, so no
// path is resolved twice and no link the capsule planted is followed.

// openSource opens a host path for binding (links followed: host
// configuration such as /etc/resolv.conf may be one).
func openSource(path string) (int, error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return fd, nil
}

// beneath opens name inside dir without following any link, for the
// entries of the workdir the capsule itself may have replaced.
func beneath(dir int, name string, flags uint64) (int, error) {
	return unix.Openat2(dir, name, &unix.OpenHow{Flags: flags | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS})
}

// workdirDir is the directory name inside the workdir, created if
// missing; anything else found there (a link, a file) is removed first,
// so a capsule cannot point the next subprocess's /tmp elsewhere.
func workdirDir(wd int, name string) (int, error) {
	for range 2 {
		if err := unix.Mkdirat(wd, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, fmt.Errorf("creating %s in the workdir: %w", name, err)
		}
		fd, err := beneath(wd, name, unix.O_PATH|unix.O_DIRECTORY)
		if err == nil {
			return fd, nil
		}
		if !errors.Is(err, unix.ELOOP) && !errors.Is(err, unix.ENOTDIR) {
			return -1, fmt.Errorf("opening %s in the workdir: %w", name, err)
		}
		if err := unix.Unlinkat(wd, name, 0); err != nil {
			return -1, fmt.Errorf("removing the %s the capsule left in the workdir: %w", name, err)
		}
	}
	return -1, fmt.Errorf("%s in the workdir keeps being replaced", name)
}

// writeFresh replaces name in dir by a new file holding text and returns
// it open; whatever was there (a link included) is unlinked, never
// followed.
func writeFresh(dir int, name, text string) (int, error) {
	if err := unix.Unlinkat(dir, name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		if err := unix.Unlinkat(dir, name, unix.AT_REMOVEDIR); err != nil {
			return -1, fmt.Errorf("removing the old %s: %w", name, err)
		}
	}
	fd, err := unix.Openat(dir, name, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return -1, fmt.Errorf("writing %s: %w", name, err)
	}
	for b := []byte(text); len(b) > 0; {
		n, err := unix.Write(fd, b)
		if err != nil {
			unix.Close(fd)
			return -1, fmt.Errorf("writing %s: %w", name, err)
		}
		b = b[n:]
	}
	return fd, nil
}

// mountpoint creates the absolute path p inside the root (a directory,
// or an empty file when file is set) one component at a time, refusing
// links, and returns it open.
func mountpoint(root int, p string, file bool) (int, error) {
	parts := strings.Split(strings.Trim(p, "/"), "/")
	dir, err := unix.Dup(root)
	if err != nil {
		return -1, err
	}
	for i, c := range parts {
		last := i == len(parts)-1
		var fd int
		if last && file {
			fd, err = unix.Openat(dir, c, unix.O_CREAT|unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
		} else {
			if err = unix.Mkdirat(dir, c, 0o755); err == nil || errors.Is(err, unix.EEXIST) {
				fd, err = unix.Openat(dir, c, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			}
		}
		unix.Close(dir)
		if err != nil {
			return -1, fmt.Errorf("creating the mount point %s: %w", p, err)
		}
		dir = fd
	}
	return dir, nil
}

// bindAttrs are the mount attributes of a read-only bind, writableAttrs
// those of the workdir and /tmp.
const (
	bindAttrs     = unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV
	writableAttrs = unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV | unix.MOUNT_ATTR_NOEXEC
)

// bind attaches a recursive clone of the mount tree at src onto target,
// with attrs set on every mount of the clone.
func bind(src, target int, attrs uint64) error {
	tree, err := unix.OpenTree(src, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_EMPTY_PATH|unix.AT_RECURSIVE)
	if err != nil {
		return fmt.Errorf("open_tree: %w", err)
	}
	defer unix.Close(tree)
	if attrs != 0 {
		if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: attrs}); err != nil {
			return fmt.Errorf("mount_setattr: %w", err)
		}
	}
	if err := unix.MoveMount(tree, "", target, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return fmt.Errorf("move_mount: %w", err)
	}
	return nil
}

// fdPath names an open descriptor for the calls that take a path.
func fdPath(fd int) string { return fmt.Sprintf("/proc/self/fd/%d", fd) }
