package wasip2

import (
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// setTimesAt sets p's access and modification times; a zero time leaves
// one unchanged. Without follow, a final symbolic link gets its own times
// through utimensat(AT_SYMLINK_NOFOLLOW) on its parent: os.Root.Chtimes
// always follows. A trailing slash or a final "." or ".." names a
// directory, which os.Root resolves (a trailing slash would make
// utimensat follow a link past the root).
func setTimesAt(root *os.Root, p string, follow bool, atime, mtime time.Time) error {
	parent, name, slash, ok := lastName(p)
	if follow || slash || !ok {
		return root.Chtimes(p, atime, mtime)
	}
	var ts [2]unix.Timespec
	for i, t := range []time.Time{atime, mtime} {
		if t.IsZero() {
			ts[i] = unix.Timespec{Nsec: unix.UTIME_OMIT}
			continue
		}
		var err error
		if ts[i], err = unix.TimeToTimespec(t); err != nil {
			return &fs.PathError{Op: "utimensat", Path: p, Err: err}
		}
	}
	d, err := openParent(root, parent)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := unix.UtimesNanoAt(int(d.Fd()), name, ts[:], unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &fs.PathError{Op: "utimensat", Path: p, Err: err}
	}
	return nil
}
