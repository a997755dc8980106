//go:build unix

package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"

	"golang.org/x/sys/unix"
)

// Start starts cmd (built for the tool, as for Wrap) through the
// trampoline and returns once the tool has been exec'd. The trampoline
// gets the write end of a pipe whose other end mur reads: the child marks
// it close-on-exec, so EOF means the tool was exec'd, and on any setup
// failure writes the reason to it and exits. That is a *SetupError, the
// child already reaped; any other error is Start's own.
func (t Trampoline) Start(cmd *exec.Cmd) error {
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("sandbox: the diagnostic pipe: %w", err)
	}
	defer r.Close()
	cmd.ExtraFiles = append(cmd.ExtraFiles, w)
	t.diagFD = 2 + len(cmd.ExtraFiles)
	t.Wrap(cmd)
	err = cmd.Start()
	w.Close()
	if err != nil {
		return err
	}
	detail, _ := io.ReadAll(io.LimitReader(r, maxDetail))
	if len(detail) == 0 {
		return nil
	}
	cmd.Wait()
	return &SetupError{Detail: string(detail)}
}

// openDiag takes the diagnostic pipe from its argument and keeps it from
// the tool; -1 when there is none.
func openDiag(arg string) int {
	fd, err := strconv.Atoi(arg)
	if err != nil || fd < 3 {
		return -1
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
		return -1
	}
	unix.CloseOnExec(fd)
	return fd
}

// report is the child's half: the detail on the pipe, or on stderr
// without one.
func report(fd int, err error) {
	if fd < 0 {
		fmt.Fprintf(os.Stderr, "mur: native subprocess not started: %v\n", err)
		return
	}
	unix.Write(fd, []byte(clip(err.Error())))
}
