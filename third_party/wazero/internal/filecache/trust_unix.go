//go:build unix

package filecache

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// checkOwned (mur patch) says why fi, a cache directory or entry, is not
// to be believed: compiled code is run as it is read, so only what this
// process's effective user or root owns, and what neither group nor
// others may write, is.
func checkOwned(fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: no owner to check", fi.Name())
	}
	if euid := os.Geteuid(); int(st.Uid) != euid && st.Uid != 0 {
		return fmt.Errorf("%s is owned by uid %d, neither this user (uid %d) nor root", fi.Name(), st.Uid, euid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("%s is writable by group or others (mode %v)", fi.Name(), fi.Mode().Perm())
	}
	return nil
}

// oNoFollow: an entry that is a symbolic link is not opened.
const oNoFollow = syscall.O_NOFOLLOW

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
