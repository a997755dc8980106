package capsule

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/policy"
)

// CallOptions say what one Call gives the component. The zero value
// grants nothing: no directories, no environment, no network, an empty
// stdin, output discarded, and no limit but ctx.
type CallOptions struct {
	// Args are the function's arguments as JSON: an array with one
	// element per parameter, or an object keyed by parameter name; nil
	// is []. Values map to JSON as in `mur wasm call --help` (records as
	// objects, variants as {"case": payload}, result as {"ok": …} or
	// {"err": …}, option as null or the value).
	Args json.RawMessage
	// Grants are the WASI capabilities of the call's store (package
	// wasip2): preopened directories, environment, arguments, stdin,
	// where stdout and stderr go, the network policy.
	Grants wasip2.Grants
	// AllowNet are Murmur network rules (host, host:port or
	// http[s]://host[:port]) the component's HTTP requests may reach,
	// made into Grants.Net; set one or the other.
	AllowNet []string
	// Limits bound the store: wall-clock deadline per call, linear
	// memory and the host memory one result may take, tables, instances.
	Limits component.Limits
	// Engine, when set, compiles and runs the component and is left
	// open; nil makes one for the call and closes it afterwards.
	Engine *component.Engine
	// CacheDir is the compilation cache of the engine Call makes; "" is
	// the user's. Grant no directory that holds it: the host runs what
	// it finds there.
	CacheDir string
}

// Call instantiates the component in wasm under WASI 0.2 with opts'
// grants, calls its exported function export ("instance#func", e.g.
// "murmur:tool/run@0.2.0#run", or a root-level function's name) with
// opts.Args, and returns the result as JSON (null when the function
// returns nothing), as `mur wasm call` does. The instance lives for this
// one call. A guest that calls wasi:cli/exit ends the call with a
// *wasip2.ExitError; a trap, a limit or a deadline with the engine's
// error (package component).
func Call(ctx context.Context, wasm []byte, export string, opts CallOptions) (json.RawMessage, error) {
	g := opts.Grants
	if len(opts.AllowNet) > 0 {
		if g.Net != nil {
			return nil, fmt.Errorf("CallOptions sets both Grants.Net and AllowNet; set one")
		}
		rules, err := policy.ParseNetRules(opts.AllowNet)
		if err != nil {
			return nil, coded(err)
		}
		g.Net = rules
	}
	engine := opts.Engine
	if engine == nil {
		var err error
		if engine, err = component.NewEngine(ctx, component.Config{CacheDir: opts.CacheDir}); err != nil {
			return nil, fmt.Errorf("starting the engine: %w", err)
		}
		defer closeEngine(ctx, engine, g.Log)
	}
	c, err := engine.Compile(ctx, wasm)
	if err != nil {
		return nil, fmt.Errorf("compiling the component: %w", err)
	}
	wasi, err := wasip2.NewCtx(g)
	if err != nil {
		return nil, fmt.Errorf("granting capabilities: %w", err)
	}
	defer wasi.Close()
	linker := component.NewLinker()
	if err := wasip2.Register(linker, func(*component.Store) *wasip2.Ctx { return wasi }); err != nil {
		return nil, err
	}
	inst, err := linker.Instantiate(ctx, c, &component.Store{Limits: opts.Limits})
	if err != nil {
		return nil, fmt.Errorf("instantiating the component: %w", err)
	}
	defer func() {
		if err := inst.Close(context.WithoutCancel(ctx)); err != nil {
			logger(g.Log).Warn("closing the instance", "err", err)
		}
	}()
	fn, err := inst.Func(export)
	if err != nil {
		return nil, err
	}
	args := opts.Args
	if args == nil {
		args = json.RawMessage("[]")
	}
	typ := fn.Type()
	vals, err := wit.ArgsFromJSON(typ.Params, args)
	if err != nil {
		return nil, fmt.Errorf("arguments for %s: %w", export, err)
	}
	result, err := fn.Call(ctx, vals...)
	if err != nil {
		return nil, err
	}
	out, err := wit.ToJSON(typ.Result, result)
	if err != nil {
		return nil, fmt.Errorf("the result of %s: %w", export, err)
	}
	return out, nil
}

// closeEngine releases an engine Call made, even when ctx is done.
func closeEngine(ctx context.Context, e *component.Engine, log *slog.Logger) {
	if err := e.Close(context.WithoutCancel(ctx)); err != nil {
		logger(log).Warn("closing the engine", "err", err)
	}
}
