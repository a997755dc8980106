package policy

// NewHost is the host as staging decides on it: the probed support, its
// tier, the declared floor and the native tools (known after registry
// resolution). The applied tier is the host's, except that KernelSealed
// is applied only under a sealed floor (§9.1): a weaker declaration is
// never silently upgraded to the composed root.
func NewHost(s HostSupport, floor Class, native []string) Host {
	h := Host{Tier: s.Tier(), HostTier: s.Tier(), Linux: s.Linux, NativeTools: native, Support: s, CgroupScope: s.Cgroup != ""}
	if h.Tier == TierKernelSealed && floor != Sealed {
		h.Tier = TierKernelFull
	}
	if floor != Advisory {
		h.DeclaredFloor = floor.String()
	}
	return h
}

// Mechanism names the host's tier (never the applied one, §9.1), as
// --explain-scope and the trace report it.
func (h Host) Mechanism() string { return max(h.HostTier, h.Tier).Mechanism() }
