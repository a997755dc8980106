// Package resources holds a session's aggregate bounds on what its
// native subprocesses spend (security.md §12.2, §12.3): the cgroup scope
// every shell command, native tool and agent CLI joins, which the scope's
// reaper removes however mur ends, and the workdir guard; and, before a
// session makes its scope, the sweep of the scopes a mur that is gone
// left behind. What starts the subprocesses (package launch) only joins
// them to the Bounds it is given.
package resources

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
)

// Bounds are one session's: the cgroup scope and the workdir guard.
type Bounds struct {
	// Cgroup is nil when the capsule cannot spawn a native subprocess
	// (or off Linux, where W-SEC-010 says none exists).
	Cgroup *sandbox.Cgroup
	Guard  *sandbox.WorkdirGuard
	stop   context.CancelFunc
	done   chan struct{}
}

// Options say what Start bounds.
type Options struct {
	// SessionID names the scope; Workdir is the accessible workdir, the
	// scope's and the guard's.
	SessionID, Workdir string
	// Limits are the capsule's effective capabilities.resources.
	Limits policy.EffectiveResources
	// Scope is whether the capsule can start a native subprocess
	// (stage.Staged.StartsSubprocesses): only then is a scope made.
	Scope bool
	// NoCgroup is the operator's downgrade (mur run --no-cgroup,
	// MUR_NO_CGROUP=1, capsule.Options.NoCgroup): no scope is made even
	// when Scope says one is needed, and bootstrap.log says so; the
	// subprocesses keep their rlimits and containment.
	NoCgroup bool
	// Self is the mur binary the scope's reaper runs (sandbox.ReaperMode),
	// the native tools' trampoline; a scope is never built without it.
	Self string
	// Bootstrap appends a line to logs/bootstrap.log
	// (stage.Workdir.AppendBootstrap); nil writes none.
	Bootstrap func(line string) error
	// Stderr receives the guard's latch line; nil discards it.
	Stderr io.Writer
	// Ticks drives the guard's walks (tests); nil walks every 10 s.
	Ticks <-chan time.Time
	Log   *slog.Logger
}

// Start makes the session's scope when o.Scope says the capsule can
// spawn a native subprocess, before any tool runs (security.md §12.2's
// order): it asks the systemd user manager to move this process into a
// delegated transient scope (sandbox.JoinSystemdScope; once per
// process), removes the scopes runtimes that are gone left behind where
// this one now sits and beside it (sandbox.SweepStaleScopes, done for
// every session), and builds the scope in the cgroup the process is then
// in, the inherited one when systemd gave none. A scope that cannot be
// built is E-RUN-012 with both reasons. It then starts the workdir
// guard. Close ends both.
func Start(ctx context.Context, o Options) (*Bounds, error) {
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	b := &Bounds{}
	scope := o.Scope && runtime.GOOS == "linux"
	if scope && o.NoCgroup {
		scope = false
		o.bootstrap("cgroup scope: none: " + policy.CgroupOffReason + "; the subprocess tree has its per-process rlimits and containment but no aggregate memory, pids or cpu ceiling")
	}
	// The transient scope is joined before the sweep, which then looks
	// beside it for the scopes of murs that are gone.
	var joinErr error
	if scope {
		_, joinErr = sandbox.JoinSystemdScope(ctx)
	}
	sweep(o.Log)
	if scope {
		l := cgroupLimits(o.Limits)
		cg, err := sandbox.NewCgroup(sandbox.CgroupRequest{SessionID: o.SessionID, Workdir: o.Workdir,
			Limits: l, Reaper: o.Self, Log: o.Log})
		if err != nil {
			reason := err.Error()
			if joinErr != nil {
				reason = "asking the systemd user manager for a transient scope: " + joinErr.Error() + "; in the inherited cgroup: " + reason
			}
			return nil, policy.NoCgroup(reason, err)
		}
		b.Cgroup = cg
		where := ""
		if u := cg.Unit(); u != "" {
			where = "; in the systemd user manager's transient scope " + u
		} else if joinErr != nil {
			o.Log.Info("no systemd transient scope; the session's scope is in the inherited cgroup", "reason", joinErr)
		}
		o.Log.Info("cgroup scope created", "mechanism", cg.Mechanism(), "unit", cg.Unit(), "dirs", cg.Dirs())
		o.bootstrap(fmt.Sprintf("cgroup scope: %s %s (memory %d bytes, pids %d, cpu %d%%, io %d bytes/s best effort)%s",
			cg.Mechanism(), strings.Join(cg.Dirs(), " "), l.MemoryBytes, l.PidsMax, l.CPUPercent, l.IOBytesPerSec, where))
	}
	b.Guard = &sandbox.WorkdirGuard{Dir: o.Workdir, Max: o.Limits.WorkdirMaxBytes,
		OnLatch: func(br *sandbox.WorkdirBreach) {
			fmt.Fprintf(o.Stderr, "[capsule-runtime] %s\n", br)
			o.bootstrap(br.Error())
		}}
	ctx, b.stop = context.WithCancel(context.WithoutCancel(ctx))
	b.done = make(chan struct{})
	go func() {
		defer close(b.done)
		b.Guard.Run(ctx, o.Ticks)
	}()
	return b, nil
}

// sweep removes stale scopes (none off Linux) and says so: a session of
// a mur that was killed left processes running until now.
func sweep(log *slog.Logger) {
	stale, err := sandbox.SweepStaleScopes()
	if err != nil {
		log.Warn("looking for cgroup scopes left by a mur that is gone", "err", err)
	}
	for _, s := range stale {
		if s.Err != nil {
			log.Error("a cgroup scope left by a mur that is gone could not be removed; mur doctor retries", "scope", s.String())
			continue
		}
		log.Warn("removed a cgroup scope left by a mur that is gone", "scope", s.String())
	}
}

// bootstrap records a capability-policy line in logs/bootstrap.log.
func (o *Options) bootstrap(text string) {
	if o.Bootstrap == nil {
		return
	}
	if err := o.Bootstrap(policy.BootstrapPrefix + " " + text); err != nil {
		o.Log.Warn("writing logs/bootstrap.log", "err", err)
	}
}

// cgroupLimits are the scope's ceilings from the effective resources.
func cgroupLimits(r policy.EffectiveResources) sandbox.CgroupLimits {
	return sandbox.CgroupLimits{MemoryBytes: r.CgroupMemoryBytes, PidsMax: r.CgroupPidsMax,
		CPUPercent: r.CgroupCPUPercent, IOBytesPerSec: r.CgroupIOBytesPerSec}
}

// Breach is the guard's latched breach (nil before one, and on nil b).
func (b *Bounds) Breach() error {
	if b == nil {
		return nil
	}
	return b.Guard.Breach()
}

// Close stops the guard and removes the scope, killing whatever the
// session's subprocesses left running in it.
func (b *Bounds) Close() error {
	if b == nil {
		return nil
	}
	b.stop()
	<-b.done
	return b.Cgroup.Close()
}
