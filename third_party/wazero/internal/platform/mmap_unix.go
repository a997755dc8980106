//go:build unix

package platform

import (
	"os"

	"golang.org/x/sys/unix"
)

func munmapCodeSegment(code []byte) error {
	return unix.Munmap(code)
}

// MprotectCodeSegment is like unix.Mprotect with RX permission.
func MprotectCodeSegment(b []byte) (err error) {
	return unix.Mprotect(b, unix.PROT_READ|unix.PROT_EXEC)
}

// MapCodeFile (mur patch) maps size bytes of f from offset (a multiple
// of the page size) read-only and executable. The mapping is private and
// file-backed: processes that map the same file share its pages, where
// a copy into anonymous memory (MmapCodeSegment) is one per process. It
// fails where the file system refuses executable mappings (noexec); the
// caller then copies.
func MapCodeFile(f *os.File, offset int64, size int) ([]byte, error) {
	return unix.Mmap(int(f.Fd()), offset, size, unix.PROT_READ|unix.PROT_EXEC, unix.MAP_PRIVATE)
}
