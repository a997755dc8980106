package host

import (
	"context"
	"slices"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/tools"
)

// Invoke is murmur:tool-registry/invoke: the allowlist is checked before
// anything else, so an undeclared tool never runs, not even a lookup's
// side effects (wit.md §5.2). The tool gets no A2A wiring on this path:
// chunks are dropped and request-input traps inside the tool.
//
// Murmur's invoke dispatches WASM tools only; mur-go dispatches whatever
// staging put in Tools (WASM, native, skill), so a script capsule can call
// every kind of tool its manifest declares.
func (c *Capsule) Invoke(ctx context.Context, name string, in tools.ToolInput) (tools.ToolResult, error) {
	if !slices.Contains(c.Allowlist, name) {
		return tools.ToolResult{}, tools.ErrNotDeclared(name)
	}
	if c.Tools == nil {
		return tools.ToolResult{}, tools.ErrNotAvailable(name)
	}
	t, ok := c.Tools.Lookup(name)
	if !ok {
		return tools.ToolResult{}, tools.ErrNotAvailable(name)
	}
	return t.Invoke(tools.WithTaskIO(ctx, nil), in)
}

func registerInvoke(l *component.Linker, t *witTypes, get func(*component.Store) *Capsule) error {
	return l.Define(InstanceInvoke, "invoke", t.invoke,
		func(ctx context.Context, s *component.Store, name string, in tools.ToolInput) (wit.ResultValue, error) {
			c := get(s)
			if c == nil {
				return wit.ResultValue{}, errNoCapsule
			}
			r, err := c.Invoke(ctx, name, in)
			if err != nil {
				return errResult(err), nil
			}
			// tool-registry uses murmur:tool@0.1.0's tool-result: a 0.2.0
			// tool's attachments do not reach the capsule.
			return wit.Ok(r.Value(tools.ToolRun010)), nil
		})
}
