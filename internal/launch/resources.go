package launch

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
)

// Resources are a session's aggregate bounds on what its native
// subprocesses spend (security.md §12.2, §12.3): the cgroup scope every
// shell command and native tool joins, and the workdir guard.
type Resources struct {
	// Cgroup is nil when the capsule cannot spawn a native subprocess
	// (or off Linux, where W-SEC-010 says none exists).
	Cgroup *sandbox.Cgroup
	Guard  *sandbox.WorkdirGuard
	stop   context.CancelFunc
	done   chan struct{}
}

// ResourceOptions are StartResources' inputs beside the session.
type ResourceOptions struct {
	// Self is the mur binary the scope's reaper runs (sandbox.ReaperMode),
	// as Options.Trampoline; a scope is never built without it.
	Self string
	// Stderr receives the guard's latch line; nil discards it.
	Stderr io.Writer
	// Ticks drives the guard's walks (tests); nil walks every 10 s.
	Ticks <-chan time.Time
	Log   *slog.Logger
}

// StartResources first removes the scopes runtimes that are gone left
// behind (sandbox.SweepStaleScopes), then creates the session's scope,
// when the capsule can spawn a native subprocess (shell.allow or
// spawn.allow non-empty, a native tool installed, or an agent CLI), before
// any tool runs, and starts the workdir guard. A scope that cannot be
// created is E-RUN-012 with the reason. Close ends both.
func StartResources(ctx context.Context, s *stage.Staged, o ResourceOptions) (*Resources, error) {
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	r := &Resources{}
	res := s.Ceiling.Resources
	sweep(o.Log)
	if s.StartsSubprocesses() && runtime.GOOS == "linux" {
		cg, err := sandbox.NewCgroup(sandbox.CgroupRequest{SessionID: s.ID, Workdir: s.AccessibleDir,
			Limits: CgroupLimits(res), Reaper: o.Self, Log: o.Log})
		if err != nil {
			return nil, NoCgroupError(err)
		}
		r.Cgroup = cg
		o.Log.Info("cgroup scope created", "mechanism", cg.Mechanism(), "dirs", cg.Dirs())
		l := CgroupLimits(res)
		bootstrapLine(s, o.Log, fmt.Sprintf("cgroup scope: %s %s (memory %d bytes, pids %d, cpu %d%%, io %d bytes/s best effort)",
			cg.Mechanism(), strings.Join(cg.Dirs(), " "), l.MemoryBytes, l.PidsMax, l.CPUPercent, l.IOBytesPerSec))
	}
	r.Guard = &sandbox.WorkdirGuard{Dir: s.AccessibleDir, Max: res.WorkdirMaxBytes,
		OnLatch: func(b *sandbox.WorkdirBreach) {
			fmt.Fprintf(o.Stderr, "[capsule-runtime] %s\n", b)
			bootstrapLine(s, o.Log, b.Error())
		}}
	ctx, r.stop = context.WithCancel(context.WithoutCancel(ctx))
	r.done = make(chan struct{})
	go func() {
		defer close(r.done)
		r.Guard.Run(ctx, o.Ticks)
	}()
	return r, nil
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

// bootstrapLine appends a capability-policy line to logs/bootstrap.log.
func bootstrapLine(s *stage.Staged, log *slog.Logger, text string) {
	line := policy.BootstrapPrefix + " " + text + "\n"
	if err := s.WriteSessionFile(filepath.Join(s.LogsDir, stage.BootstrapLog), []byte(line), os.O_CREATE|os.O_APPEND); err != nil {
		log.Warn("writing logs/bootstrap.log", "err", err)
	}
}

// CgroupLimits are the scope's ceilings from the effective resources.
func CgroupLimits(r policy.EffectiveResources) sandbox.CgroupLimits {
	return sandbox.CgroupLimits{MemoryBytes: r.CgroupMemoryBytes, PidsMax: r.CgroupPidsMax,
		CPUPercent: r.CgroupCPUPercent, IOBytesPerSec: r.CgroupIOBytesPerSec}
}

// NoCgroupError is E-RUN-012, err carrying the reason.
func NoCgroupError(err error) *diag.Error { return policy.NoCgroup(err.Error(), err) }

// Breach is the guard's latched breach (nil before one, and on nil r).
func (r *Resources) Breach() error {
	if r == nil {
		return nil
	}
	return r.Guard.Breach()
}

// Close stops the guard and removes the scope, killing whatever the
// session's subprocesses left running in it.
func (r *Resources) Close() error {
	if r == nil {
		return nil
	}
	r.stop()
	<-r.done
	return r.Cgroup.Close()
}
