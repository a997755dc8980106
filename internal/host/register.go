package host

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/internal/tools"
)

// RegisterCapsule defines the script-capsule imports on l:
// murmur:tool-registry/invoke, murmur:artifact-manager/manage and
// murmur:message/send, all @0.1.0. get returns a store's Capsule; a store
// without one traps on its first call. WASI is registered separately
// (wasip2.Register), with the capsule's own grants.
func RegisterCapsule(l *component.Linker, get func(*component.Store) *Capsule) error {
	if l == nil || get == nil {
		return errors.New("host.RegisterCapsule: nil linker or getter")
	}
	t := newTypes()
	for _, reg := range []func(*component.Linker, *witTypes, func(*component.Store) *Capsule) error{
		registerInvoke, registerManage, registerSend,
	} {
		if err := reg(l, t, get); err != nil {
			return fmt.Errorf("host.RegisterCapsule: %w", err)
		}
	}
	return nil
}

// RegisterTool defines the tool/driver imports on l: murmur:text/chunks and
// murmur:task/task, @0.1.0. get returns a store's TaskIO, nil outside an
// A2A task.
func RegisterTool(l *component.Linker, get func(*component.Store) tools.TaskIO) error {
	if l == nil || get == nil {
		return errors.New("host.RegisterTool: nil linker or getter")
	}
	t := newTypes()
	if err := registerChunks(l, t, get); err != nil {
		return fmt.Errorf("host.RegisterTool: %w", err)
	}
	if err := registerTask(l, t, get); err != nil {
		return fmt.Errorf("host.RegisterTool: %w", err)
	}
	return nil
}

// NewToolLinker returns the linker every WasmTool call instantiates
// against: WASI 0.2 plus RegisterTool, with *tools.ToolStore as store data.
// Build it once per process (a linker caches how each component links) and
// share it between tools.
func NewToolLinker() (*component.Linker, error) {
	l := component.NewLinker()
	if err := wasip2.Register(l, func(s *component.Store) *wasip2.Ctx {
		if ts, ok := s.Data.(*tools.ToolStore); ok {
			return ts.WASI
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := RegisterTool(l, func(s *component.Store) tools.TaskIO {
		if ts, ok := s.Data.(*tools.ToolStore); ok {
			return ts.IO
		}
		return nil
	}); err != nil {
		return nil, err
	}
	return l, nil
}
