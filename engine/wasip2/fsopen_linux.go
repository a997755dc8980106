package wasip2

import (
	"os"
	"strconv"
	"syscall"
)

// openSubRoot opens directory p of dir as an os.Root without ever
// opening a FIFO: os.Root.OpenRoot opens its last component without
// O_DIRECTORY, so a directory swapped for a FIFO after it was looked at
// would block it. Opening with O_DIRECTORY fails on anything else at
// once, and the Root is then made from that very directory through its
// /proc/self/fd link, so no second lookup of p can see a different file.
func openSubRoot(dir *os.Root, p string) (*os.Root, error) {
	f, err := dir.OpenFile(p, os.O_RDONLY|syscall.O_DIRECTORY|openNoBlock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := os.OpenRoot("/proc/self/fd/" + strconv.FormatUint(uint64(f.Fd()), 10))
	if err != nil {
		// No /proc: p was a directory an instant ago, which leaves only
		// a race with a concurrent rename.
		return dir.OpenRoot(p)
	}
	return r, nil
}
