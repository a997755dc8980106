package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
)

// cacheDirEnv names the directory for compiled components; empty means the
// engine's default under the user cache directory.
const cacheDirEnv = "MUR_CACHE_DIR"

func newWasmCommand(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "wasm",
		Short: "Inspect, call and run WebAssembly components directly",
		Long: `Work with a single WebAssembly component, outside any capsule: show its
imports and exports as WIT, call one of its exported functions with JSON
arguments, or run a WASI command component like "wasmtime run".`,
		Args:                       cobra.ArbitraryArgs,
		RunE:                       runGroup,
		SuggestionsMinimumDistance: 2,
	}
	cmd.AddCommand(newWasmInspectCommand(a), newWasmCallCommand(a), newWasmRunCommand(a))
	return cmd
}

// compile reads and compiles the component in file. The caller closes the
// returned engine.
func (a *app) compile(ctx context.Context, file string) (*component.Engine, *component.Component, error) {
	wasm, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	engine, err := component.NewEngine(ctx, component.Config{CacheDir: os.Getenv(cacheDirEnv)})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the engine: %w", err)
	}
	start := time.Now()
	c, err := engine.Compile(ctx, wasm)
	if err != nil {
		a.closeEngine(ctx, engine)
		return nil, nil, fmt.Errorf("compiling %s: %w", file, err)
	}
	a.log.Debug("compiled component", "file", file, "bytes", len(wasm), "took", time.Since(start))
	return engine, c, nil
}

// closeEngine releases the engine even when ctx is already cancelled.
func (a *app) closeEngine(ctx context.Context, e *component.Engine) {
	if err := e.Close(context.WithoutCancel(ctx)); err != nil {
		a.log.Warn("closing the engine", "err", err)
	}
}

// instantiateWASI instantiates c with WASI 0.2 under grants and limits, as
// "mur wasm call" and "mur wasm run" do. close releases the instance and
// the WASI state; it is nil when err is not.
func (a *app) instantiateWASI(ctx context.Context, file string, c *component.Component, grants wasip2.Grants, limits component.Limits) (inst *component.Instance, close func(), err error) {
	wasi, err := wasip2.NewCtx(grants)
	if err != nil {
		return nil, nil, fmt.Errorf("granting capabilities: %w", err)
	}
	linker := component.NewLinker()
	if err := wasip2.Register(linker, func(*component.Store) *wasip2.Ctx { return wasi }); err != nil {
		wasi.Close()
		return nil, nil, err
	}
	start := time.Now()
	inst, err = linker.Instantiate(ctx, c, &component.Store{Limits: limits})
	if err != nil {
		wasi.Close()
		return nil, nil, fmt.Errorf("instantiating %s: %w", file, withHint(err))
	}
	a.log.Debug("instantiated component", "file", file, "took", time.Since(start))
	return inst, func() {
		if err := inst.Close(context.WithoutCancel(ctx)); err != nil {
			a.log.Warn("closing the instance", "err", err)
		}
		wasi.Close()
	}, nil
}
