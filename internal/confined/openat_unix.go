//go:build unix

package confined

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openat opens name in dir with O_NOFOLLOW, so the kernel refuses a link
// in the last element atomically (no check-then-open window).
func openat(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(int(dir.Fd()), name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if errors.Is(err, unix.ELOOP) {
		return nil, ErrSymlink
	}
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}
