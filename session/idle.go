package session

import (
	"context"
	"runtime/debug"
	"time"

	"github.com/mur-go/mur/agent"
	"github.com/mur-go/mur/component"
)

// idleRelease is how long the loop waits for its next task before the
// memory its tasks left behind goes back to the OS.
const idleRelease = 2 * time.Second

// idleSource is the loop's task source: once a wait for the next task has
// lasted after, release runs (the engine's idle mappings, then
// debug.FreeOSMemory), so a served capsule that went idle after a burst of
// tasks gives back what the burst grew. A task that arrives sooner costs
// nothing.
type idleSource struct {
	agent.TaskSource
	after   time.Duration
	release func()
}

func newIdleSource(src agent.TaskSource, engine *component.Engine) idleSource {
	release := debug.FreeOSMemory
	if engine != nil {
		release = func() {
			engine.ReleaseIdle(context.Background())
			debug.FreeOSMemory()
		}
	}
	return idleSource{TaskSource: src, after: idleRelease, release: release}
}

func (s idleSource) Next(ctx context.Context) (agent.Task, bool, error) {
	t := time.AfterFunc(s.after, s.release)
	defer t.Stop()
	return s.TaskSource.Next(ctx)
}
