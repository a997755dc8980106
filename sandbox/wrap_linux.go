package sandbox

import (
	"os"
	"os/exec"
	"syscall"
)

// Wrap makes cmd (built for the tool: Path, Args, Dir, Env, ExtraFiles,
// SysProcAttr) start through the trampoline. With a plan that needs a
// network namespace, the trampoline is cloned into a new user and network
// namespace, its uid and gid mapped to the runtime's own, so it may raise
// its loopback but holds nothing outside. Call it after setting
// cmd.SysProcAttr: the namespace fields are added to it.
func (t Trampoline) Wrap(cmd *exec.Cmd) {
	cmd.Path, cmd.Args = t.Command(cmd.Path, cmd.Args)
	t.namespaces(cmd)
}

// namespaces adds the clone flags and id maps a NetNS plan needs.
func (t Trampoline) namespaces(cmd *exec.Cmd) {
	if t.Plan == nil || !t.Plan.NetNS {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	uid, gid := os.Getuid(), os.Getgid()
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	a.GidMappingsEnableSetgroups = false
}

// HostNetNS names the runtime's network namespace, for Plan.HostNetNS.
func HostNetNS() string {
	s, _ := os.Readlink("/proc/self/ns/net")
	return s
}
