//go:build unix

package tools

import (
	"errors"
	"os/exec"
	"syscall"
)

// KillGroup kills what is left of the process group of cmd, a started
// Process, once cmd itself has exited: children it left behind must not
// outlive the run. A group already gone is no error.
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
