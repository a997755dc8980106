package sandbox

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
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
// for everything else. (Filter.Flag is not used: loadSeccompProgram puts
// it on the exec'ing thread alone.)
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

// seccompProgram is the filter assembled to BPF, as struct sock_filter
// entries of 8 bytes in native byte order: Scope.Plan assembles it once a
// session instead of every trampoline assembling it again.
func seccompProgram(unixSockets bool) ([]byte, error) {
	f, err := seccompFilter(unixSockets)
	if err != nil {
		return nil, err
	}
	insts, err := f.Policy.Assemble()
	if err != nil {
		return nil, fmt.Errorf("seccomp: assembling the filter: %w", err)
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, fmt.Errorf("seccomp: assembling the filter: %w", err)
	}
	b := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		b = binary.NativeEndian.AppendUint16(b, r.Op)
		b = append(b, r.Jt, r.Jf)
		b = binary.NativeEndian.AppendUint32(b, r.K)
	}
	return b, nil
}

// loadSeccomp assembles the filter and installs it (the probe's path).
func loadSeccomp(unixSockets bool) error {
	prog, err := seccompProgram(unixSockets)
	if err != nil {
		return err
	}
	return loadSeccompProgram(prog)
}

// loadSeccompProgram installs prog on this thread, the one that execs
// (the tool inherits its filter; see restrictPaths for why not every
// thread). The caller has set no_new_privs on it.
func loadSeccompProgram(prog []byte) error {
	if len(prog) == 0 || len(prog)%8 != 0 || len(prog)/8 > 0xffff {
		return fmt.Errorf("seccomp: a program of %d bytes is no BPF program", len(prog))
	}
	filters := make([]unix.SockFilter, len(prog)/8)
	for i := range filters {
		e := prog[8*i:]
		filters[i] = unix.SockFilter{Code: binary.NativeEndian.Uint16(e), Jt: e[2], Jf: e[3], K: binary.NativeEndian.Uint32(e[4:])}
	}
	fprog := unix.SockFprog{Len: uint16(len(filters)), Filter: &filters[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp: loading the filter: %w", errno)
	}
	return nil
}
