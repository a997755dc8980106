package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"

	"github.com/mur-go/mur/internal/policy"
)

const isLinux = true

// probeTimeout bounds one probe child on a loaded machine.
const probeTimeout = 20 * time.Second

// probe runs the child cloned into a new user, network and mount
// namespace first (the sealed and namespace probes at once); if that
// cannot be created, again with the network namespace alone, and then
// without any, for Landlock and seccomp alone. The sealed outcome is
// sorted into its blocker last (sealedOutcome).
func probe(ctx context.Context, self string) policy.HostSupport {
	res := policy.HostSupport{Linux: true, Probed: true}
	out, sealedErr := runProbe(ctx, self, probeSealed, nil)
	err := sealedErr
	if err != nil {
		out, err = runProbe(ctx, self, probeNetNS, nil)
		if err != nil {
			res.NetNSErr, res.NetNSReason = err.Error(), netNSReason(err)
			out, err = runProbe(ctx, self, probeBare, nil)
		}
	}
	if err != nil {
		res.LandlockErr, res.SeccompErr = err.Error(), err.Error()
	} else {
		res.LandlockABI, res.LandlockErr = out.LandlockABI, out.LandlockErr
		res.Seccomp, res.SeccompErr = out.Seccomp, out.SeccompErr
		if out.NetNS {
			res.NetNS, res.NetNSErr, res.NetNSReason = true, "", ""
		} else if out.NetNSErr != "" {
			res.NetNSErr, res.NetNSReason = out.NetNSErr, policy.NetNSKernelMissing
		}
	}
	res.Sealed, res.SealedBlocker, res.SealedErr = sealedOutcome(sealedInputs{
		startErr: sealedErr, out: out, landlock: res.LandlockABI > 0,
		apparmor: apparmorRestrictsUserns(),
		idMapOnly: func() bool {
			_, err := runProbe(ctx, self, probeNoIDMap, nil)
			return err == nil
		}})
	if why := usernsDenial(); why != "" {
		if !res.NetNS {
			res.NetNSErr = why + "; the probe saw: " + res.NetNSErr
		}
		if res.SealedBlocker == policy.BlockerNamespaceDenied || res.SealedBlocker == policy.BlockerIDMapDenied {
			res.SealedErr = why + "; the probe saw: " + res.SealedErr
		}
	}
	return res
}

// The probe children: what each is cloned into.
type probeMode int

const (
	probeBare    probeMode = iota // no namespaces
	probeNetNS                    // user + network
	probeSealed                   // user + network + mount, id maps written
	probeNoIDMap                  // user + mount, no id maps: did the clone alone work?
)

type probeResult struct {
	LandlockABI int    `json:"landlock_abi"`
	LandlockErr string `json:"landlock_error,omitempty"`
	Seccomp     bool   `json:"seccomp"`
	SeccompErr  string `json:"seccomp_error,omitempty"`
	NetNS       bool   `json:"netns"`
	NetNSErr    string `json:"netns_error,omitempty"`
	// Sealed is the mount test's outcome; SealedErr says why not and
	// SealedKernel that the kernel lacks a call it needs.
	Sealed       bool   `json:"sealed"`
	SealedErr    string `json:"sealed_error,omitempty"`
	SealedKernel bool   `json:"sealed_kernel,omitempty"`
}

// runProbe starts one probe child in mode, as cred when set (a test
// probing as another user), and reads what it found.
func runProbe(ctx context.Context, self string, mode probeMode, cred *syscall.Credential) (probeResult, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self)
	cmd.Env = []string{}
	if cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	}
	var plan *Plan
	switch mode {
	case probeNetNS:
		plan = Trampoline{Plan: &Plan{NetNS: true}}.namespaces(cmd)
	case probeSealed:
		plan = Trampoline{Plan: &Plan{NetNS: true, Sealed: &SealedRoot{}}}.namespaces(cmd)
	case probeNoIDMap:
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	}
	cmd.Args = append(cmd.Args, ExecMode, probeArg)
	if mode == probeNetNS || mode == probeSealed {
		cmd.Args = append(cmd.Args, encodeIDs(plan.SelfMap), HostNetNS())
	}
	if mode == probeSealed {
		cmd.Args = append(cmd.Args, hostMntNS())
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if s := strings.TrimSpace(stderr.String()); s != "" {
			err = fmt.Errorf("%w: %s", err, s)
		}
		return probeResult{}, err
	}
	var r probeResult
	if err := json.Unmarshal(out, &r); err != nil {
		return probeResult{}, fmt.Errorf("probe output: %w", err)
	}
	return r, nil
}

// netNSReason sorts a failed namespace clone into §3.4's two reasons.
func netNSReason(err error) string {
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.ENOSYS) {
		return policy.NetNSKernelMissing
	}
	return policy.NetNSGrantMissing
}

// probeChild is the probe's child side, args what follows probeArg:
// cloned into namespaces, it maps its ids when asked to (the maps
// runProbe's namespaces left to it, or "-"), raises lo when it was given
// the parent's network namespace to differ from, tries the sealed mounts
// when given its mount namespace; then it restricts itself with a
// Landlock ruleset handling every right of the kernel's ABI (granting
// them all on /, so nothing it does next is denied) and loads the real
// seccomp filter, and prints what held.
func probeChild(args []string) error {
	var r probeResult
	if len(args) > 1 {
		ids, err := decodeIDs(args[0])
		if err == nil {
			err = mapSelf(ids)
		}
		if err != nil {
			return err
		}
		if err := checkNetNS(args[1]); err != nil {
			r.NetNSErr = err.Error()
		} else if err := loopbackUp(); err != nil {
			r.NetNSErr = err.Error()
		} else {
			r.NetNS = true
		}
	}
	if len(args) > 2 {
		if err := mountProbe(args[2]); err != nil {
			r.SealedErr, r.SealedKernel = err.Error(), errors.Is(err, unix.ENOSYS)
		} else {
			r.Sealed = true
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	abi, err := ll.LandlockGetABIVersion()
	switch {
	case err != nil:
		r.LandlockErr = "Landlock is not available: " + err.Error()
	case abiRights(abi) == 0:
		r.LandlockErr = fmt.Sprintf("Landlock ABI %d is unknown", abi)
	default:
		all := landlock.AccessFSSet(abiRights(abi))
		cfg, err := landlock.NewConfig(all)
		if err == nil {
			err = cfg.RestrictPaths(landlock.PathAccess(all, "/"))
		}
		if err != nil {
			r.LandlockErr = "restricting a probe process with Landlock failed: " + err.Error()
		} else {
			r.LandlockABI = abi
		}
	}
	if err := loadSeccomp(false); err != nil {
		r.SeccompErr = err.Error()
	} else {
		r.Seccomp = true
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}
