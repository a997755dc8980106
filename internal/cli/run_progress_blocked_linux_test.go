package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// A stderr nobody reads (a pipe already full) does not stall the run:
// the progress has nowhere to go, the agent loop goes on, the run ends
// and Murmur's lines and the answer reach stdout.
func TestRunProgressToABlockedStderr(t *testing.T) {
	dir := progressProject(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Closing the read end at the end fails the write still stuck in the
	// full pipe, which lets the progress's writer go.
	defer w.Close()
	defer r.Close()
	size, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := w.Write(bytes.Repeat([]byte("x"), size)); err != nil || n != size {
		t.Fatalf("filling the pipe: %d of %d bytes, %v", n, size, err)
	}
	t.Chdir(dir)
	t.Setenv("HOME", filepath.Join(dir, ".home"))
	var stdout bytes.Buffer
	code := Run(context.Background(), []string{"run", "--progress", "--task", "hi"}, &stdout, w)
	if code != exitOK || !strings.HasSuffix(stdout.String(), "status:  ok\nthe answer\n") {
		t.Errorf("exit %d\nstdout:\n%s", code, stdout.String())
	}
}
