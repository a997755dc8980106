package testguest

import (
	"context"
	"sync"
	"testing"

	"github.com/mur-go/mur/engine/component"
)

// Guests is a test binary's one engine and the test guests it compiled,
// through CacheDir: compiling is the slow part of most tests. The zero
// value is ready; a package declares one and shares it between its tests.
type Guests struct {
	once     sync.Once
	err      error
	engine   *component.Engine
	mu       sync.Mutex
	compiled map[string]*component.Component
}

// Engine returns the shared engine, made on first use.
func (g *Guests) Engine(t testing.TB) *component.Engine {
	t.Helper()
	g.once.Do(func() {
		dir, err := CacheDir()
		if err != nil {
			g.err = err
			return
		}
		g.engine, g.err = component.NewEngine(context.Background(), component.Config{CacheDir: dir})
	})
	if g.err != nil {
		t.Fatal(g.err)
	}
	return g.engine
}

// Compile compiles the guest name from guests/out, once per test binary.
func (g *Guests) Compile(t testing.TB, name string) *component.Component {
	t.Helper()
	e := g.Engine(t)
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.compiled[name]; ok {
		return c
	}
	c, err := e.Compile(context.Background(), Bytes(t, name))
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	if g.compiled == nil {
		g.compiled = map[string]*component.Component{}
	}
	g.compiled[name] = c
	return c
}

// CompileIn returns a new engine on the compilation cache dir that has
// compiled wasm: the first call for a dir compiles cold and fills the
// cache, a later one loads from it as a new process would. The caller
// closes the engine.
func CompileIn(t testing.TB, dir string, wasm []byte) *component.Engine {
	t.Helper()
	ctx := context.Background()
	e, err := component.NewEngine(ctx, component.Config{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Compile(ctx, wasm); err != nil {
		e.Close(ctx)
		t.Fatal(err)
	}
	return e
}
