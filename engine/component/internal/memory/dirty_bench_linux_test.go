//go:build linux

package memory

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// The candidates for resetting a memory to its image after a call, each
// timed together with the call's own accesses, since they differ in what
// the next call pays (write-protect faults, refaults): a 6 MiB memory,
// a call that writes one word in every sixth page (1 MiB of pages) and
// reads one in every other page. A call from a snapshot given the same
// request writes the same pages every time; "moving" calls write the
// next sixth each time, the worst case for keeping pages unprotected.
const (
	resetBenchMem   = 6 << 20
	resetBenchWrite = 6
	resetBenchRead  = 2
)

func resetBenchImage() []byte {
	image := make([]byte, resetBenchMem)
	for i := range image {
		image[i] = byte(i*7 + i>>12)
	}
	return image
}

// resetBenchCall is call n: what it reads is summed so it is not
// optimised away. With moving unset every call writes the same pages.
func resetBenchCall(mem []byte, n int, moving bool) (sum byte) {
	shift := 0
	if moving {
		shift = n
	}
	page := os.Getpagesize()
	for p := 0; p < len(mem); p += page {
		if (p/page)%resetBenchRead == 0 {
			sum += mem[p+64]
		}
		if (p/page+shift)%resetBenchWrite == 0 {
			mem[p+8] = byte(n)
		}
	}
	return sum
}

func resetBenchMapping(b *testing.B) []byte {
	b.Helper()
	m, err := unix.Mmap(-1, 0, resetBenchMem, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = unix.Munmap(m) })
	return m
}

// The whole image copied back: today's reset.
func BenchmarkResetCopyWhole(b *testing.B) {
	image, mem := resetBenchImage(), resetBenchMapping(b)
	copy(mem, image)
	cpu := processCPU()
	for n := 0; b.Loop(); n++ {
		resetBenchCall(mem, n, false)
		copy(mem, image)
	}
	reportCPU(b, cpu)
}

// Userfaultfd write protection, asynchronous, with PAGEMAP_SCAN: the
// written pages copied back and protected again at every reset
// ("always"), every eighth, or as the engine's keepPolicy decides; in
// between the pages found written stay unprotected, so are copied back
// each time, and take no fault. "clean" is a reset after a call that
// wrote nothing: the two scans alone.
func BenchmarkResetUffdWP(b *testing.B) {
	policies := []struct {
		name string
		make func() func(pages int) bool
	}{
		{"always", func() func(int) bool { return func(int) bool { return true } }},
		{"every8", func() func(int) bool {
			n := 0
			return func(int) bool { n++; return n%8 == 0 }
		}},
		{"keep", func() func(int) bool {
			var k keepPolicy
			return k.reprotect
		}},
	}
	for _, moving := range []bool{false, true} {
		for _, p := range policies {
			b.Run(fmt.Sprintf("moving=%v/%s", moving, p.name), func(b *testing.B) { benchResetUffdWP(b, p.make(), true, moving) })
		}
	}
	b.Run("clean", func(b *testing.B) { benchResetUffdWP(b, policies[0].make(), false, false) })
}

func benchResetUffdWP(b *testing.B, reprotect func(pages int) bool, write, moving bool) {
	d, err := openDirtyPages()
	if err != nil {
		b.Fatal(err)
	}
	defer d.close()
	image, mem := resetBenchImage(), resetBenchMapping(b)
	if err := d.register(mem); err != nil {
		b.Fatal(err)
	}
	copy(mem, image)
	if err := d.protect(mem); err != nil {
		b.Fatal(err)
	}
	base := uintptr(unsafeAddr(mem))
	var vec []pageRegion
	pages := 0
	cpu := processCPU()
	var found int
	for n := 0; b.Loop(); n++ {
		if write {
			resetBenchCall(mem, n, moving)
		}
		vec, err = d.written(mem, vec[:0])
		if err != nil {
			b.Fatal(err)
		}
		found = 0
		for _, r := range vec {
			lo, hi := uintptr(r.start)-base, uintptr(r.end)-base
			copy(mem[lo:hi], image[lo:hi])
			found += int(hi-lo) / os.Getpagesize()
		}
		pages += found
		if reprotect(found) {
			if err := d.reprotect(mem); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(pages)/float64(b.N), "pages/op")
}

// The image in a memfd mapped privately over the memory: a reset drops
// the private copies (MADV_DONTNEED) and the next call refaults every
// page it touches from the page cache.
func BenchmarkResetMemfd(b *testing.B) {
	image, mem := resetBenchImage(), resetBenchMapping(b)
	fd, err := unix.MemfdCreate("mur-image", unix.MFD_CLOEXEC)
	if err != nil {
		b.Fatal(err)
	}
	defer unix.Close(fd)
	if _, err := unix.Pwrite(fd, image, 0); err != nil {
		b.Fatal(err)
	}
	if _, err := mmapFixed(mem, fd); err != nil {
		b.Fatal(err)
	}
	cpu := processCPU()
	for n := 0; b.Loop(); n++ {
		resetBenchCall(mem, n, false)
		if err := unix.Madvise(mem, unix.MADV_DONTNEED); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// The call alone, no reset: what each candidate adds is its time less
// this one's.
func BenchmarkResetNone(b *testing.B) {
	image, mem := resetBenchImage(), resetBenchMapping(b)
	copy(mem, image)
	cpu := processCPU()
	for n := 0; b.Loop(); n++ {
		resetBenchCall(mem, n, false)
	}
	reportCPU(b, cpu)
}
