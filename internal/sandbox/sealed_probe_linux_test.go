package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/mur-go/mur/internal/policy"
)

// The sealed probe's outcomes sort into the SealedBlocker reasons in
// §10.2's precedence: AppArmor, then the namespace outcome, then Landlock.
func TestSealedOutcome(t *testing.T) {
	cloneErr := fmt.Errorf("fork/exec mur: %w", syscall.EPERM)
	for _, tc := range []struct {
		name    string
		in      sealedInputs
		ok      bool
		blocker string
	}{
		{"sealed", sealedInputs{out: probeResult{Sealed: true}, landlock: true}, true, ""},
		{"no Landlock", sealedInputs{out: probeResult{Sealed: true}}, true, policy.BlockerLandlockMissing},
		{"AppArmor first", sealedInputs{startErr: cloneErr, apparmor: true, idMapOnly: func() bool { return true }}, false, policy.BlockerAppArmor},
		{"AppArmor and a failed mount", sealedInputs{out: probeResult{SealedErr: "EPERM"}, apparmor: true, landlock: true}, false, policy.BlockerAppArmor},
		{"AppArmor but sealed", sealedInputs{out: probeResult{Sealed: true}, apparmor: true, landlock: true}, true, ""},
		{"the id map refused", sealedInputs{startErr: cloneErr, idMapOnly: func() bool { return true }, landlock: true}, false, policy.BlockerIDMapDenied},
		{"the clone refused", sealedInputs{startErr: cloneErr, idMapOnly: func() bool { return false }}, false, policy.BlockerNamespaceDenied},
		{"no user namespaces in the kernel", sealedInputs{startErr: fmt.Errorf("x: %w", syscall.EINVAL), idMapOnly: func() bool { return false }}, false, policy.BlockerKernel},
		{"the mount refused", sealedInputs{out: probeResult{SealedErr: "mounting a tmpfs: EPERM"}, landlock: true}, false, policy.BlockerMountDenied},
		{"no mount API", sealedInputs{out: probeResult{SealedErr: "open_tree: ENOSYS", SealedKernel: true}, landlock: true}, false, policy.BlockerKernel},
		{"the namespace before Landlock", sealedInputs{out: probeResult{SealedErr: "EPERM"}}, false, policy.BlockerMountDenied},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, blocker, _ := sealedOutcome(tc.in)
			if ok != tc.ok || blocker != tc.blocker {
				t.Errorf("got %v %q, want %v %q", ok, blocker, tc.ok, tc.blocker)
			}
		})
	}
}

// The probe really builds what the sealed tier needs, here and as a uid
// that holds no capability outside its namespace: a root runtime must
// not be what makes it pass.
func TestSealedProbe(t *testing.T) {
	s := NewProber(os.Args[0]).Probe(context.Background())
	if !s.Sealed || s.SealedBlocker != "" || s.Tier() != policy.TierKernelSealed {
		t.Fatalf("this host (Linux with user namespaces and Landlock, as CI) probed %+v", s)
	}
	if os.Geteuid() != 0 {
		return
	}
	self := newJail(t).attacker // a copy nobody can execute
	out, err := runProbe(context.Background(), self, probeSealed, &syscall.Credential{Uid: 65534, Gid: 65534, NoSetGroups: true})
	if err != nil || !out.Sealed || !out.NetNS {
		t.Errorf("as uid 65534: %+v, %v", out, err)
	}
	// The mount test itself fails closed outside a mount namespace.
	if err := mountProbe(hostMntNS()); !errors.Is(err, errNotSealed) {
		t.Errorf("in the runtime's own namespace: %v", err)
	}
}
