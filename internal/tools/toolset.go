package tools

import (
	"context"
	"sync"
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
