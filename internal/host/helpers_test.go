package host

import (
	"context"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// testEnv is the shared engine and compiled guests plus one tool linker,
// made on first use.
type testEnv struct {
	testguest.Guests
	once   sync.Once
	err    error
	linker *component.Linker
}

var shared testEnv

func env(t testing.TB) *testEnv {
	t.Helper()
	shared.once.Do(func() { shared.linker, shared.err = NewToolLinker() })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return &shared
}

// wasmTool builds a WasmTool for guest under name with limits.
func (e *testEnv) wasmTool(t testing.TB, name, guest string, limits component.Limits) *tools.WasmTool {
	t.Helper()
	tool, err := tools.NewWasmTool(tools.WasmToolConfig{Name: name, Component: e.Compile(t, guest), Linker: e.linker, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// probe instantiates the capsule-probe guest with c as its host state and
// returns a caller for its test:probe/api functions.
func (e *testEnv) probe(t testing.TB, c *Capsule) func(fn string, args ...any) any {
	t.Helper()
	l := component.NewLinker()
	if err := RegisterCapsule(l, func(s *component.Store) *Capsule { return s.Data.(*Capsule) }); err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(context.Background(), e.Compile(t, "capsule-probe"), &component.Store{Data: c})
	if err != nil {
		t.Fatalf("instantiate capsule-probe: %v", err)
	}
	t.Cleanup(func() { inst.Close(context.Background()) })
	return func(fn string, args ...any) any {
		t.Helper()
		f, err := inst.Func("test:probe/api#" + fn)
		if err != nil {
			t.Fatal(err)
		}
		v, err := f.Call(context.Background(), args...)
		if err != nil {
			t.Fatalf("probe %s: %v", fn, err)
		}
		return v
	}
}
