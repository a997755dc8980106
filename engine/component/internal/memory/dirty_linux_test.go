//go:build linux

package memory

import (
	"errors"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// trackedMapping is an anonymous mapping of n pages, registered with d
// and write-protected.
func trackedMapping(t *testing.T, d *dirtyPages, n int) []byte {
	t.Helper()
	m, err := unix.Mmap(-1, 0, n*os.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unix.Munmap(m) })
	if err := d.register(m); err != nil {
		t.Fatal(err)
	}
	if err := d.protect(m); err != nil {
		t.Fatal(err)
	}
	return m
}

// openOrRefused opens the engine's tracking, or checks that the kernel's
// refusal is reported as one: the engine then resets whole, which the
// attack tests exercise.
func openOrRefused(t *testing.T) *dirtyPages {
	t.Helper()
	d, err := openDirtyPages()
	if err != nil {
		if !errors.Is(err, errNoTracking) {
			t.Fatalf("a refusal of tracking reads %v, not errNoTracking", err)
		}
		t.Logf("this kernel does not track written pages: %v", err)
		return nil
	}
	t.Cleanup(d.close)
	return d
}

// Every page written since it was protected is reported, by user code or
// by the kernel, in as many regions as it takes (more than one scan's
// buffer), the last page included; none is once protected again, and every
// page is once the protection is dropped.
func TestDirtyPagesFindEveryWrittenPage(t *testing.T) {
	d := openOrRefused(t)
	if d == nil {
		return
	}
	page := os.Getpagesize()
	const pages = 301
	m := trackedMapping(t, d, pages)
	want := map[int]bool{}
	for p := 0; p < pages; p += 2 {
		m[p*page+17] = 1
		want[p] = true
	}
	fds, err := pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer fds.close()
	if _, err := unix.Write(fds.w, []byte{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := unix.Read(fds.r, m[7*page+5:7*page+6]); err != nil {
		t.Fatal(err)
	}
	want[7] = true
	got := writtenPages(t, d, m)
	if len(got) != len(want) {
		t.Fatalf("%d pages reported written, want %d", len(got), len(want))
	}
	for p := range want {
		if !got[p] {
			t.Errorf("page %d written but not reported", p)
		}
	}
	if err := d.reprotect(m); err != nil {
		t.Fatal(err)
	}
	if got := writtenPages(t, d, m); len(got) != 0 {
		t.Fatalf("%d pages reported written after protecting them again", len(got))
	}
	if err := d.unprotect(m); err != nil {
		t.Fatal(err)
	}
	if got := writtenPages(t, d, m); len(got) != pages {
		t.Fatalf("%d pages reported written once unprotected, want all %d", len(got), pages)
	}
}

func writtenPages(t *testing.T, d *dirtyPages, m []byte) map[int]bool {
	t.Helper()
	vec, err := d.written(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	page, base := uint64(os.Getpagesize()), addrOf(m)
	got := map[int]bool{}
	for _, r := range vec {
		for a := r.start; a < r.end; a += page {
			got[int((a-base)/page)] = true
		}
	}
	return got
}

// A range never registered is refused, not reported clean: a reset then
// copies the whole image.
func TestDirtyPagesRefuseAnUntrackedRange(t *testing.T) {
	d := openOrRefused(t)
	if d == nil {
		return
	}
	m, err := unix.Mmap(-1, 0, 4*os.Getpagesize(), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m) //nolint:errcheck // the test's mapping
	m[0] = 1
	if vec, err := d.written(m, nil); !errors.Is(err, errNoTracking) {
		t.Fatalf("an untracked range scanned as %v, %v; want errNoTracking", vec, err)
	}
}
