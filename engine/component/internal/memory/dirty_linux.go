//go:build linux

package memory

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The kernel's interface for finding the pages a memory's user wrote
// (Documentation/admin-guide/mm/userfaultfd.rst, pagemap.rst): a range
// registered with a userfaultfd for write protection in asynchronous mode
// faults on its first write to each protected page, and the kernel
// resolves the fault itself by dropping the page's protection, whether
// the write came from user code or from a system call; the PAGEMAP_SCAN
// ioctl on /proc/self/pagemap then lists the pages without it (written)
// and can protect them again. Not in x/sys, so spelled out here.
const (
	uffdUserModeOnly = 1 // UFFD_USER_MODE_ONLY: all an unprivileged user may open
	uffdAPI          = 0xaa

	uffdFeatureWPUnpopulated = 1 << 13
	uffdFeatureWPAsync       = 1 << 15

	uffdRegisterModeWP = 2
	uffdWriteProtectWP = 1

	ioctlUffdAPI          = 0xc018aa3f // _IOWR(0xaa, 0x3f, struct uffdio_api)
	ioctlUffdRegister     = 0xc020aa00 // _IOWR(0xaa, 0x00, struct uffdio_register)
	ioctlUffdWriteProtect = 0xc018aa06 // _IOWR(0xaa, 0x06, struct uffdio_writeprotect)
	ioctlPagemapScan      = 0xc0606610 // _IOWR('f', 16, struct pm_scan_arg)

	pmScanWPMatching   = 1 << 0
	pmScanCheckWPAsync = 1 << 1

	pageIsWritten = 1 << 1
)

type uffdioAPI struct{ api, features, ioctls uint64 }

type uffdioRange struct{ start, len uint64 }

type uffdioRegister struct {
	rng          uffdioRange
	mode, ioctls uint64
}

type uffdioWriteProtect struct {
	rng  uffdioRange
	mode uint64
}

type pmScanArg struct {
	size, flags, start, end, walkEnd, vec, vecLen, maxPages       uint64
	categoryInverted, categoryMask, categoryAnyofMask, returnMask uint64
}

// pageRegion is the kernel's struct page_region: [start, end) addresses.
type pageRegion struct{ start, end, categories uint64 }

// dirtyPages is an engine's handle on that interface: one userfaultfd
// every tracked mapping is registered with, and the pagemap file.
type dirtyPages struct {
	uffd, pagemap int
}

// errNoTracking says the kernel (or a seccomp filter in front of it)
// refused a step of dirty-page tracking.
var errNoTracking = errors.New("dirty-page tracking unavailable")

// openDirtyPages opens the interface and proves it on a scratch mapping:
// a page written by user code and one written by the kernel are found,
// an untouched one is not, and protecting them again hides them.
func openDirtyPages() (*dirtyPages, error) {
	fd, _, errno := unix.Syscall(unix.SYS_USERFAULTFD, unix.O_CLOEXEC|unix.O_NONBLOCK|uffdUserModeOnly, 0, 0)
	if errno != 0 {
		return nil, fmt.Errorf("%w: userfaultfd: %w", errNoTracking, errno)
	}
	d := &dirtyPages{uffd: int(fd), pagemap: -1}
	api := uffdioAPI{api: uffdAPI, features: uffdFeatureWPAsync | uffdFeatureWPUnpopulated}
	if err := d.ioctl(d.uffd, ioctlUffdAPI, unsafe.Pointer(&api)); err != nil {
		d.close()
		return nil, fmt.Errorf("%w: UFFDIO_API: %w", errNoTracking, err)
	}
	pm, err := unix.Open("/proc/self/pagemap", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		d.close()
		return nil, fmt.Errorf("%w: %w", errNoTracking, err)
	}
	d.pagemap = pm
	if err := d.prove(); err != nil {
		d.close()
		return nil, err
	}
	return d, nil
}

// prove checks on a scratch mapping of four pages that tracking works.
func (d *dirtyPages) prove() error {
	page := os.Getpagesize()
	m, err := unix.Mmap(-1, 0, 4*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return fmt.Errorf("%w: %w", errNoTracking, err)
	}
	defer unix.Munmap(m) //nolint:errcheck // a scratch mapping
	clear(m)
	if err := d.register(m); err != nil {
		return err
	}
	if err := d.protect(m); err != nil {
		return err
	}
	m[0] = 1
	// The kernel writes the third page: a read into it.
	p, err := pipe()
	if err != nil {
		return err
	}
	defer p.close()
	if _, err := unix.Write(p.w, []byte{1}); err != nil {
		return fmt.Errorf("%w: %w", errNoTracking, err)
	}
	if _, err := unix.Read(p.r, m[2*page:2*page+1]); err != nil {
		return fmt.Errorf("%w: %w", errNoTracking, err)
	}
	var got []pageRegion
	got, err = d.written(m, got)
	if err != nil {
		return err
	}
	base := uint64(uintptr(unsafe.Pointer(&m[0])))
	want := []pageRegion{{base, base + uint64(page), 0}, {base + 2*uint64(page), base + 3*uint64(page), 0}}
	if !sameRegions(got, want) {
		return fmt.Errorf("%w: the probe's written pages were reported as %v", errNoTracking, got)
	}
	if err := d.protect(m); err != nil {
		return err
	}
	if got, err = d.written(m, got[:0]); err != nil || len(got) != 0 {
		return fmt.Errorf("%w: pages reported written after protecting them again (%v, %v)", errNoTracking, got, err)
	}
	return nil
}

func sameRegions(got, want []pageRegion) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].start != want[i].start || got[i].end != want[i].end {
			return false
		}
	}
	return true
}

// register makes region, a whole anonymous mapping, trackable. Later
// mprotect calls split the mapping's areas, and each part keeps the
// registration.
func (d *dirtyPages) register(region []byte) error {
	// Huge pages would be tracked, and so reset, 2 MiB at a time.
	_ = unix.Madvise(region, unix.MADV_NOHUGEPAGE) // only a cost when refused
	reg := uffdioRegister{rng: rangeOf(region), mode: uffdRegisterModeWP}
	if err := d.ioctl(d.uffd, ioctlUffdRegister, unsafe.Pointer(&reg)); err != nil {
		return fmt.Errorf("%w: UFFDIO_REGISTER: %w", errNoTracking, err)
	}
	return nil
}

// protect write-protects every page of b (page-aligned), populated or
// not: from now on, a page of b written is reported by written.
func (d *dirtyPages) protect(b []byte) error {
	wp := uffdioWriteProtect{rng: rangeOf(b), mode: uffdWriteProtectWP}
	if err := d.ioctl(d.uffd, ioctlUffdWriteProtect, unsafe.Pointer(&wp)); err != nil {
		return fmt.Errorf("%w: UFFDIO_WRITEPROTECT: %w", errNoTracking, err)
	}
	return nil
}

// unprotect drops the protection of every page of b, so that clearing it
// whole takes no fault per page.
func (d *dirtyPages) unprotect(b []byte) error {
	wp := uffdioWriteProtect{rng: rangeOf(b)}
	if err := d.ioctl(d.uffd, ioctlUffdWriteProtect, unsafe.Pointer(&wp)); err != nil {
		return fmt.Errorf("%w: UFFDIO_WRITEPROTECT: %w", errNoTracking, err)
	}
	return nil
}

// written appends to vec the regions of b written since they were last
// protected, as addresses. A page of b that is not tracked fails the scan
// (PM_SCAN_CHECK_WPASYNC) rather than being reported clean.
func (d *dirtyPages) written(b []byte, vec []pageRegion) ([]pageRegion, error) {
	return d.scan(b, vec, 0)
}

// reprotect write-protects again the written pages of b, which must hold
// what they did when last protected.
func (d *dirtyPages) reprotect(b []byte) error {
	_, err := d.scan(b, nil, pmScanWPMatching)
	return err
}

func (d *dirtyPages) scan(b []byte, vec []pageRegion, flags uint64) ([]pageRegion, error) {
	r := rangeOf(b)
	start, end := r.start, r.start+r.len
	var buf [64]pageRegion
	for start < end {
		arg := pmScanArg{
			size: uint64(unsafe.Sizeof(pmScanArg{})), flags: flags | pmScanCheckWPAsync,
			start: start, end: end,
			categoryMask: pageIsWritten, returnMask: pageIsWritten,
		}
		if flags&pmScanWPMatching == 0 {
			arg.vec, arg.vecLen = uint64(uintptr(unsafe.Pointer(&buf[0]))), uint64(len(buf))
		}
		n, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(d.pagemap), ioctlPagemapScan, uintptr(unsafe.Pointer(&arg)))
		if errno != 0 {
			return vec, fmt.Errorf("%w: PAGEMAP_SCAN: %w", errNoTracking, errno)
		}
		vec = append(vec, buf[:n]...)
		if arg.walkEnd <= start {
			return vec, fmt.Errorf("%w: PAGEMAP_SCAN made no progress at %#x", errNoTracking, start)
		}
		start = arg.walkEnd
	}
	return vec, nil
}

func (d *dirtyPages) ioctl(fd int, req uintptr, arg unsafe.Pointer) error {
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), req, uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}

func (d *dirtyPages) close() {
	if d.pagemap >= 0 {
		_ = unix.Close(d.pagemap)
	}
	_ = unix.Close(d.uffd)
}

func rangeOf(b []byte) uffdioRange {
	return uffdioRange{start: uint64(uintptr(unsafe.Pointer(unsafe.SliceData(b)))), len: uint64(len(b))}
}

type pipeFDs struct{ r, w int }

func pipe() (pipeFDs, error) {
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return pipeFDs{}, fmt.Errorf("%w: %w", errNoTracking, err)
	}
	return pipeFDs{fds[0], fds[1]}, nil
}

func (p pipeFDs) close() {
	_ = unix.Close(p.r)
	_ = unix.Close(p.w)
}
