// Package cli is the mur command line: one cobra command per file, built
// fresh for every invocation so that nothing is shared between runs.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/diag"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // the guest or the runtime failed
	exitUsage   = 2 // the command line is wrong
)

// Execute runs mur with the process's arguments and returns its exit code.
// SIGINT and SIGTERM cancel the running command, and the exit status is
// then 130 or 143; a second signal, or a command still running a few
// seconds after the first, ends the process at once with that status.
func Execute() int {
	ctx, in := watchInterrupts(context.Background(), interruptGrace, os.Stderr, os.Exit)
	defer in.stop()
	code := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if status := in.exitStatus(); status != 0 {
		return status
	}
	return code
}

// Run executes mur with args and returns its exit code: 0 on success, 1
// when a guest or the runtime fails, 2 for usage errors. Errors go to
// stderr prefixed "mur: ", each coded error in Murmur's form
// (diag.Render): this is where they are rendered.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return report(stderr, execute(ctx, args, stdout, stderr))
}

func execute(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	root := newRootCommand(newApp(stdout, stderr))
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	return root.ExecuteContext(ctx)
}

// report prints err and returns the exit code for it.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var reported *reportedError
	if errors.As(err, &reported) {
		return exitFailure
	}
	var cancelled *cancelError
	if errors.As(err, &cancelled) {
		if !cancelled.quiet {
			fmt.Fprintf(stderr, "mur: %s\n", diag.Render(err))
		}
		return cancelled.exitStatus()
	}
	var exit *guestExitError
	if errors.As(err, &exit) {
		if exit.code != 0 {
			fmt.Fprintf(stderr, "mur: %s\n", diag.Render(err))
		}
		return exit.exitStatus()
	}
	fmt.Fprintf(stderr, "mur: %s\n", diag.Render(err))
	var usage *usageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", usage.cmd.CommandPath())
		return exitUsage
	}
	return exitFailure
}

// app is what the commands of one invocation share.
type app struct {
	stdout, stderr io.Writer
	logLevel       slog.LevelVar
	log            *slog.Logger
}

func newApp(stdout, stderr io.Writer) *app {
	a := &app{stdout: stdout, stderr: stderr}
	a.logLevel.Set(slog.LevelWarn)
	a.log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: &a.logLevel}))
	return a
}

const rootLong = `mur runs Murmur capsules: packaged AI agents whose tools, drivers and
hooks are WebAssembly components. This is mur-go, a pure-Go runtime (no
cgo) that runs components on wazero with its own component-model host and
a WASI 0.2 sandbox.

What it does today:
  run capsules     "mur run" runs a script capsule (its own component,
                   calling the tools its murmur.yaml declares) in a fresh
                   session under the manifest's grants and limits; an
                   agent capsule (inference:) is served over A2A and runs
                   its model turn by turn (a WASM driver, or a claude or
                   codex CLI) with its tools, shell commands and hooks.
  package          "mur build" packs an artifact directory into a .mur.zip,
                   "mur publish" puts it in the local (~/.murmur/artifacts)
                   or a remote registry, "mur registry serve" hosts one.
  install          "mur install" fetches a capsule's artifacts into its
                   project store and pins them in murmur.lock; "mur list"
                   shows what is installed.
  search           "mur search QUERY" finds artifacts by name, description
                   or tag in Murmur's public index, an index file or URL,
                   or the global store (--registry local).
  sessions         "mur sessions list|prune" shows and removes the session
                   directories runs keep under <manifest dir>/workdir/.
  traces           "mur trace show|steps|diff|report" read what agent
                   sessions did from their trace.jsonl: a summary, the
                   turns one by one, two sessions compared, statistics
                   over many; "mur trace transcript" prints what the
                   model and tools said, "mur trace html" draws the run
                   as one self-contained page.
  evaluate         "mur eval run" runs each case of a dataset against an
                   agent capsule, a session per case, and scores it with
                   the manifest's scorers; "mur eval show" and "mur eval
                   diff" summarise and compare the scores.
  talk to agents   "mur send TARGET TEXT" sends a message to an A2A agent
                   and streams its answer; "mur watch TARGET" follows a
                   served capsule's turns, tool calls and answers; "mur ps"
                   lists the capsules being served and their tasks, "mur
                   stop" and "mur cancel" stop one or cancel one of its
                   tasks. TARGET is a URL, @N (the N-th newest capsule), a
                   session id or its last characters, or a capsule name.
  serve tools      "mur mcp serve" offers a capsule's tools to an MCP
                   client (Claude Code, Cursor) over stdio or HTTP, each
                   call under the capsule's grants and in its trace.
  components       "mur wasm inspect|call|run" work on one component:
                   show its WIT, call an export with JSON arguments, or run
                   a WASI command like "wasmtime run".

Examples:
  examples/hello/publish.sh --install && (cd examples/hello && mur run -v)
  mur build ./my-tool && mur publish my-tool-0.1.0.mur.zip
  mur wasm inspect tool.wasm
  mur wasm run app.wasm --help

Shell completion: "mur completion bash|zsh|fish|powershell" prints a
script; "mur completion bash --help" says where to put it.

Environment:
  MUR_CACHE_DIR  directory for compiled code, rewritten modules and
                 inflated payloads, reused across runs; it must be your
                 own (or root's) and writable by no one else, since mur
                 runs what it holds (default: mur/wasm in the user cache
                 directory)

Exit status: 0 on success, 1 when a guest or the runtime fails, 2 when
the command line is wrong, 130/143 when a run is stopped by SIGINT/SIGTERM.`

func newRootCommand(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:           "mur",
		Short:         "Run Murmur capsules and their WebAssembly components",
		Long:          rootLong,
		Args:          cobra.ArbitraryArgs,
		RunE:          runGroup,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SuggestionsMinimumDistance = 2
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return &usageError{cmd, err}
	})
	root.PersistentFlags().Var(levelFlag{&a.logLevel}, "log-level",
		"diagnostics written to stderr: debug, info, warn or error")
	root.AddCommand(newVersionCommand(a), newWasmCommand(a))
	root.AddCommand(newBuildCommand(a), newPublishCommand(a), newInstallCommand(a), newListCommand(a), newRegistryCommand(a),
		newSearchCommand(a))
	root.AddCommand(newRunCommand(a), newSessionsCommand(a), newDoctorCommand(a), newSendCommand(a), newWatchCommand(a),
		newPsCommand(a), newStopCommand(a), newCancelTaskCommand(a), newTraceCommand(a), newEvalCommand(a))
	root.AddCommand(newMCPCommand(a))
	root.AddCommand(newGatewayCommand(a), newWorkerCommand(a))
	return root
}

// runGroup runs a command that only groups subcommands: without arguments
// it shows help, otherwise the argument is an unknown subcommand.
func runGroup(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return cmd.Help()
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return &usageError{cmd, errors.New(msg)}
}

// reportedError is a failure the command has already reported in its own
// output; mur exits 1 without printing it again.
type reportedError struct{ err error }

func (e *reportedError) Error() string { return e.err.Error() }
func (e *reportedError) Unwrap() error { return e.err }

// usageError is an error the user fixes by changing the command line.
type usageError struct {
	cmd *cobra.Command
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(cmd *cobra.Command, format string, args ...any) error {
	return &usageError{cmd, fmt.Errorf(format, args...)}
}

// exactArgs accepts exactly the named positional arguments.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < len(names):
			return usagef(cmd, "missing %s", strings.Join(names[len(args):], " and "))
		case len(args) > len(names):
			return usagef(cmd, "unexpected argument %q", args[len(names)])
		}
		return nil
	}
}

// levelFlag is a slog level as a command-line flag.
type levelFlag struct{ v *slog.LevelVar }

func (f levelFlag) String() string { return strings.ToLower(f.v.Level().String()) }
func (f levelFlag) Type() string   { return "level" }

func (f levelFlag) Set(s string) error {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return fmt.Errorf("want debug, info, warn or error, got %q", s)
	}
	f.v.Set(l)
	return nil
}
