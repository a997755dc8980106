package tools

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// pinBinary checks path against the staged digest and returns what to
// exec. The binary is opened without following a final symlink and
// copied, while it is hashed, into a sealed memfd; the child executes
// that memfd. So what runs is byte for byte what was hashed: a writer
// that races the check (rewriting the file in place, renaming another
// over it) changes the file on disk, not the sealed copy. Executing the
// workdir file by path, or even by its open fd, would leave that window.
func pinBinary(name, path, want string) (pinnedBinary, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) {
		return pinnedBinary{}, errFailed(name, fmt.Sprintf("native tool '%s' was not run: its binary %s was replaced by a symbolic link since staging; start a new session with `mur run`", name, path), ErrBinaryChanged)
	}
	if err != nil {
		return pinnedBinary{}, errFailed(name, fmt.Sprintf("failed to spawn native tool '%s': %v", name, err), err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return pinnedBinary{}, errFailed(name, fmt.Sprintf("native tool '%s' was not run: %s is not a regular file", name, path), ErrBinaryChanged)
	}
	mem, err := sealedCopy(name)
	if err != nil {
		// memfds unavailable or not executable (vm.memfd_noexec=2): run
		// the very file that was hashed, through its descriptor. Only an
		// in-place rewrite between hash and exec remains possible, and
		// WASM guests cannot reach tools/ at all.
		return pinOpenFile(name, path, want, f)
	}
	defer f.Close()
	h, err := hashFile(f, mem)
	if err == nil {
		err = checkDigest(name, path, want, h)
	} else {
		err = errFailed(name, fmt.Sprintf("failed to read native tool '%s': %v", name, err), err)
	}
	if err == nil {
		err = seal(mem)
	}
	if err != nil {
		mem.Close()
		return pinnedBinary{}, err
	}
	return pinnedBinary{Path: "/proc/self/fd/3", File: mem}, nil
}

// sealedCopy creates the executable memfd (MFD_EXEC is needed where
// vm.memfd_noexec is set and refused by kernels before 6.3).
func sealedCopy(name string) (*os.File, error) {
	flags := unix.MFD_CLOEXEC | unix.MFD_ALLOW_SEALING
	fd, err := unix.MemfdCreate("mur-tool-"+name, flags|unix.MFD_EXEC)
	if errors.Is(err, unix.EINVAL) {
		fd, err = unix.MemfdCreate("mur-tool-"+name, flags)
	}
	if err != nil {
		return nil, fmt.Errorf("memfd_create: %w", err)
	}
	return os.NewFile(uintptr(fd), "memfd:mur-tool-"+name), nil
}

// seal makes the copy immutable; with F_SEAL_WRITE the kernel also lets
// it be executed although a writable descriptor exists.
func seal(f *os.File) error {
	_, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL)
	if err != nil {
		return fmt.Errorf("sealing the copy of the binary: %w", err)
	}
	return nil
}

// pinOpenFile hashes f and, if it matches, hands it over for exec.
func pinOpenFile(name, path, want string, f *os.File) (pinnedBinary, error) {
	h, err := hashFile(f, nil)
	if err == nil {
		err = checkDigest(name, path, want, h)
	} else {
		err = errFailed(name, fmt.Sprintf("failed to read native tool '%s': %v", name, err), err)
	}
	if err != nil {
		f.Close()
		return pinnedBinary{}, err
	}
	return pinnedBinary{Path: "/proc/self/fd/3", File: f}, nil
}
