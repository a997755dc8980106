package agent

import (
	"context"
	"sync/atomic"

	"github.com/mur-go/mur/internal/tools"
)

// chunkWatch is the task's TaskIO as the driver sees it: it notes whether
// the driver streamed text this turn, which decides the closing text
// event (session.md §3.2 steps 6 and 15).
type chunkWatch struct {
	tools.TaskIO
	emitted atomic.Bool
}

func (c *chunkWatch) EmitChunk(ctx context.Context, text string, thinking bool) {
	if !thinking {
		c.emitted.Store(true)
	}
	c.TaskIO.EmitChunk(ctx, text, thinking)
}

func (c *chunkWatch) reset()         { c.emitted.Store(false) }
func (c *chunkWatch) streamed() bool { return c.emitted.Load() }
