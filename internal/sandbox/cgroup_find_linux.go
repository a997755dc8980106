package sandbox

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// supervisorLeaf is the cgroup the runtime steps aside into on v2, so its
// inherited cgroup has no processes of its own and may enable
// controllers for its children (the "no internal processes" rule).
const supervisorLeaf = "murmur-supervisor"

// requiredControllers are what a scope needs: the aggregate memory, pids
// and cpu ceilings. io is added where it can be, never required.
func requiredControllers() []string { return []string{"memory", "pids", "cpu"} }

// cgroupPlaces is where this process sits in each mounted hierarchy: the
// unified one's directory (v2, "" if unmounted or unreachable) and, per
// v1 controller, its hierarchy's directory.
type cgroupPlaces struct {
	v2 string
	v1 map[string]string
}

// findCgroups reads /proc/self/cgroup and /proc/self/mountinfo. A cgroup
// outside the visible part of its hierarchy (a mount of a subtree that
// does not contain it) is left out.
func findCgroups() (cgroupPlaces, error) {
	places := cgroupPlaces{v1: map[string]string{}}
	type mount struct{ root, point, fstype, opts string }
	var mounts []mount
	err := eachLine("/proc/self/mountinfo", func(line string) {
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 5 || len(g) < 3 || (g[0] != "cgroup" && g[0] != "cgroup2") {
			return
		}
		mounts = append(mounts, mount{root: unescapeMount(f[3]), point: unescapeMount(f[4]), fstype: g[0], opts: g[2]})
	})
	if err != nil {
		return places, err
	}
	under := func(m mount, path string) (string, bool) {
		rel, err := filepath.Rel(m.root, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", false
		}
		return filepath.Join(m.point, rel), true
	}
	err = eachLine("/proc/self/cgroup", func(line string) {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			return
		}
		if parts[1] == "" {
			for _, m := range mounts {
				if dir, ok := under(m, parts[2]); ok && m.fstype == "cgroup2" && places.v2 == "" {
					places.v2 = dir
				}
			}
			return
		}
		ctrls := strings.Split(parts[1], ",")
		for _, m := range mounts {
			opts := strings.Split(m.opts, ",")
			if m.fstype != "cgroup" || !slices.Contains(opts, ctrls[0]) {
				continue
			}
			if dir, ok := under(m, parts[2]); ok {
				for _, c := range ctrls {
					if _, seen := places.v1[c]; !seen {
						places.v1[c] = dir
					}
				}
			}
		}
	})
	return places, err
}

func eachLine(path string, f func(string)) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		f(sc.Text())
	}
	return sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes of space, tab, newline
// and backslash.
func unescapeMount(s string) string {
	return strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`).Replace(s)
}

// v2Base is the cgroup a v2 scope is built under: the inherited one, or
// its parent when this process already stepped aside into the supervisor
// leaf (a second session of one runtime).
func (p cgroupPlaces) v2Base() string {
	if filepath.Base(p.v2) == supervisorLeaf {
		return filepath.Dir(p.v2)
	}
	return p.v2
}

// v2Usable says why the unified hierarchy cannot hold a scope ("" when it
// can): the base must offer the required controllers and be writable by
// this process (delegated).
func (p cgroupPlaces) v2Usable() string {
	if p.v2 == "" {
		return "no cgroup v2 hierarchy is mounted where this process can see its cgroup"
	}
	base := p.v2Base()
	b, err := os.ReadFile(filepath.Join(base, "cgroup.controllers"))
	if err != nil {
		return fmt.Sprintf("reading %s: %v", filepath.Join(base, "cgroup.controllers"), err)
	}
	have := strings.Fields(string(b))
	var missing []string
	for _, c := range requiredControllers() {
		if !slices.Contains(have, c) {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return fmt.Sprintf("the cgroup v2 hierarchy offers %s no %s controller", base, strings.Join(missing, ", "))
	}
	for _, f := range []string{"", "cgroup.subtree_control", "cgroup.procs"} {
		if err := unix.Access(filepath.Join(base, f), unix.W_OK); err != nil {
			return fmt.Sprintf("%s is not delegated to this user (%v)", filepath.Join(base, f), err)
		}
	}
	return ""
}

// v1Usable says why the v1 hierarchies cannot hold a scope ("" when they
// can): each required controller mounted and its directory writable.
func (p cgroupPlaces) v1Usable() string {
	for _, c := range requiredControllers() {
		dir, ok := p.v1[c]
		if !ok {
			return fmt.Sprintf("no cgroup v1 %s hierarchy is mounted", c)
		}
		if err := unix.Access(dir, unix.W_OK); err != nil {
			return fmt.Sprintf("the cgroup v1 %s hierarchy's %s is not writable by this user (%v)", c, dir, err)
		}
	}
	return ""
}

// ProbeCgroup finds how a session scope would be built on this host,
// without creating anything (security.md §12.2's order): in a transient
// scope the systemd user manager delegates, asked for when a session
// needs its scope (CgroupSystemd, when the manager answers on the
// session bus), else in the inherited cgroup: a delegated cgroup v2
// subtree with the memory, pids and cpu controllers, else writable
// cgroup v1 memory, pids and cpu hierarchies, else none and why. A
// process already in a scope of its own is judged where it is.
func ProbeCgroup(ctx context.Context) CgroupSupport {
	p, err := findCgroups()
	if err != nil {
		return CgroupSupport{Reason: fmt.Sprintf("reading this process's cgroups: %v", err)}
	}
	s := p.support()
	if ownUnit() != "" {
		return s
	}
	why := systemdUserManager(ctx)
	switch {
	case why == nil && s.Mechanism != "":
		return CgroupSupport{Mechanism: CgroupSystemd, Note: "should the systemd user manager give no scope, it is built in the inherited cgroup (" + s.Mechanism + ")"}
	case why == nil:
		return CgroupSupport{Mechanism: CgroupSystemd, Note: "should the systemd user manager give no scope, none can be built (" + s.Reason + ")"}
	case s.Mechanism == "":
		s.Reason = why.Error() + "; " + s.Reason
	}
	return s
}

func (p cgroupPlaces) support() CgroupSupport {
	why2 := p.v2Usable()
	if why2 == "" {
		return CgroupSupport{Mechanism: CgroupV2}
	}
	why1 := p.v1Usable()
	if why1 == "" {
		return CgroupSupport{Mechanism: CgroupV1,
			Note: why2 + "; the scope is built on the cgroup v1 memory, pids and cpu hierarchies instead"}
	}
	return CgroupSupport{Reason: why2 + "; and " + why1}
}
