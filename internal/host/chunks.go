package host

import (
	"context"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/tools"
)

// registerChunks defines murmur:text/chunks@0.1.0; both functions go into
// the one instance, since a guest importing it needs both (wit.md §2.2).
func registerChunks(l *component.Linker, t *witTypes, get func(*component.Store) tools.TaskIO) error {
	emit := func(thinking bool) func(context.Context, *component.Store, string) error {
		return func(ctx context.Context, s *component.Store, chunk string) error {
			if io := get(s); io != nil {
				io.EmitChunk(ctx, chunk, thinking)
			}
			return nil
		}
	}
	if err := l.Define(InstanceChunks, "emit-chunk", t.chunk, emit(false)); err != nil {
		return err
	}
	return l.Define(InstanceChunks, "emit-thinking-chunk", t.chunk, emit(true))
}
