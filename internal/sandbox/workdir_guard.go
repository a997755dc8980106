package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"time"
)

// WorkdirGuardInterval is how often the guard walks the workdir (§12.3).
const WorkdirGuardInterval = 10 * time.Second

// ErrWorkdirCeiling is wrapped by a WorkdirBreach.
var ErrWorkdirCeiling = errors.New("workdir ceiling crossed")

// WorkdirBreach is the first walk that found the workdir past its
// ceiling; its text is what the log, a refused spawn and the session's
// E-RUN-013 say.
type WorkdirBreach struct {
	Observed, Max uint64
}

func (b *WorkdirBreach) Error() string {
	return fmt.Sprintf("workdir grew to %d bytes, past the %d byte ceiling (capabilities.resources.workdir_max_bytes)", b.Observed, b.Max)
}

func (b *WorkdirBreach) Unwrap() error { return ErrWorkdirCeiling }

// WorkdirGuard is the session's workdir size guard (§12.3): Run walks Dir
// at each tick, Check walks it once (the spawn path calls it when a
// subprocess ends, the usual way a workdir grows), and the first total
// past Max latches: OnLatch hears of it once, every later spawn is
// refused with it (Trampoline.Refusal) and the agent loop ends the
// session at its next turn (Breach).
type WorkdirGuard struct {
	Dir string
	Max uint64
	// OnLatch reports the breach (to stderr and bootstrap.log); nil
	// reports nothing.
	OnLatch func(*WorkdirBreach)

	mu     sync.Mutex
	breach *WorkdirBreach
}

// Run checks at every tick until ctx ends; nil ticks is a ticker of
// WorkdirGuardInterval. Tests pass their own channel.
func (g *WorkdirGuard) Run(ctx context.Context, ticks <-chan time.Time) {
	if ticks == nil {
		t := time.NewTicker(WorkdirGuardInterval)
		defer t.Stop()
		ticks = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			if g.Check() != nil {
				return
			}
		}
	}
}

// Check walks the workdir now (regular files by lstat, links not
// followed, unreadable entries skipped) and returns the latched breach,
// nil while the total stays within Max.
func (g *WorkdirGuard) Check() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.breach != nil {
		return g.breach
	}
	if n := workdirBytes(g.Dir); n > g.Max {
		g.breach = &WorkdirBreach{Observed: n, Max: g.Max}
		if g.OnLatch != nil {
			g.OnLatch(g.breach)
		}
		return g.breach
	}
	return nil
}

// Breach is the latched breach, nil before one (and on a nil guard).
func (g *WorkdirGuard) Breach() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.breach == nil {
		return nil
	}
	return g.breach
}

// workdirBytes sums the sizes of the regular files under dir.
func workdirBytes(dir string) uint64 {
	var n uint64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: skipped, and WalkDir skips its subtree
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += uint64(fi.Size())
			}
		}
		return nil
	})
	return n
}
