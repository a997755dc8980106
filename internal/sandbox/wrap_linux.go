package sandbox

import (
	"os"
	"os/exec"
	"slices"
	"syscall"

	"golang.org/x/sys/unix"
)

const (
	capNetAdmin       = uintptr(unix.CAP_NET_ADMIN)
	capSysAdmin       = uintptr(unix.CAP_SYS_ADMIN)
	capNetBindService = uintptr(unix.CAP_NET_BIND_SERVICE)
)

// Wrap makes cmd (built for the tool: Path, Args, Dir, Env, ExtraFiles,
// SysProcAttr) start through the trampoline. With a plan that needs a
// network namespace, the trampoline is cloned into a new user and network
// namespace, its uid and gid mapped to the runtime's own, so it may raise
// its loopback but holds nothing outside. Call it after setting
// cmd.SysProcAttr: the namespace fields are added to it.
//
// With a Cgroup, the command also gets the scope's cgroup.procs
// descriptors, which the child writes itself into before anything else
// runs.
//
// With an Egress, the command also gets a lifeline socket (one more
// ExtraFiles entry) and a goroutine serving its namespace's allowed
// connections, which ends by itself when the last process of the tree
// has exited, or a minute after a spawn that never started.
func (t Trampoline) Wrap(cmd *exec.Cmd) {
	if t.Plan != nil && t.Plan.NetNS && t.Egress != nil {
		if parent, child, err := lifeline(); err == nil {
			p := *t.Plan
			cmd.ExtraFiles = append(cmd.ExtraFiles, child)
			p.EgressFD, p.EgressPorts = 2+len(cmd.ExtraFiles), t.Egress.Ports()
			p.KeepFDs = append(append([]int{}, p.KeepFDs...), p.EgressFD)
			t.Plan = &p
			go t.Egress.serve(parent, child)
		}
		// Without the socket pair the namespace keeps loopback only:
		// less reach, never more.
	}
	for _, f := range t.Cgroup.procsFiles() {
		cmd.ExtraFiles = append(cmd.ExtraFiles, f)
		t.cgroupFDs = append(t.cgroupFDs, 2+len(cmd.ExtraFiles))
	}
	t.Plan = t.namespaces(cmd)
	cmd.Path, cmd.Args = t.Command(cmd.Path, cmd.Args)
}

// namespaces adds the clone flags and id maps a NetNS plan needs, and a
// mount namespace for a sealed one or one with a NoexecWorkdir. It
// returns the plan the trampoline gets: t.Plan, or a copy whose SelfMap
// asks the trampoline to write the id maps the runtime cannot.
func (t Trampoline) namespaces(cmd *exec.Cmd) *Plan {
	if t.Plan == nil || !t.Plan.NetNS && t.Plan.Sealed == nil {
		return t.Plan
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	a := cmd.SysProcAttr
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET
	// The child keeps its uid: the runtime's, or the one cmd switches to.
	uid, gid := os.Getuid(), os.Getgid()
	if c := a.Credential; c != nil {
		uid, gid = int(c.Uid), int(c.Gid)
	}
	// The trampoline keeps CAP_NET_ADMIN (of its own namespace only)
	// across its exec as a non-root uid to raise lo; it drops every
	// capability before the tool runs. With egress it also listens on
	// the allowed ports and 53 there, which takes CAP_NET_BIND_SERVICE.
	caps := []uintptr{capNetAdmin}
	if t.Plan.EgressFD > 0 {
		caps = append(caps, capNetBindService)
	}
	// A sealed plan composes its root, a scoped one remounts its workdir
	// noexec, in a mount namespace of its own, which takes CAP_SYS_ADMIN
	// there (dropped the same way).
	if t.Plan.Sealed != nil || t.Plan.NoexecWorkdir != "" {
		a.Cloneflags |= syscall.CLONE_NEWNS
		caps = append(caps, capSysAdmin)
	}
	p := t.Plan
	if parentMapsIDs() {
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		a.GidMappingsEnableSetgroups = false
	} else {
		// Writing its own maps takes CAP_SYS_ADMIN in the namespace.
		c := *p
		c.SelfMap = &IDs{UID: uid, GID: gid}
		p = &c
		caps = append(caps, capSysAdmin)
	}
	for _, c := range caps {
		if !slices.Contains(a.AmbientCaps, c) {
			a.AmbientCaps = append(a.AmbientCaps, c)
		}
	}
	return p
}

// hostMntNS names the runtime's mount namespace, which a sealed probe
// child must differ from.
func hostMntNS() string {
	s, _ := os.Readlink("/proc/self/ns/mnt")
	return s
}

// HostNetNS names the runtime's network namespace, for Plan.HostNetNS.
func HostNetNS() string {
	s, _ := os.Readlink("/proc/self/ns/net")
	return s
}
