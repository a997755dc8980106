package sandbox

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// contain applies p in §9.4's order, after the rlimits and the cgroup
// join: the user namespace's id maps where the trampoline writes them
// itself (SelfMap), the network namespace (created by Wrap's clone
// flags) checked and its loopback raised, the sealed root composed (or,
// at scoped, the workdir remounted noexec), descriptors from 3 up marked
// close-on-exec, capabilities dropped and no_new_privs set, seccomp,
// Landlock. The caller has locked its OS thread: capabilities,
// seccomp and Landlock are per thread, and the one that execs is the one
// that must have them.
func contain(p *Plan) error {
	if err := mapSelf(p.SelfMap); err != nil {
		return err
	}
	if p.NetNS {
		if err := checkNetNS(p.HostNetNS); err != nil {
			return err
		}
		if err := loopbackUp(); err != nil {
			return err
		}
		if p.EgressFD > 0 {
			if err := handOverListeners(p.EgressFD, p.EgressPorts); err != nil {
				return err
			}
		}
	}
	if err := buildSealedRoot(p.Sealed); err != nil {
		return err
	}
	if err := noexecWorkdir(p.NoexecWorkdir); err != nil {
		return err
	}
	if err := cloexecFrom3(p.KeepFDs); err != nil {
		return err
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if p.Seccomp {
		prog := p.SeccompBPF
		if len(prog) == 0 {
			var err error
			if prog, err = seccompProgram(p.UnixSockets); err != nil {
				return err
			}
		}
		if err := loadSeccompProgram(prog); err != nil {
			return err
		}
	}
	if p.LandlockABI > 0 {
		if err := restrictPaths(p); err != nil {
			return err
		}
	}
	return nil
}

// checkNetNS fails closed when the trampoline was started without the
// namespace its plan needs (a caller that built the command itself).
func checkNetNS(host string) error {
	here, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		return fmt.Errorf("network namespace: %w", err)
	}
	if here == host {
		return errors.New("network namespace: the subprocess is still in the runtime's network namespace (start it with Trampoline.Wrap)")
	}
	return nil
}

// loopbackUp raises lo, the namespace's only interface: loopback servers
// the subprocess starts work, and every other address is unreachable.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("network namespace: socket: %w", err)
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return fmt.Errorf("network namespace: %w", err)
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return fmt.Errorf("network namespace: reading lo's flags: %w", err)
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	if err := unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr); err != nil {
		return fmt.Errorf("network namespace: bringing lo up: %w", err)
	}
	return nil
}

// cloexecFrom3 marks every descriptor from 3 up close-on-exec except
// keep, so nothing the runtime leaked reaches the tool.
func cloexecFrom3(keep []int) error {
	keep = slices.Compact(slices.Sorted(slices.Values(keep)))
	mark := func(lo, hi uint) error {
		if err := unix.CloseRange(lo, hi, unix.CLOSE_RANGE_CLOEXEC); err != nil {
			return fmt.Errorf("close_range(CLOSE_RANGE_CLOEXEC) (needs Linux 5.11): %w", err)
		}
		return nil
	}
	lo := 3
	for _, k := range keep {
		if k < lo {
			continue
		}
		if k > lo {
			if err := mark(uint(lo), uint(k-1)); err != nil {
				return err
			}
		}
		lo = k + 1
	}
	return mark(uint(lo), uint(^uint32(0)))
}

// dropCapabilities empties the bounding and ambient sets, then the
// permitted, effective and inheritable sets, so that even a root tool (or
// one that is root in its user namespace) execs with none.
func dropCapabilities() error {
	last, err := lastCap()
	if err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing the ambient capabilities: %w", err)
	}
	if hasEffective(unix.CAP_SETPCAP) {
		for c := 0; c <= last; c++ {
			if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
				return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
			}
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}

func lastCap() (int, error) {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 0, fmt.Errorf("reading cap_last_cap: %w", err)
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

func hasEffective(c int) bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	return data[c/32].Effective&(1<<(c%32)) != 0
}

// restrictPaths is §9.2: a ruleset handling every filesystem right of the
// plan's ABI, hard (no best-effort downgrade), with the plan's rules. A
// rule on a file keeps only the rights a file can have; a missing path
// grants nothing. The domain is put on this thread only, the one that
// execs (the tool inherits its domain), not synchronised across the
// runtime's other threads: that costs a round of signals to every thread,
// which on a loaded machine waits for each to be scheduled, and those
// threads run nothing but the trampoline until the exec ends them.
func restrictPaths(p *Plan) error {
	handled := abiRights(p.LandlockABI)
	rs, err := ll.LandlockCreateRuleset(&ll.RulesetAttr{HandledAccessFS: uint64(handled)}, 0)
	if err != nil {
		return fmt.Errorf("landlock: creating the ruleset: %w", err)
	}
	defer unix.Close(rs)
	for _, r := range p.Rules {
		fd, err := unix.Open(r.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		a := r.Access & handled
		var st unix.Stat_t
		if err = unix.Fstat(fd, &st); err == nil && st.Mode&unix.S_IFMT != unix.S_IFDIR {
			a &= Execute | WriteFile | ReadFile | Truncate
		}
		if err == nil && a != 0 {
			err = ll.LandlockAddPathBeneathRule(rs, &ll.PathBeneathAttr{AllowedAccess: uint64(a), ParentFd: fd}, 0)
		}
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("landlock: the rule on %s: %w", r.Path, err)
		}
	}
	if err := ll.LandlockRestrictSelf(rs, 0); err != nil {
		return fmt.Errorf("landlock: restricting the trampoline: %w", err)
	}
	return nil
}
