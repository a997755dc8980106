package tools

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/mur-go/mur/internal/sandbox"
)

// ShellConfig is what a Shell runs commands with.
type ShellConfig struct {
	// Binaries are capabilities.shell.allow (stage.GuestView.ShellTools):
	// the only names a Shell runs, by string equality.
	Binaries []ShellBinary
	// Workdir is the accessible workdir: every command's cwd, the parent
	// of its synthetic HOME and of logs/ for truncated output.
	Workdir string
	// Env describes the commands' environment (security.md §7); its
	// Workdir is taken from Workdir. It is built afresh for every command,
	// so .capsule-home is created on the first spawn and re-checked on
	// each.
	Env SubprocessEnv
	// Sandbox starts commands under capabilities.resources' rlimits; nil
	// runs them with mur's own limits (the session launcher always sets
	// it).
	Sandbox *sandbox.Trampoline
	// MaxLogBytes caps each stream kept in a full-output log
	// (capabilities.resources.max_file_size_bytes; 0: no cap).
	MaxLogBytes uint64
	// Now stamps log names; nil means time.Now.
	Now func() time.Time
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
}

// ShellBinary is one capabilities.shell.allow entry.
type ShellBinary struct {
	Name string
	// Interpreter is set for bash, sh, zsh, fish, dash and ksh: the
	// command is passed with -c instead of split into arguments.
	Interpreter bool
}

// Shell is the ShellRunner of the agent loop: it runs an allowlisted
// binary as a native subprocess through the same spawn path as native
// tools (trampoline, own process group, scrubbed environment).
type Shell struct{ cfg ShellConfig }

// NewShell returns a Shell for cfg.
func NewShell(cfg ShellConfig) *Shell {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	cfg.Env.Workdir = cfg.Workdir
	return &Shell{cfg: cfg}
}

var _ ShellRunner = (*Shell)(nil)

// RunShell implements ShellRunner (security.md §5, session.md §2.6). Bad
// input and a command that could not be started are error outcomes with
// Ran false; a command that ran is a passed outcome whatever its exit
// code, unless its full output could not be logged (an error outcome
// with Ran set). The only errors are the caller's ctx ending (the
// command's process group is killed and the error wraps ctx.Err()) and a
// sealed root that could not be built (E-RUN-014, session-fatal).
func (s *Shell) RunShell(ctx context.Context, binary, input string) (ShellOutcome, error) {
	command, err := shellCommand(input)
	if err != nil {
		return ShellOutcome{Text: err.Error(), IsError: true, Binary: binary}, nil
	}
	out, err := s.run(ctx, binary, command)
	if ctx.Err() != nil {
		return out, fmt.Errorf("shell command '%s' stopped: %w", binary, context.Cause(ctx))
	}
	if errors.Is(err, sandbox.ErrSealedRoot) {
		return out, err
	}
	if err != nil {
		s.cfg.Log.Info("shell command failed", "binary", binary, "err", err.Error())
		out.IsError, out.Text = true, err.Error()
	}
	return out, nil
}

// run spawns binary with command and collects the outcome; an error is an
// executor failure (nothing ran, or its full output could not be kept).
func (s *Shell) run(ctx context.Context, binary, command string) (ShellOutcome, error) {
	out := ShellOutcome{Binary: binary, Command: command, ExitCode: -1}
	i := slices.IndexFunc(s.cfg.Binaries, func(b ShellBinary) bool { return b.Name == binary })
	if i < 0 {
		return out, fmt.Errorf("binary '%s' is not in capabilities.shell.allow", binary)
	}
	env, err := s.cfg.Env.Build()
	if err != nil {
		return out, err
	}
	exe, canonical, err := lookPath(binary, envValue(env, "PATH"))
	out.Binary = canonical
	if err != nil {
		return out, fmt.Errorf("failed to spawn shell binary '%s': %w; install it or put its directory on PATH in mur's environment", binary, err)
	}
	root, err := os.OpenRoot(s.cfg.Workdir)
	if err != nil {
		return out, fmt.Errorf("opening the workdir %s: %w", s.cfg.Workdir, err)
	}
	defer root.Close()
	var spillMax int64
	if s.cfg.MaxLogBytes > 0 {
		spillMax = int64(max(s.cfg.MaxLogBytes, ShellOutputBytes+1) - ShellOutputBytes)
	}
	stdout, stderr := &shellStream{root: root, spillMax: spillMax}, &shellStream{root: root, spillMax: spillMax}
	defer stdout.close()
	defer stderr.close()

	args := append([]string{binary}, shellArgv(command, s.cfg.Binaries[i].Interpreter)...)
	var cg *sandbox.Cgroup
	if s.cfg.Sandbox != nil {
		cg = s.cfg.Sandbox.Cgroup
	}
	before := cg.Counters()
	start := time.Now()
	sp := subprocess{Process: Process{Path: exe, Args: args, Dir: s.cfg.Workdir, Env: env,
		Stdout: stdout, Stderr: stderr, Sandbox: s.cfg.Sandbox}}
	cmd, err := sp.start(ctx)
	if err != nil {
		var setup *sandbox.SetupError
		switch {
		case errors.Is(err, sandbox.ErrWorkdirCeiling):
			return out, err
		case errors.As(err, &setup):
			return out, enforcementFailed("shell", setup)
		}
		return out, fmt.Errorf("failed to spawn shell binary '%s': %w", binary, err)
	}
	runErr := sp.wait(cmd)
	out.Duration = time.Since(start)
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return out, ctx.Err()
	case runErr != nil && !errors.As(runErr, &exit) && !errors.Is(runErr, exec.ErrWaitDelay):
		return out, fmt.Errorf("shell command '%s' failed to complete: %w", binary, runErr)
	}
	var cpu uint64
	if s.cfg.Sandbox != nil {
		cpu = s.cfg.Sandbox.Limits.CPUSeconds
	}
	out.Ran = true
	out.ExitCode = exitCode(cmd.ProcessState)
	out.ResourceLimit = resourceLimit(cmd.ProcessState, cpu)
	if out.ResourceLimit == "" {
		out.ResourceLimit = cg.Counters().Attribution(before)
	}
	out.Stdout, out.Stderr = stdout.text(), stderr.text()
	out.Truncated = stdout.truncated() || stderr.truncated()
	if out.Truncated {
		if out.LogPath, err = writeShellLog(root, s.cfg.Now(), strings.Join(args, " "), out.ExitCode, stdout, stderr); err != nil {
			return out, err
		}
	}
	out.Text = shellResultText(command, out)
	return out, nil
}

// shellResultText is the tool result the model reads (security.md §5.3).
func shellResultText(command string, o ShellOutcome) string {
	text := fmt.Sprintf("$ %s\nExit code: %d\nStdout:\n%s\nStderr:\n%s", command, o.ExitCode, o.Stdout, o.Stderr)
	if o.Truncated {
		text += "\n\nOutput truncated. Full output written to " + o.LogPath
	}
	return text
}
