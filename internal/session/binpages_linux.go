//go:build linux

package session

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// releaseFilePages unmaps the resident pages of the files the process
// maps read-only and private: mur's own executable (code, read-only
// data, pclntab), the compiled guest code wazero maps from the
// compilation cache and the rewritten modules the engine maps from its
// memo (which wazero's decoded modules refer into). Package initialisation, staging and the first task
// touched most of them once, and fault-around keeps whole neighbourhoods
// of each touched page mapped; a task needs a fraction of them again.
// They are the page cache's copy of their file, so nothing is lost: a
// page the next task needs comes back by a minor fault (the first task
// after a release takes a few hundred more of them, a millisecond or
// less). It returns the bytes unmapped.
func releaseFilePages() (uint64, error) {
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
	var first error
	for _, m := range releasable(maps) {
		// MADV_COLD first moves the pages to the kernel's inactive list, so
		// under memory pressure they are the first page cache it takes
		// back; a kernel before 5.4 refuses it, which only loses the hint.
		_, _, _ = unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_COLD)
		// A mapping the kernel will not drop (a device's) keeps its pages;
		// the others are still released.
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_DONTNEED); errno != 0 {
			if first == nil {
				first = fmt.Errorf("releasing the pages mapped at %#x: %w", m.start, errno)
			}
			continue
		}
		released += m.rssKB << 10
	}
	return released, first
}

// releasable are the mappings whose resident pages can be dropped and
// read again from their file: file-backed, private and read-only, with
// no page of their own. A private copy (a debugger's breakpoint written
// into the code) would be discarded by MADV_DONTNEED, so its mapping is
// kept; a shared mapping's pages are the file's, and anonymous memory
// (stacks, code compiled in this process) cannot be read back from
// anywhere.
func releasable(maps []mapping) []mapping {
	var out []mapping
	for _, m := range maps {
		if m.file.inode != 0 && !m.writable && !m.shared && m.anonKB == 0 && m.rssKB > 0 {
			out = append(out, m)
		}
	}
	return out
}
