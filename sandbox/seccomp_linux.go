package sandbox

import (
	"fmt"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/sys/unix"
)

// namespaceFlags are the clone flags that would make new namespaces:
// refused like unshare, so a contained process cannot gain capabilities
// in a user namespace of its own.
const namespaceFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET | unix.CLONE_NEWTIME

// seccompFilter is §9.3's policy: the allowlist, socket by family, clone
// without namespace flags, clone3 answered ENOSYS (its flags live in
// memory a filter cannot read; libc then falls back to clone), and EPERM
// for everything else. The whole thread group gets it (TSYNC).
func seccompFilter(unixSockets bool) (seccomp.Filter, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return seccomp.Filter{}, fmt.Errorf("seccomp: %w", err)
	}
	var names []string
	for _, n := range allowedSyscalls() {
		if _, ok := info.SyscallNames[n]; ok {
			names = append(names, n)
		}
	}
	eacces := seccomp.ActionErrno | seccomp.Action(unix.EACCES)
	sock := func(family uint64) seccomp.NameWithConditions {
		return seccomp.NameWithConditions{Name: "socket", Conditions: seccomp.ArgumentConditions{
			{Argument: 0, Operation: seccomp.Equal, Value: family}}}
	}
	allowSock := []seccomp.NameWithConditions{sock(unix.AF_INET), sock(unix.AF_INET6)}
	denySock := []seccomp.NameWithConditions{sock(unix.AF_NETLINK), sock(unix.AF_PACKET)}
	if unixSockets {
		allowSock = append(allowSock, sock(unix.AF_UNIX))
	} else {
		denySock = append(denySock, sock(unix.AF_UNIX))
	}
	clone := seccomp.NameWithConditions{Name: "clone", Conditions: seccomp.ArgumentConditions{
		{Argument: 0, Operation: seccomp.BitsNotSet, Value: namespaceFlags}}}
	return seccomp.Filter{
		NoNewPrivs: true,
		Flag:       seccomp.FilterFlagTSync,
		Policy: seccomp.Policy{
			DefaultAction: seccomp.ActionErrno,
			Syscalls: []seccomp.SyscallGroup{
				{Action: seccomp.ActionAllow, Names: names, NamesWithCondtions: append(allowSock, clone)},
				{Action: eacces, NamesWithCondtions: denySock},
				{Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS), Names: []string{"clone3"}},
			},
		},
	}, nil
}

// loadSeccomp installs the filter on every thread of the trampoline; the
// exec'd tool inherits it.
func loadSeccomp(unixSockets bool) error {
	f, err := seccompFilter(unixSockets)
	if err != nil {
		return err
	}
	if err := seccomp.LoadFilter(f); err != nil {
		return fmt.Errorf("seccomp: loading the filter: %w", err)
	}
	return nil
}
