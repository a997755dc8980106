//go:build linux

package wasip2_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// These attacks need Linux: FIFOs and /proc/self/fd to count descriptors.

// TestSpecialFilesDoNotBlock: opening a FIFO in a granted directory, for
// reading or writing, returns an error at once instead of hanging the
// host until a writer or reader appears (no deadline can interrupt a
// blocked host call).
func TestSpecialFilesDoNotBlock(t *testing.T) {
	work := t.TempDir()
	fifo := filepath.Join(work, "fifo")
	must(t, syscall.Mkfifo(fifo, 0o644))
	must(t, os.Symlink("fifo", filepath.Join(work, "fifolink")))
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: work, Guest: "/work"}}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		expect(t, g, [][2]string{
			{"open fifo", "errno=ENOTSUP"},
			{"open fifo w", "errno=ENOTSUP"},
			{"open fifo create", "errno=ENOTSUP"},
			{"read fifolink", "errno=ENOTSUP"},
			{"stat fifo", "ok"},
			{"ls .", "entries=fifo,fifolink"},
		})
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		// Release the blocked open (a reader and a writer at once), then fail.
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			defer f.Close()
		}
		<-done
		t.Fatal("opening a FIFO blocked the host call")
	}
}

// TestOpenDescriptorCap: a guest holding descriptors hits the store's cap
// with a LimitError that ends the call, the process keeps descriptors to
// spare, and closing the store gives every one back.
func TestOpenDescriptorCap(t *testing.T) {
	work := t.TempDir()
	must(t, os.WriteFile(filepath.Join(work, "file"), []byte("x"), 0o644))
	before := openFDs(t)
	const max = 20
	g := wasip2.Grants{Dirs: []wasip2.DirGrant{{Host: work, Guest: "/work"}}, MaxOpenFiles: max}
	var out strings.Builder
	g.Stdout.W = &out
	inst, wctx := instantiate(t, testguest.FSAttackGo, g, component.Limits{})
	f, err := inst.Func(runExport)
	must(t, err)
	_, err = f.Call(context.Background(), []any{wit.Some("hold 100 file"), wit.None()})
	var le *component.LimitError
	if !errors.As(err, &le) || le.Limit != wasip2.LimitOpenFiles || le.Max != max {
		t.Fatalf("err = %v (output %q), want a LimitError for %s", err, out.String(), wasip2.LimitOpenFiles)
	}
	if held := openFDs(t) - before; held > max+2 {
		t.Errorf("the guest holds %d descriptors, cap %d", held, max)
	}
	// The host is not starved: it still opens files.
	h, err := os.Open(filepath.Join(work, "file"))
	must(t, err)
	h.Close()
	must(t, wctx.Close())
	if after := openFDs(t); after > before {
		t.Errorf("%d descriptors before the store, %d after closing it", before, after)
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatalf("counting descriptors: %v", err)
	}
	return len(ents)
}
