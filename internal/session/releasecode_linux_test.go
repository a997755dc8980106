//go:build linux

package session

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// A served capsule that went idle keeps none of the guest code it ran:
// the code wazero mapped from the compilation cache (13 MB for the
// scripted driver, all of it resident after a task by fault-around) and
// the rewritten modules mapped from the memo are released with the
// executable's pages, and read back the same.
func TestReleaseFilePagesDropsCompiledCodeMappedFromTheCache(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "cache")
	wasm := testguest.Bytes(t, testguest.ScriptedGo)
	compile := func() *component.Engine { return testguest.CompileIn(t, dir, wasm) }
	if err := compile().Close(ctx); err != nil {
		t.Fatal(err)
	}
	// Compiled again by a new engine: from the cache, mapped.
	e := compile()
	defer e.Close(ctx)

	code := mappedUnder(t, dir)
	// Resident as a task running the code leaves it.
	for _, m := range code {
		if _, _, errno := unix.Syscall(unix.SYS_MADVISE, m.start, m.end-m.start, unix.MADV_POPULATE_READ); errno != 0 {
			t.Fatalf("faulting in the compiled code at %#x: %v", m.start, errno)
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	pages := newPageMap(t, code)
	before := checksum(t, code)
	resident := pages.present(t)
	if _, err := releaseFilePages(); err != nil {
		t.Fatal(err)
	}
	left := pages.present(t)
	t.Logf("%d of %d resident pages of compiled code mapped after the release", left, resident)
	if resident == 0 || left > resident/10 {
		t.Errorf("%d of %d resident pages of compiled code still mapped after the release", left, resident)
	}
	if after := checksum(t, code); after != before {
		t.Errorf("the compiled code reads %08x after the release, %08x before", after, before)
	}
}

// mappedUnder are the process's mappings of files under dir.
func mappedUnder(t *testing.T, dir string) []mapping {
	t.Helper()
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Fatalf("the test needs procfs: %v", err)
	}
	defer f.Close()
	starts := map[uintptr]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || !strings.HasPrefix(fields[5], dir+"/") {
			continue
		}
		lo, _, _ := strings.Cut(fields[0], "-")
		start, err := strconv.ParseUint(lo, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		starts[uintptr(start)] = true
	}
	s, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	maps, err := parseMappings(s)
	if err != nil {
		t.Fatal(err)
	}
	var out []mapping
	for _, m := range maps {
		if starts[m.start] {
			out = append(out, m)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no file under %s is mapped: the compiled code was not mapped from the cache", dir)
	}
	return out
}
