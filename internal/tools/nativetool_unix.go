//go:build unix

package tools

import (
	"os/exec"
	"syscall"
)

// ownProcessGroup puts the tool in its own process group and makes
// cancellation kill the whole group, so children a tool forks die with it.
func ownProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
