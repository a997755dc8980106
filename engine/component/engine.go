// Package component is mur-go's WebAssembly component model engine: it
// compiles component binaries, links their imports against host definitions
// registered under versioned instance names, instantiates them into isolated
// stores on wazero, and calls their exports through the canonical ABI.
//
// The engine knows nothing about Murmur. See RATIONALE.md for the design.
package component

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"

	"github.com/mur-go/mur/engine/component/internal/ast"
	"github.com/mur-go/mur/engine/component/internal/binary"
	"github.com/mur-go/mur/engine/component/internal/coremod"
	"github.com/mur-go/mur/engine/component/internal/memory"
	"github.com/mur-go/mur/engine/component/internal/plan"
	"github.com/mur-go/mur/engine/component/internal/storelife"
	"github.com/mur-go/mur/engine/component/internal/validate"
	"github.com/mur-go/mur/engine/diskmemo"
	"github.com/mur-go/mur/engine/wit"
)

// Config configures an Engine.
type Config struct {
	// CacheDir holds compiled core modules across processes. Empty means
	// the user cache dir (os.UserCacheDir()/mur/wasm).
	CacheDir string
	// DisableCache turns the on-disk compilation cache off.
	DisableCache bool
	// CompilationWorkers is the number of goroutines compiling one module;
	// 0 means runtime.GOMAXPROCS(0).
	CompilationWorkers int
	// IdleStores is how many closed stores the engine keeps for reuse, at
	// least (a few by default). A process that makes many calls at once
	// (mur worker's concurrent sessions) raises it, so each call finds an
	// idle store of its component instead of instantiating one.
	IdleStores int
}

// Engine compiles components and instantiates them into stores. It is safe
// for concurrent use; so are the Components it compiles.
type Engine struct {
	rt      wazero.Runtime
	workers int
	// pool keeps closed stores' memory mappings for the next stores;
	// stores keeps closed restored stores' instances (store_reuse.go).
	pool   *memory.Pool
	stores *storelife.Pool
	// bg clears released mappings and prepares restored stores, off the
	// calls' path (background.go).
	bg background
	// modConfig configures every module instance (modconfig.go).
	modConfig wazero.ModuleConfig
	// memo keeps rewritten core modules beside the compilation cache, or
	// is nil without one (plan.Memo).
	memo plan.Memo
	// cacheDir is the compilation cache's directory, "" without one.
	cacheDir string
	// memos are the embedder's memos beside the cache (Memo), by name.
	memosMu sync.Mutex
	memos   map[string]*diskmemo.Memo
	// rewrites says whether the core modules get the interrupt checks
	// rewritten in, or the compiler emits them.
	rewrites plan.Rewrites
}

// CacheDir is where an engine configured with dir keeps compiled code
// across processes: dir, or os.UserCacheDir()/mur/wasm when dir is empty.
// The runtime runs what it finds there, so it is among what no guest may
// reach.
func CacheDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("locating the compilation cache (set a cache dir or disable the cache): %w", err)
	}
	return filepath.Join(base, "mur", "wasm"), nil
}

// memoDir is the compilation cache's subdirectory of rewritten core
// modules (plan.Memo).
const memoDir = "mur-rewrites"

// NewEngine creates an engine backed by one wazero runtime. A cache
// directory must be the user's own (or root's) and writable by no one
// else, or NewEngine refuses it: the engine runs the code it finds there.
func NewEngine(ctx context.Context, cfg Config) (*Engine, error) {
	return newEngine(ctx, cfg, coremod.FuelRefill)
}

// newEngine is NewEngine with guest loops yielding every yieldEvery
// iterations where the compiler counts them (tests make them yield far
// more often).
func newEngine(ctx context.Context, cfg Config, yieldEvery uint32) (*Engine, error) {
	// Deadlines and cancellation interrupt guests through a counter
	// checked in every loop (see RATIONALE.md), not WithCloseOnContextDone,
	// whose check costs a trip out of the compiled code per loop
	// iteration. Where wazero's compiler can, it checks the counter itself
	// (loopYield); elsewhere coremod rewrites the check into the modules.
	features := api.CoreFeaturesV2 | experimental.CoreFeaturesThreads | experimental.CoreFeaturesExceptionHandling
	rc := wazero.NewRuntimeConfigCompiler().WithCoreFeatures(features)
	rewrites := plan.Rewrites{CompiledInterrupts: wazero.LoopYieldSupported(features)}
	if rewrites.CompiledInterrupts {
		ctx = experimental.WithLoopYield(ctx, experimental.LoopYield{Every: yieldEvery, Yield: loopYield})
	}
	var memo plan.Memo
	var cacheDir string
	if !cfg.DisableCache {
		dir, err := CacheDir(cfg.CacheDir)
		if err != nil {
			return nil, err
		}
		cache, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, fmt.Errorf("opening compilation cache %s: %w", dir, err)
		}
		rc = rc.WithCompilationCache(cache)
		m, err := diskmemo.Open(filepath.Join(dir, memoDir))
		if err != nil {
			return nil, fmt.Errorf("opening compilation cache %s: %w", dir, err)
		}
		memo, cacheDir = mappedMemo{m}, dir
	}
	workers := cfg.CompilationWorkers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	e := &Engine{rt: wazero.NewRuntimeWithConfig(ctx, rc), workers: workers, modConfig: newModuleConfig(), memo: memo, cacheDir: cacheDir, rewrites: rewrites}
	e.pool = memory.NewPool(e.bg.kick)
	if err := e.pool.TrackPages(); err != nil {
		slog.DebugContext(ctx, "component: every reset of a reused store copies its whole memory", "reason", err.Error())
	}
	e.stores = storelife.NewPool()
	e.stores.SetIdleBound(cfg.IdleStores)
	e.bg.step = e.backgroundStep
	return e, nil
}

// CacheDir is the directory of the engine's compilation cache, checked
// to be the user's own; "" when it has none. An embedder may keep what
// it derives from compiled components beside it.
func (e *Engine) CacheDir() string { return e.cacheDir }

// Memo is the memo named name (a subdirectory of the cache directory),
// opened once and kept by the engine for an embedder's values (the
// runtime's inflated payloads): the values it maps (diskmemo.Memo.Map)
// are then mapped once per engine, however many components the embedder
// compiles from them. It fails for an engine without a cache, or when
// the directory may not be believed.
func (e *Engine) Memo(name string) (*diskmemo.Memo, error) {
	if e.cacheDir == "" {
		return nil, errors.New("the engine has no compilation cache")
	}
	if name == "" || name == "." || name == ".." || name == memoDir || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Errorf("%q names no memo of its own beside the compilation cache", name)
	}
	e.memosMu.Lock()
	defer e.memosMu.Unlock()
	if m, ok := e.memos[name]; ok {
		return m, nil
	}
	m, err := diskmemo.Open(filepath.Join(e.cacheDir, name))
	if err != nil {
		return nil, err
	}
	if e.memos == nil {
		e.memos = map[string]*diskmemo.Memo{}
	}
	e.memos[name] = m
	return m, nil
}

// backgroundStep is one piece of the worker's work: mappings are cleared
// first, since a store being prepared takes one.
func (e *Engine) backgroundStep() bool {
	return e.pool.ClearNext() || e.stores.PrepareNext()
}

// Close releases everything the engine compiled or instantiated.
func (e *Engine) Close(ctx context.Context) error {
	// The worker first: it may be instantiating on the runtime.
	e.bg.close()
	err := e.rt.Close(ctx)
	// After the runtime: closing its modules frees their memories, which
	// would otherwise wait in the pool.
	e.stores.Drain(ctx, true)
	e.pool.Close()
	return err
}

// ReleaseIdle gives back to the OS what the engine keeps only to make the
// next stores cheaper (closed and prepared stores' instances and the
// memory images they are reset to, released memory mappings, cleared or
// not), for an embedder that has gone idle. Stores made afterwards work
// as before, just without the head start.
func (e *Engine) ReleaseIdle(ctx context.Context) {
	// Stores first: closing them releases their mappings into the pool.
	e.stores.Drain(ctx, false)
	e.pool.Drain(false)
}

// Component is a compiled component, ready to instantiate many times.
type Component struct {
	engine *Engine
	plan   *plan.Plan
	host   wazero.CompiledModule

	// ast is kept when the root imports core modules: the plan above is
	// then a check-only one, and each set of modules the host supplies
	// elaborates into a component of its own (hostmodules.go).
	tree *ast.Component
	// snaps are the snapshots, per configuration (preinit.go), under a
	// lock of their own.
	snaps storelife.Snapshots[snapKey]

	mu sync.Mutex
	// withModules caches those components by the modules supplied.
	withModules map[string]*Component
	// forms are the compiled core modules, per table-element cap (see
	// modules); uncappedUsed says a store without a cap took form 0.
	forms        map[uint32][]wazero.CompiledModule
	uncappedUsed bool
}

// Compile decodes, validates and compiles a component binary. Core modules
// are compiled by wazero (through the compilation cache).
func (e *Engine) Compile(ctx context.Context, wasm []byte) (*Component, error) {
	if isCoreModule(wasm) {
		return nil, errors.New("this is a core wasm module, not a component; wrap it with a component tool (e.g. jco new) first")
	}
	ast, err := binary.DecodeComponent(wasm)
	if err != nil {
		return nil, err
	}
	mods, err := validate.Structure(ast)
	if err != nil {
		return nil, public(err)
	}
	p, err := plan.ElaborateWith(ast, nil, e.memo, e.rewrites)
	if err != nil {
		return nil, public(err)
	}
	cctx := experimental.WithCompilationWorkers(ctx, e.workers)
	if plan.ImportsModules(ast) {
		// The plan is check-only until the host supplies the modules; the
		// embedded modules are still validated now.
		if err := plan.CompileUnused(cctx, e.rt, mods, plan.New()); err != nil {
			return nil, public(err)
		}
		return &Component{engine: e, plan: p, tree: ast, withModules: map[string]*Component{}}, nil
	}
	if err := p.CompileModules(cctx, e.rt); err != nil {
		return nil, err
	}
	if err := p.ValidateCompiled(cctx, e.rt, mods); err != nil {
		p.CloseModules(ctx)
		return nil, public(err)
	}
	host, err := compileHostModule(cctx, e.rt, p)
	if err != nil {
		return nil, err
	}
	return compiled(e, p, host), nil
}

// World describes the component's imports and exports as WIT; a
// Component that Compile did not make has neither.
func (c *Component) World() *wit.World {
	if c.plan == nil {
		return &wit.World{}
	}
	return c.plan.World()
}

func isCoreModule(b []byte) bool {
	return len(b) >= 8 && string(b[:4]) == "\x00asm" && b[4] == 1 && b[5] == 0 && b[6] == 0 && b[7] == 0
}

// mappedMemo is the engine's plan.Memo: rewritten modules are taken
// where they are in their entry's file (diskmemo.Memo.Map), so the
// modules compiled from them refer into pages every process running
// them shares instead of reading, copying and decoding a private copy.
type mappedMemo struct{ *diskmemo.Memo }

func (m mappedMemo) Get(key [32]byte) ([]byte, bool) { return m.Map(key) }
