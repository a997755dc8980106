//go:build linux

package session

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// releaseBinaryPages unmaps the resident pages of mur's own executable
// that are mapped read-only (code, read-only data, pclntab). Package
// initialisation and staging touched most of them once, and fault-around
// keeps whole neighbourhoods of each touched page mapped; a task needs
// about half of them again. They are the page cache's copy of the file,
// so nothing is lost: a page the next task needs comes back by a minor
// fault (the first task after a release takes about 150 more of them, a
// millisecond or less). It returns the bytes unmapped.
func releaseBinaryPages() (uint64, error) {
	exe, err := exeID()
	if err != nil {
		return 0, err
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, fmt.Errorf("reading the process's mappings: %w", err)
	}
	maps, err := parseMappings(f)
	f.Close()
	if err != nil {
		return 0, fmt.Errorf("reading /proc/self/smaps: %w", err)
	}
	var released uint64
	for _, m := range releasable(maps, exe) {
		// MADV_COLD first moves the pages to the kernel's inactive list, so
		// under memory pressure they are the first page cache it takes
		// back; a kernel before 5.4 refuses it, which only loses the hint.
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_COLD)
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_DONTNEED); errno != 0 {
			return released, fmt.Errorf("releasing the executable's pages at %#x: %w", m.start, errno)
		}
		released += m.rssKB << 10
	}
	return released, nil
}

// releasable are the mappings of exe whose resident pages can be dropped
// and read again from the file: private and read-only, with no page of
// their own. A private copy (a debugger's breakpoint written into the
// code) would be discarded by MADV_DONTNEED, so its mapping is kept.
func releasable(maps []mapping, exe fileID) []mapping {
	var out []mapping
	for _, m := range maps {
		if m.file == exe && !m.writable && !m.shared && m.anonKB == 0 && m.rssKB > 0 {
			out = append(out, m)
		}
	}
	return out
}

func exeID() (fileID, error) {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/exe", &st); err != nil {
		return fileID{}, fmt.Errorf("finding the executable: %w", err)
	}
	return fileID{uint64(unix.Major(st.Dev)), uint64(unix.Minor(st.Dev)), st.Ino}, nil
}
