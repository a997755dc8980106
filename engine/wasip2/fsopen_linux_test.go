package wasip2

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenSubRootNeverOpensAFIFO: a directory swapped for a FIFO between
// openAt's look and its open must fail at once, not block the host.
func TestOpenSubRootNeverOpensAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	done := make(chan error, 1)
	go func() {
		r, err := openSubRoot(root, "fifo")
		if err == nil {
			r.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO opened as a directory")
		}
	case <-time.After(time.Minute):
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			defer f.Close()
		}
		<-done
		t.Fatal("opening a FIFO as a directory blocked")
	}
	if _, err := NewCtx(Grants{Dirs: []DirGrant{{Host: fifo, Guest: "."}}}); err == nil {
		t.Error("a FIFO granted as a directory was accepted")
	}
}
