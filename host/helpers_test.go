package host

import (
	"context"
	"sync"
	"testing"

	"github.com/mur-go/mur/component"
	"github.com/mur-go/mur/internal/testguest"
	"github.com/mur-go/mur/tools"
)

// testEnv shares one engine, one tool linker and the compiled guests
// between tests: compiling is the slow part.
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
		shared.linker, shared.err = NewToolLinker()
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return &shared
}

// compile compiles a test guest from guests/out, once per test binary.
func (e *testEnv) compile(t testing.TB, name string) *component.Component {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.compiled[name]; ok {
		return c
	}
	c, err := e.engine.Compile(context.Background(), testguest.Bytes(t, name))
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	e.compiled[name] = c
	return c
}

// wasmTool builds a WasmTool for guest under name with limits.
func (e *testEnv) wasmTool(t testing.TB, name, guest string, limits component.Limits) *tools.WasmTool {
	t.Helper()
	tool, err := tools.NewWasmTool(tools.WasmToolConfig{Name: name, Component: e.compile(t, guest), Linker: e.linker, Limits: limits})
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
	inst, err := l.Instantiate(context.Background(), e.compile(t, "capsule-probe"), &component.Store{Data: c})
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
