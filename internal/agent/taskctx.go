package agent

import "context"

// Cancelable is implemented by the Events of a task that can be cancelled
// from outside the loop (A2A CancelTask): the loop runs the task under the
// context Context returns, so a cancel stops the driver call and any tool.
type Cancelable interface {
	Context(parent context.Context) (context.Context, context.CancelFunc)
}

// TaskContext is the context the loop runs t under: t's own when its
// Events are Cancelable, else a child of ctx. When it ends while ctx is
// still live, the task was cancelled and the session goes on.
func TaskContext(ctx context.Context, t Task) (context.Context, context.CancelFunc) {
	if c, ok := t.Events.(Cancelable); ok {
		return c.Context(ctx)
	}
	return context.WithCancel(ctx)
}
