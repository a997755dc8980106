//go:build unix

package wasip2

import (
	"os"
	"syscall"
)

// openNoBlock keeps open(2) from waiting for a FIFO's other end and from
// making a terminal the process's controlling one.
const openNoBlock = syscall.O_NONBLOCK | syscall.O_NOCTTY

// clearNonblock restores blocking I/O on a regular file once it is known
// to be one, so reads and writes behave as on any file.
func clearNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}

// openParent opens directory p of root for an *at call on a name in it,
// with O_DIRECTORY|O_NONBLOCK so a FIFO swapped in cannot block it (see
// openSubRoot).
func openParent(root *os.Root, p string) (*os.File, error) {
	return root.OpenFile(p, os.O_RDONLY|syscall.O_DIRECTORY|openNoBlock, 0)
}
