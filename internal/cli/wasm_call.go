package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
	"github.com/mur-go/mur/engine/wit"
)

const wasmCallLong = `Instantiate the component in FILE and call its exported function EXPORT:
"instance#func" for a function of an exported instance (e.g.
murmur:tool/run@0.2.0#run) or the bare name of a root-level function.
"mur wasm inspect FILE" lists them.

--args is a JSON array with one element per parameter, or an object keyed
by parameter name. The result is printed as one line of JSON (null when the
function returns nothing). Values map to JSON as follows:

  bool, string            true/false, "text"
  integers, f32, f64      numbers (u64/s64 exact); NaN and infinities as
                          "NaN", "Infinity", "-Infinity"
  char                    a one-character string
  list, tuple, flags      arrays (list<u8> too; flags as set names)
  record                  object keyed by field name; option fields may be
                          omitted
  enum                    "case"
  variant                 {"case": payload}, payload null if the case has none
  option<T>               null or the value; option<option<T>> writes some
                          as {"some": value}
  result<T, E>            {"ok": value} or {"err": value}
  own, borrow             not supported

Output: stdout carries only the result line, so it can be piped to a JSON
tool; the guest's own stdout and stderr both go to mur's stderr. A guest
that calls wasi:cli/exit ends mur with that status (after exit(0) nothing
is printed); "mur wasm run" runs a command component with its output
passed through instead.

--argv sets the guest's arguments (wasi:cli/environment.get-arguments),
one flag per argument, program name first if the guest expects one; by
default it has none.

The call runs without a deadline or memory limit unless they are given.` + grantsHelp

// callOptions are the flags of "mur wasm call".
type callOptions struct {
	args   string
	argv   []string
	limits limitFlags
	grants grantFlags
}

func newWasmCallCommand(a *app) *cobra.Command {
	var opts callOptions
	cmd := &cobra.Command{
		Use:   "call FILE EXPORT",
		Short: "Call an exported function of a component with JSON arguments",
		Long:  wasmCallLong,
		Example: `  mur wasm call guests/out/driver-canned.wasm 'murmur:tool/run@0.2.0#run' \
    --args '[{"data":"hello","log-path":null}]'`,
		Args: exactArgs("FILE", "EXPORT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.call(cmd, args[0], args[1], opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.args, "args", "", "arguments as a JSON array (or an object keyed by parameter name)")
	f.StringArrayVar(&opts.argv, "argv", nil, "a command-line argument the guest sees (repeatable, in order)")
	opts.limits.register(f)
	opts.grants.register(f)
	return cmd
}

func (a *app) call(cmd *cobra.Command, file, export string, opts callOptions) error {
	ctx := cmd.Context()
	limits, err := opts.limits.limits(cmd)
	if err != nil {
		return err
	}
	// The guest writes to stderr only: stdout is the result line's.
	grants, err := opts.grants.grants(cmd, a.stderr, a.stderr)
	if err != nil {
		return err
	}
	grants.Args = opts.argv
	argsJSON := []byte(opts.args)
	if opts.args == "" {
		argsJSON = []byte("[]")
	} else if !json.Valid(argsJSON) {
		return usagef(cmd, `--args is not valid JSON; pass an array such as '["hello", 3]'`)
	}

	engine, c, err := a.compile(ctx, file)
	if err != nil {
		return err
	}
	defer a.closeEngine(ctx, engine)
	typ, err := findExport(c.World(), export)
	if err != nil {
		return usagef(cmd, "%s: %v", file, err)
	}
	args, err := wit.ArgsFromJSON(typ.Params, argsJSON)
	if err != nil {
		hint := ""
		if opts.args == "" {
			hint = "; pass them with --args"
		}
		return usagef(cmd, "--args for %s%s: %v%s", export, strings.TrimPrefix(wit.FuncString(typ), "func"), err, hint)
	}

	inst, closeInst, err := a.instantiateWASI(ctx, file, c, grants, limits)
	if err != nil {
		return err
	}
	defer closeInst()
	fn, err := inst.Func(export)
	if err != nil {
		return err
	}
	start := time.Now()
	result, err := fn.Call(ctx, args...)
	var exit *wasip2.ExitError
	if errors.As(err, &exit) {
		return &guestExitError{code: exit.Code}
	}
	if err != nil {
		return withHint(err)
	}
	a.log.Debug("call returned", "export", export, "took", time.Since(start))
	out, err := wit.ToJSON(typ.Result, result)
	if err != nil {
		return fmt.Errorf("printing the result of %s: %w", export, err)
	}
	_, err = fmt.Fprintf(a.stdout, "%s\n", out)
	return err
}

// findExport returns the type of export, "instance#func" or a root func.
func findExport(w *wit.World, export string) (*wit.Func, error) {
	var callable []string
	if w != nil {
		for _, e := range w.Exports {
			switch e.Kind {
			case wit.ExternFunc:
				if e.Name == export {
					return e.Func, nil
				}
				callable = append(callable, e.Name)
			case wit.ExternInstance:
				for _, f := range e.Exports {
					if f.Kind != wit.ExternFunc {
						continue
					}
					if e.Name+"#"+f.Name == export {
						return f.Func, nil
					}
					callable = append(callable, e.Name+"#"+f.Name)
				}
			}
		}
	}
	if len(callable) == 0 {
		return nil, fmt.Errorf("no function %q: the component exports no functions", export)
	}
	return nil, fmt.Errorf("no function %q; the component exports:\n  %s", export, strings.Join(callable, "\n  "))
}

// withHint adds what to do next to the limit errors the flags control.
func withHint(err error) error {
	var deadline *component.DeadlineError
	var limit *component.LimitError
	switch {
	case errors.As(err, &deadline):
		return fmt.Errorf("%w (raise --deadline to allow more time)", err)
	case errors.As(err, &limit) && (limit.Limit == component.LimitMemory || limit.Limit == component.LimitLiftedBytes):
		return fmt.Errorf("%w (raise --max-memory to allow more)", err)
	}
	return err
}
