package policy

import "runtime"

// CurrentHost is this process's host as mur-go can honestly describe it:
// no kernel sandbox and no cgroup scope are applied to subprocesses yet,
// so the tier is environment-only on every OS (security.md §9.1). native
// names the tools whose implementation is native.
func CurrentHost(floor Class, native []string) Host {
	h := Host{Tier: TierEnvironmentOnly, Linux: runtime.GOOS == "linux", NativeTools: native}
	if floor != Advisory {
		h.DeclaredFloor = floor.String()
	}
	return h
}
