package sandbox

import (
	"context"
	"os"
	"testing"
)

// TestProbeOutlivesItsFirstCaller: the prober's result is every later
// session's (a worker's, a server's), so the first caller's context
// ending while it probes must not become the host's answer.
func TestProbeOutlivesItsFirstCaller(t *testing.T) {
	want := NewProber(os.Args[0]).Probe(t.Context())
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	p := NewProber(os.Args[0])
	p.Probe(canceled)
	got := p.Probe(t.Context())
	if got.NetNS != want.NetNS || got.NetNSErr != want.NetNSErr || got.Sealed != want.Sealed ||
		got.LandlockABI != want.LandlockABI || got.Seccomp != want.Seccomp || got.Cgroup != want.Cgroup {
		t.Errorf("after a first caller that was canceled the prober says %+v, want what the host is: %+v", got, want)
	}
}
