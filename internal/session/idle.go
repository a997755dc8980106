package session

import (
	"context"
	"log/slog"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/agent"
)

// idleRelease is how long the loop waits for its next task before the
// memory its tasks left behind goes back to the OS.
const idleRelease = 2 * time.Second

// idleSource is the loop's task source: once a wait for the next task has
// lasted after, release runs (releaseMemory), so a served capsule that
// went idle after a burst of tasks gives back what the burst's garbage
// grew, the engine's idle mappings and the binary pages it touched. A task that arrives sooner costs
// nothing.
type idleSource struct {
	agent.TaskSource
	after   time.Duration
	release func()
}

func newIdleSource(src agent.TaskSource, engine *component.Engine, log *slog.Logger) idleSource {
	return idleSource{TaskSource: src, after: idleRelease, release: func() { releaseMemory(engine, log) }}
}

func (s idleSource) Next(ctx context.Context) (agent.Task, bool, error) {
	t := time.AfterFunc(s.after, s.release)
	defer t.Stop()
	return s.TaskSource.Next(ctx)
}
