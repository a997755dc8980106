//go:build unix

package confined

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openat opens name in dir with O_NOFOLLOW, so the kernel refuses a link
// in the last element atomically (no check-then-open window), and
// O_NONBLOCK, so a FIFO planted there cannot hold the open until someone
// opens its other end (OpenFile then refuses it).
func openat(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(int(dir.Fd()), name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, uint32(perm.Perm()))
	switch {
	case errors.Is(err, unix.ELOOP):
		return nil, ErrSymlink
	case errors.Is(err, unix.ENXIO): // a FIFO or socket nobody reads
		return nil, ErrNotRegular
	case err != nil:
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// soleLink reports whether fi is a file no other name links to.
func soleLink(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1
}
