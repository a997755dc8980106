package agent

import (
	"context"
	"testing"

	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/tools"
)

// BenchmarkTaskChunk is what the redacting TaskIO adds to each streamed
// chunk on its way to the task (a provider's SSE delta, before the A2A
// server sees it): "direct" is the task's own TaskIO alone.
func BenchmarkTaskChunk(b *testing.B) {
	ctx := context.Background()
	chunk := "a delta of model text, as providers stream it "
	for _, c := range []struct {
		name string
		io   func(tools.TaskIO) tools.TaskIO
	}{
		{"direct", func(io tools.TaskIO) tools.TaskIO { return io }},
		{"no-secret", func(io tools.TaskIO) tools.TaskIO {
			r := newRedactedTask(redact.New(), NoEvents{}, io)
			return r.taskIO()
		}},
		{"api-key", func(io tools.TaskIO) tools.TaskIO {
			r := newRedactedTask(redact.New("sk-proj-0123456789abcdefghijklmnopqrstuvwxyz"), NoEvents{}, io)
			return r.taskIO()
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			n := &countIO{}
			io := c.io(n)
			b.ReportAllocs()
			for b.Loop() {
				io.EmitChunk(ctx, chunk, false)
			}
			if n.n != b.N {
				b.Fatalf("%d chunks out of %d", n.n, b.N)
			}
		})
	}
}

type countIO struct{ n int }

func (c *countIO) EmitChunk(context.Context, string, bool) { c.n++ }
func (c *countIO) RequestInput(context.Context, string) (string, error) {
	return "", nil
}
