//go:build !unix

package confined

import (
	"errors"
	"io/fs"
	"os"
)

// openat checks for a link, then opens through a Root of dir: without
// O_NOFOLLOW a link planted between the two calls is still confined to
// dir by os.Root, only not refused.
func openat(dir *os.File, name string, flag int, perm fs.FileMode) (*os.File, error) {
	r, err := os.OpenRoot(dir.Name())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if fi, err := r.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, ErrSymlink
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return r.OpenFile(name, flag, perm)
}

// openDir opens the directory name in root to open files in.
func openDir(root *os.Root, name string) (*os.File, error) { return root.Open(name) }

// soleLink cannot tell hard links apart here; every regular file counts.
func soleLink(fs.FileInfo) bool { return true }
