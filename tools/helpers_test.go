package tools_test

import (
	"context"
	"sync"
	"testing"

	"github.com/mur-go/mur/component"
	"github.com/mur-go/mur/host"
	"github.com/mur-go/mur/internal/testguest"
	"github.com/mur-go/mur/tools"
)

// testEnv shares one engine, one tool linker and the compiled guests
// between tests: compiling is the slow part. The linker is package host's,
// as in a real run, so these tests import it from outside package tools.
type testEnv struct {
	once     sync.Once
	err      error
	engine   *component.Engine
	linker   *component.Linker
	mu       sync.Mutex
	compiled map[string]*component.Component
}

var shared testEnv

func env(t testing.TB) *testEnv {
	t.Helper()
	shared.once.Do(func() {
		shared.compiled = map[string]*component.Component{}
		dir, err := testguest.CacheDir()
		if err != nil {
			shared.err = err
			return
		}
		if shared.engine, shared.err = component.NewEngine(context.Background(), component.Config{CacheDir: dir}); shared.err != nil {
			return
		}
		shared.linker, shared.err = host.NewToolLinker()
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return &shared
}

// wasmTool builds a WasmTool for guest (compiled once per test binary)
// under name with limits.
func (e *testEnv) wasmTool(t testing.TB, name, guest string, limits component.Limits) *tools.WasmTool {
	t.Helper()
	e.mu.Lock()
	c, ok := e.compiled[guest]
	if !ok {
		var err error
		if c, err = e.engine.Compile(context.Background(), testguest.Bytes(t, guest)); err != nil {
			e.mu.Unlock()
			t.Fatalf("compile %s: %v", guest, err)
		}
		e.compiled[guest] = c
	}
	e.mu.Unlock()
	tool, err := tools.NewWasmTool(tools.WasmToolConfig{Name: name, Component: c, Linker: e.linker, Limits: limits})
	if err != nil {
		t.Fatal(err)
	}
	return tool
}
