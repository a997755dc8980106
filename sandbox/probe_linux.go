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

	"github.com/mur-go/mur/policy"
)

const isLinux = true

// probeTimeout bounds one probe child on a loaded machine.
const probeTimeout = 20 * time.Second

// probe runs the child twice at most: first cloned into a new user and
// network namespace (the namespace probe), and if that cannot be created,
// again without, for Landlock and seccomp alone.
func probe(ctx context.Context, self string) policy.HostSupport {
	res := policy.HostSupport{Linux: true, Probed: true}
	out, err := runProbe(ctx, self, true)
	if err != nil {
		res.NetNSErr, res.NetNSReason = err.Error(), netNSReason(err)
		out, err = runProbe(ctx, self, false)
	}
	if err != nil {
		res.LandlockErr, res.SeccompErr = err.Error(), err.Error()
		return res
	}
	res.LandlockABI, res.LandlockErr = out.LandlockABI, out.LandlockErr
	res.Seccomp, res.SeccompErr = out.Seccomp, out.SeccompErr
	if out.NetNS {
		res.NetNS, res.NetNSErr, res.NetNSReason = true, "", ""
	} else if out.NetNSErr != "" {
		res.NetNSErr, res.NetNSReason = out.NetNSErr, policy.NetNSKernelMissing
	}
	return res
}

type probeResult struct {
	LandlockABI int    `json:"landlock_abi"`
	LandlockErr string `json:"landlock_error,omitempty"`
	Seccomp     bool   `json:"seccomp"`
	SeccompErr  string `json:"seccomp_error,omitempty"`
	NetNS       bool   `json:"netns"`
	NetNSErr    string `json:"netns_error,omitempty"`
}

func runProbe(ctx context.Context, self string, netns bool) (probeResult, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	args := []string{ExecMode, probeArg}
	if netns {
		args = append(args, HostNetNS())
	}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = []string{}
	if netns {
		Trampoline{Plan: &Plan{NetNS: true}}.namespaces(cmd)
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

// probeChild is the probe's child side: it raises lo when it was given
// the parent's namespace to differ from, restricts itself with a Landlock
// ruleset handling every right of the kernel's ABI (granting them all on
// /, so nothing it does next is denied) and loads the real seccomp
// filter, then prints what held.
func probeChild() error {
	var r probeResult
	if len(os.Args) > 3 {
		if err := checkNetNS(os.Args[3]); err != nil {
			r.NetNSErr = err.Error()
		} else if err := loopbackUp(); err != nil {
			r.NetNSErr = err.Error()
		} else {
			r.NetNS = true
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
