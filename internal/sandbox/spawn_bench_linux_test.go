package sandbox

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/internal/policy"
)

// benchSelf is the trampoline binary BenchmarkSpawn re-executes: the test
// binary by default; the mur binary (go test -bench Spawn -args
// -trampoline=$(which mur)) measures what a session pays.
var benchSelf = flag.String("trampoline", "", "the binary BenchmarkSpawn starts as the trampoline (default: this test binary)")

// BenchmarkSpawn measures the cost of containment: `true` started
// plainly, through the rlimit-only trampoline, contained at scoped
// (namespaces, seccomp, Landlock, the workdir remounted noexec) and at sealed (plus the composed root)
// as a shell command would be.
func BenchmarkSpawn(b *testing.B) {
	self := os.Args[0]
	if *benchSelf != "" {
		self = *benchSelf
	}
	s := NewProber(self).Probe(context.Background())
	if s.Tier() < policy.TierKernelSealed {
		b.Skipf("this host cannot enforce the sealed tier: %+v", s)
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Fatal(err)
	}
	sc := Scope{LandlockABI: s.LandlockABI, NetNS: s.NetNS, Seccomp: true, MountNS: s.Sealed, Workdir: b.TempDir(), Binaries: []string{"true"}, PathEnv: os.Getenv("PATH")}
	sealed := sc
	sealed.Sealed = true
	l := RlimitsFor(policy.SubprocessLimits(nil)) // as a session takes them, once
	l.MemoryBytes = 1 << 31
	for _, tc := range []struct {
		name string
		t    *Trampoline
	}{
		{"plain", nil},
		{"rlimits", &Trampoline{Self: self, Limits: l}},
		{"scoped", &Trampoline{Self: self, Limits: l, Plan: sc.Plan(HostNetNS())}},
		{"sealed", &Trampoline{Self: self, Limits: l, Plan: sealed.Plan(HostNetNS())}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			// The CPU the child spent, beside wall time: on a loaded
			// machine the wall time is mostly waiting for a core.
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(truePath)
				var out strings.Builder
				cmd.Stdout, cmd.Stderr = &out, &out
				var err error
				if tc.t != nil {
					err = tc.t.Start(cmd)
				} else {
					err = cmd.Start()
				}
				if err == nil {
					err = cmd.Wait()
				}
				if err != nil {
					b.Fatalf("%v\n%s", err, out.String())
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "child-cpu-µs/op")
		})
	}
}
