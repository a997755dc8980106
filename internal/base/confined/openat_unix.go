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

// openDir opens the directory name in root to open files in. Asking for
// O_NONBLOCK saves os four fcntl calls of making the descriptor
// non-blocking for its poller and back (a directory is never polled);
// nothing reads the directory itself.
func openDir(root *os.Root, name string) (*os.File, error) {
	return root.OpenFile(name, os.O_RDONLY|unix.O_NONBLOCK, 0)
}

// soleLink reports whether fi is a file no other name links to.
func soleLink(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1
}
