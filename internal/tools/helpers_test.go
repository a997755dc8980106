package tools_test

import (
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/host"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// testEnv is the shared engine and compiled guests plus one tool linker,
// made on first use. The linker is package host's, as in a real run, so
// these tests import it from outside package tools.
type testEnv struct {
	testguest.Guests
	once   sync.Once
	err    error
	linker *component.Linker
}

var shared testEnv

func env(t testing.TB) *testEnv {
	t.Helper()
	shared.once.Do(func() { shared.linker, shared.err = host.NewToolLinker() })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return &shared
}

// wasmTool builds a WasmTool for guest (compiled once per test binary)
// under name with limits.
func (e *testEnv) wasmTool(t testing.TB, name, guest string, limits component.Limits) *tools.WasmTool {
	t.Helper()
	tool, err := tools.NewWasmTool(tools.WasmToolConfig{Name: name, Component: e.Compile(t, guest), Linker: e.linker, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}
