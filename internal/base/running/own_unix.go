//go:build unix

package running

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// openOwnDir opens dir without following a link in its last element and
// checks, on the opened descriptor (no window between check and use),
// that it is a directory of this user's that group and others cannot
// write to.
func openOwnDir(dir string) (*os.File, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ENOENT):
		return nil, os.ErrNotExist
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		return nil, fmt.Errorf("refusing the running-session registry %s: it is not a directory (a symbolic link?)", dir)
	case err != nil:
		return nil, fmt.Errorf("opening the running-session registry %s: %w", dir, err)
	}
	f := os.NewFile(uintptr(fd), dir)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		f.Close()
		return nil, fmt.Errorf("opening the running-session registry %s: %w", dir, err)
	}
	if uid := os.Getuid(); int(st.Uid) != uid || st.Mode&0o022 != 0 {
		f.Close()
		return nil, fmt.Errorf("refusing the running-session registry %s: it belongs to uid %d with mode %#o; it must be yours and writable by you alone (chmod 700, or remove it)", dir, st.Uid, st.Mode&0o777)
	}
	return f, nil
}

// readOwnFile reads name in dir if it is a regular file of this user's,
// opened without following a link, of at most max bytes.
func readOwnFile(dir *os.File, name string, max int64) ([]byte, error) {
	fd, err := unix.Openat(int(dir.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != os.Getuid() || st.Size > max {
		return nil, fmt.Errorf("%s is not a registry entry of this user's", name)
	}
	return io.ReadAll(io.LimitReader(f, max))
}
