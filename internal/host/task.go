package host

import (
	"context"
	"errors"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/tools"
)

// ErrNoTaskContext is the trap request-input raises outside an A2A task
// (wit.md §5.4): in a script capsule's tool call, an agent run from
// task.md, or a driver serving a hook.
var ErrNoTaskContext = errors.New("request-input is not available outside an A2A task context")

// registerTask defines murmur:task/task@0.1.0. request-input returns a plain
// string, so every failure is a trap carrying the reason.
func registerTask(l *component.Linker, t *witTypes, get func(*component.Store) tools.TaskIO) error {
	return l.Define(InstanceTask, "request-input", t.requestInput,
		func(ctx context.Context, s *component.Store, prompt string) (string, error) {
			io := get(s)
			if io == nil {
				return "", ErrNoTaskContext
			}
			return io.RequestInput(ctx, prompt)
		})
}
