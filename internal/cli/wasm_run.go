package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
)

// commandInterface is the WASI 0.2 export a command component runs
// through; any 0.2.x minor version is accepted, as the linker's semver
// rules accept it for imports.
const commandInterface = "wasi:cli/run@0.2."

const wasmRunLong = `Run the WASI command component in FILE (one exporting wasi:cli/run, as
"wasm-tools component new" with the preview1 command adapter or
"cargo component build" make), like "wasmtime run": ARGS are its
arguments after FILE itself as argv[0], its stdout and stderr are mur's,
and its exit status becomes mur's.

mur's own flags go before FILE; everything after FILE is the guest's.

Exit status: the guest's wasi:cli/exit status (the preview1 adapter turns
every non-zero code into 1), 1 when run returns an error or the guest
traps or hits a limit, 2 when the command line is wrong, 130/143 when
SIGINT/SIGTERM stops it.` + grantsHelp

// wasmRunOptions are the flags of "mur wasm run".
type wasmRunOptions struct {
	limits limitFlags
	grants grantFlags
}

func newWasmRunCommand(a *app) *cobra.Command {
	var opts wasmRunOptions
	cmd := &cobra.Command{
		Use:   "run [flags] FILE [ARGS...]",
		Short: "Run a WASI command component, passing ARGS and its output through",
		Long:  wasmRunLong,
		Example: `  mur wasm run guests/out/cmdrun-go.wasm echo hello
  mur wasm run --dir .::/work --env LANG=C app.wasm /work/input.txt`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef(cmd, "missing FILE")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.runCommand(cmd, args[0], args[1:], opts)
		},
	}
	f := cmd.Flags()
	// Flags after FILE are the guest's, not mur's.
	f.SetInterspersed(false)
	opts.limits.register(f)
	opts.grants.register(f)
	return cmd
}

func (a *app) runCommand(cmd *cobra.Command, file string, args []string, opts wasmRunOptions) (err error) {
	ctx := cmd.Context()
	defer func() {
		// Interrupted, the guest fails in whatever it was doing; mur then
		// exits as a process that signal stopped.
		if err != nil && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = &cancelError{err: fmt.Errorf("%s: run cancelled (%v)", file, context.Cause(ctx)), status: cancelStatus(ctx)}
		}
	}()
	limits, err := opts.limits.limits(cmd)
	if err != nil {
		return err
	}
	grants, err := opts.grants.grants(cmd, a.stdout, a.stderr)
	if err != nil {
		return err
	}
	grants.Args = append([]string{file}, args...)

	engine, c, err := a.compile(ctx, file)
	if err != nil {
		return err
	}
	defer a.closeEngine(ctx, engine)
	export, err := commandExport(c.World())
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	inst, closeInst, err := a.instantiateWASI(ctx, file, c, grants, limits)
	if err != nil {
		return guestOutcome(err)
	}
	defer closeInst()
	fn, err := inst.Func(export)
	if err != nil {
		return err
	}
	result, err := fn.Call(ctx)
	if err != nil {
		return guestOutcome(withHint(err))
	}
	if r, ok := result.(wit.ResultValue); ok && r.Err {
		return fmt.Errorf("%s: %s returned an error", file, export)
	}
	return nil
}

// guestOutcome turns a guest's wasi:cli/exit into mur's exit status and
// leaves every other failure as it is.
func guestOutcome(err error) error {
	var exit *wasip2.ExitError
	if errors.As(err, &exit) {
		return &guestExitError{code: exit.Code}
	}
	return err
}

// commandExport finds "wasi:cli/run@0.2.x#run", the entry point of a
// command component.
func commandExport(w *wit.World) (string, error) {
	var exports []string
	if w != nil {
		for _, e := range w.Exports {
			exports = append(exports, e.Name)
			if e.Kind != wit.ExternInstance || !strings.HasPrefix(e.Name, commandInterface) {
				continue
			}
			for _, f := range e.Exports {
				if f.Kind == wit.ExternFunc && f.Name == "run" {
					return e.Name + "#run", nil
				}
			}
		}
	}
	msg := "not a WASI command: it exports no wasi:cli/run@0.2 interface"
	if len(exports) > 0 {
		msg += " (it exports " + strings.Join(exports, ", ") + "); call one of its functions with 'mur wasm call'"
	}
	return "", errors.New(msg)
}
