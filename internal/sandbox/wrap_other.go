//go:build !linux

package sandbox

import "os/exec"

// Wrap makes cmd start through the trampoline; without Linux there are no
// namespaces to create.
func (t Trampoline) Wrap(cmd *exec.Cmd) {
	cmd.Path, cmd.Args = t.Command(cmd.Path, cmd.Args)
}

// HostNetNS is empty: no network namespaces here.
func HostNetNS() string { return "" }
