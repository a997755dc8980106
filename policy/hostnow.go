package policy

// NewHost is the host as staging decides on it: the probed support, its
// tier, the declared floor and the native tools (known after registry
// resolution). The sealed tier would be downgraded to full unless the
// floor is sealed (§9.1); mur-go never reports it.
func NewHost(s HostSupport, floor Class, native []string) Host {
	h := Host{Tier: s.Tier(), Linux: s.Linux, NativeTools: native, Support: s, CgroupScope: s.Cgroup != ""}
	if floor != Advisory {
		h.DeclaredFloor = floor.String()
	}
	return h
}
