package sandbox

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mur-go/mur/policy"
)

// BenchmarkSpawn measures the cost of containment: `true` started
// plainly, through the rlimit-only trampoline, contained at scoped
// (namespaces, seccomp, Landlock) and at sealed (plus the composed root)
// as a shell command would be.
func BenchmarkSpawn(b *testing.B) {
	s := NewProber(os.Args[0]).Probe(context.Background())
	if s.Tier() < policy.TierKernelSealed {
		b.Skipf("this host cannot enforce the sealed tier: %+v", s)
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Fatal(err)
	}
	sc := Scope{LandlockABI: s.LandlockABI, NetNS: s.NetNS, Seccomp: true, Workdir: b.TempDir(), Binaries: []string{"true"}, PathEnv: os.Getenv("PATH")}
	sealed := sc
	sealed.Sealed = true
	l := Rlimits{ExtraProcesses: 64, OpenFiles: 64, FileSizeBytes: 1 << 20, CPUSeconds: 10, MemoryBytes: 1 << 31}
	for _, tc := range []struct {
		name string
		t    *Trampoline
	}{
		{"plain", nil},
		{"rlimits", &Trampoline{Self: os.Args[0], Limits: l}},
		{"scoped", &Trampoline{Self: os.Args[0], Limits: l, Plan: sc.Plan(HostNetNS())}},
		{"sealed", &Trampoline{Self: os.Args[0], Limits: l, Plan: sealed.Plan(HostNetNS())}},
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
