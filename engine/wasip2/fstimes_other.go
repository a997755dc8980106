//go:build !linux

package wasip2

import (
	"io/fs"
	"os"
	"time"
)

// setTimesAt sets p's times through os.Root, which always follows, so
// the times of a symbolic link itself are unsupported here: x/sys spells
// utimensat's UTIME_OMIT only for Linux, and leaving one time unchanged
// must not mean reading it first.
func setTimesAt(root *os.Root, p string, follow bool, atime, mtime time.Time) error {
	if !follow {
		fi, err := root.Lstat(p)
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fsErr(fsUnsupported, "setting the times of a symbolic link itself")
		}
	}
	return root.Chtimes(p, atime, mtime)
}
