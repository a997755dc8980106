package cli

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/component"
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
