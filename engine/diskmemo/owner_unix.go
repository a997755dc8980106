//go:build unix

package diskmemo

import (
	"fmt"
	"os"
	"syscall"
)

const oNoFollow = syscall.O_NOFOLLOW

// checkOwned says why fi may not be believed: owned by neither the
// effective user nor root, or writable by group or others.
func checkOwned(fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: no owner to check", fi.Name())
	}
	if euid := os.Geteuid(); int(st.Uid) != euid && st.Uid != 0 {
		return fmt.Errorf("owned by uid %d, neither this user (uid %d) nor root", st.Uid, euid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("writable by group or others (mode %v)", fi.Mode().Perm())
	}
	return nil
}
