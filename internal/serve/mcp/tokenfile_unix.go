//go:build unix

package mcp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// WriteTokenFile writes token, with a newline, to a new file name in dir
// that only this user can read (0600): dir is made 0700 when missing and
// must be a directory of this user's that no one else may write to, so
// no one can swap the file for another. It never replaces a file.
// remove deletes it.
func WriteTokenFile(dir, name, token string) (path string, remove func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("making the token directory: %w", err)
	}
	dfd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", nil, fmt.Errorf("opening the token directory %s (it must be a directory, not a link): %w", dir, err)
	}
	defer unix.Close(dfd)
	var st unix.Stat_t
	if err := unix.Fstat(dfd, &st); err != nil {
		return "", nil, fmt.Errorf("opening the token directory %s: %w", dir, err)
	}
	if int(st.Uid) != os.Geteuid() || st.Mode&0o022 != 0 {
		return "", nil, fmt.Errorf("refusing the token directory %s: it belongs to uid %d with mode %#o; it must be yours and writable by you alone (chmod 700, or remove it)", dir, st.Uid, st.Mode&0o777)
	}
	fd, err := unix.Openat(dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("creating the token file %s: %w", filepath.Join(dir, name), err)
	}
	f := os.NewFile(uintptr(fd), name)
	path = filepath.Join(dir, name)
	_, werr := f.WriteString(token + "\n")
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path)
		return "", nil, fmt.Errorf("writing the token file %s: %w", path, err)
	}
	return path, func() { os.Remove(path) }, nil
}
