//go:build linux

package memory

import (
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

func unsafeAddr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

// mmapFixed maps fd privately over b's pages.
func mmapFixed(b []byte, fd int) (uintptr, error) {
	r, _, errno := unix.Syscall6(unix.SYS_MMAP, uintptr(unsafeAddr(b)), uintptr(len(b)),
		unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_FIXED, uintptr(fd), 0)
	if errno != 0 {
		return 0, errno
	}
	return r, nil
}

// processCPU is the process's CPU time, user and system: on a shared
// machine it moves far less than the wall time.
func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time since start per op.
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
	}
}
