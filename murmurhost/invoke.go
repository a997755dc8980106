package murmurhost

import (
	"context"
	"slices"
	"sync"

	"github.com/mur-go/mur/component"
	"github.com/mur-go/mur/wit"
)

// Tool is one callable tool: a WASM component, a native binary or a skill.
// An error is a failed call (the capsule receives its text as
// result::err); a tool that ran and reported failure returns a ToolResult
// with status failed or error instead.
type Tool interface {
	Invoke(ctx context.Context, in ToolInput) (ToolResult, error)
}

// Tools finds the tools staged for a session by name.
type Tools interface {
	Lookup(name string) (Tool, bool)
}

// ToolSet is a Tools the staging layer fills, safe for concurrent use so a
// runtime pull can add to it while other calls look tools up.
type ToolSet struct {
	mu sync.RWMutex
	m  map[string]Tool
}

// NewToolSet returns an empty set.
func NewToolSet() *ToolSet { return &ToolSet{m: map[string]Tool{}} }

// Add registers t under name, replacing any earlier tool of that name.
func (s *ToolSet) Add(name string, t Tool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[name] = t
}

// Lookup implements Tools.
func (s *ToolSet) Lookup(name string) (Tool, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.m[name]
	return t, ok
}

// Invoke is murmur:tool-registry/invoke: the allowlist is checked before
// anything else, so an undeclared tool never runs, not even a lookup's
// side effects (wit.md §5.2). The tool gets no A2A wiring on this path:
// chunks are dropped and request-input traps inside the tool.
//
// Murmur's invoke dispatches WASM tools only; mur-go dispatches whatever
// staging put in Tools (WASM, native, skill), so a script capsule can call
// every kind of tool its manifest declares.
func (c *Capsule) Invoke(ctx context.Context, name string, in ToolInput) (ToolResult, error) {
	if !slices.Contains(c.Allowlist, name) {
		return ToolResult{}, ErrNotDeclared(name)
	}
	if c.Tools == nil {
		return ToolResult{}, ErrNotAvailable(name)
	}
	t, ok := c.Tools.Lookup(name)
	if !ok {
		return ToolResult{}, ErrNotAvailable(name)
	}
	return t.Invoke(WithTaskIO(ctx, nil), in)
}

func registerInvoke(l *component.Linker, t *witTypes, get func(*component.Store) *Capsule) error {
	return l.Define(InstanceInvoke, "invoke", t.invoke,
		func(ctx context.Context, s *component.Store, name string, in ToolInput) (wit.ResultValue, error) {
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
			return wit.Ok(r.value(ToolRun010)), nil
		})
}
