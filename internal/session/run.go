package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/agent/hooks"
	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/resources"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
)

// Result is how a run ended.
type Result struct {
	// Session is the staged session; nil when the run failed before
	// staging created it.
	Session *stage.Staged
	// Status is ok, failed, trapped or cancelled.
	Status Status
	// Step is where a failed run failed ("" when it did not).
	Step Step
}

// Run loads the capsule at opts.ManifestPath, stages it and runs it once
// (a2a-cli.md §6.3's order). A failure is the coded error of the step
// that failed; the Result is filled as far as the run got either way, so
// a cancelled run still names its session. A run whose ctx is cancelled from outside (not by a deadline)
// ends cancelled, whatever the capsule did with its failed calls.
//
// Everything the run writes to Stdout, Stderr and Log, and the error's
// text, goes out without the session's secrets (the A2A token, and from
// staging on the inference api_key): guests' output and the runtime's
// diagnostics about them are paths out like the trace and result.txt.
func Run(ctx context.Context, opts Options) (Result, error) {
	return runSession(ctx, opts, opts.Serve.Token, nil)
}

// runSession is Run, or with serve a session that serves the capsule's
// tools (ServeTools); secret is the token the session's server checks,
// one of its secrets from the start.
func runSession(ctx context.Context, opts Options, secret string, serve toolServer) (Result, error) {
	o := opts.withDefaults()
	secrets := redact.New(secret)
	stdout, stderr := secrets.Writer(o.Stdout), secrets.Writer(o.Stderr)
	log := o.Log
	o.Stdout, o.Stderr, o.Log = stdout, stderr, slog.New(secrets.Handler(o.Log.Handler()))
	sess, step, err := run(ctx, o, secrets, serve)
	if ferr := errors.Join(stdout.Flush(), stderr.Flush()); ferr != nil {
		log.Warn("writing the capsule's last output", "err", ferr)
	}
	if err = asCancelled(ctx, err); err != nil {
		err = secrets.Error(err)
		return Result{Session: sess, Status: StatusOf(err), Step: step}, err
	}
	return Result{Session: sess, Status: StatusOK}, nil
}

// run is the pipeline; step is where it failed (StepRun when it did not,
// for a cancellation that comes after). With serve, the staged capsule's
// tools are served (serveTools) in place of its run.
func run(ctx context.Context, o Options, secrets *redact.Redactor, serve toolServer) (*stage.Staged, Step, error) {
	if err := CheckTaskSize(int64(len(o.Task)), o.MaxTaskBytes); err != nil {
		return nil, StepPrepare, diag.Mark(err, ErrOption)
	}
	if err := policy.ContainmentFlag(o.Containment); err != nil {
		return nil, StepPrepare, diag.Mark(err, ErrOption)
	}
	f, err := load(o)
	if err != nil {
		return nil, StepLoad, err
	}
	agentCapsule := f.Capsule.IsAgent()
	if o.SystemPrompt != nil && !agentCapsule {
		return nil, StepPrepare, diag.Mark(diag.New(launch.CodeIO, "--system-prompt is for agent capsules: %s has no inference: block", f.Path).
			WithHint("leave --system-prompt out for a script capsule"), ErrOption)
	}
	f = withSystemPrompt(f, o.SystemPrompt)
	if agentCapsule {
		if err := checkAgent(f.Capsule); err != nil {
			return nil, StepPrepare, err
		}
		if w, ok := taskContextWarning(f.Capsule, o.Task); ok {
			w.File = f.Path
			o.OnWarning(w)
		}
	}
	telCfg, telWarns, err := resolveTelemetry(f, o, secrets)
	if err != nil {
		return nil, StepLoad, err
	}
	lock, err := stage.ReadLock(filepath.Join(f.Dir, lockfile.FileName))
	if err != nil {
		return nil, StepPrepare, err
	}
	// Component discovery runs before staging so a capsule without its
	// component stages nothing. (Murmur checks the lock and the stores
	// first; both are in stage.Stage, which also writes the workdir.)
	// An agent capsule has no component of its own: its driver is staged.
	var compPath string
	var wasm []byte
	if !agentCapsule && serve == nil {
		if compPath, err = launch.FindComponent(f.Dir); err != nil {
			return nil, StepPrepare, err
		}
		if wasm, err = os.ReadFile(compPath); err != nil {
			return nil, StepPrepare, fmt.Errorf("reading the capsule component: %w", err)
		}
	}
	engine := o.Engine
	if engine == nil {
		if engine, err = component.NewEngine(ctx, component.Config{CacheDir: o.CacheDir}); err != nil {
			return nil, StepPrepare, fmt.Errorf("starting the engine: %w", err)
		}
		defer func() {
			if err := engine.Close(context.WithoutCancel(ctx)); err != nil {
				o.Log.Warn("closing the engine", "err", err)
			}
		}()
	}

	prober := o.Prober
	if prober == nil {
		prober = sandbox.NewProber(o.Trampoline)
	}
	// An agent capsule's port is bound before anything is staged: one
	// that is taken refuses the run with nothing made.
	var served *listening
	if agentCapsule && serve == nil {
		if served, err = listen(ctx, f.Capsule, o.Serve); err != nil {
			return nil, StepPrepare, err
		}
		defer served.close()
	}
	// The capsule's guests, its hooks among them, see the environment as
	// the manifest did (.env under the run's LookupEnv).
	guests := launch.GuestIO{Getenv: f.LookupEnv, Stdout: o.Stdout, Stderr: o.Stderr, Log: o.Log}
	sess, err := stage.Stage(ctx, stage.Options{Manifest: f, Workdir: o.Workdir, Task: o.Task, Getenv: o.Getenv,
		Lock: lock, Compiler: engine, CapsuleWasm: wasm, ComponentPath: compPath, CacheDir: o.CacheDir,
		RuntimeVersion: o.RuntimeVersion, Containment: o.Containment,
		Host: o.host(ctx, prober), Secrets: secrets,
		OnCompile: o.OnCompile, OnStage: hooks.OnStage(hooks.Options{GuestIO: guests})})
	if err != nil {
		return nil, StepStage, err
	}
	for _, w := range sess.Warnings {
		o.OnWarning(w)
	}
	for _, w := range sess.SecurityWarnings {
		o.OnSecurityWarning(w)
	}
	for _, n := range sess.Notes {
		o.Log.Warn(n)
	}
	// Until the capsule starts, a failure is a refusal: the session is
	// discarded, so it leaves no directory, and no murmur.lock either.
	res, err := resources.Start(ctx, resources.Options{SessionID: sess.ID, Workdir: sess.AccessibleDir,
		Limits: sess.Ceiling.Resources, Scope: sess.StartsSubprocesses(), NoCgroup: o.NoCgroup, Bootstrap: sess.AppendBootstrap,
		Self: o.Trampoline, Stderr: o.Stderr, Log: o.Log})
	if err != nil {
		sess.Discard()
		return nil, StepStage, err
	}
	defer func() {
		if err := res.Close(); err != nil {
			o.Log.Warn("removing the session's cgroup scope", "err", err)
		}
	}()
	if wrote, err := sess.WriteLockIfAbsent(); err != nil {
		sess.Discard()
		return nil, StepStage, fmt.Errorf("writing murmur.lock: %w", err)
	} else if wrote {
		o.Log.Info("wrote murmur.lock", "path", sess.LockPath, "artifacts", len(sess.Pins))
	}
	o.OnStaged(sess)
	lo := launch.Options{
		Staged:        sess.Guests(),
		ComponentPath: compPath,
		Engine:        engine,
		GuestIO:       guests,
		Stores:        launch.Stores(sess.ProjectDir, o.Getenv),
		Trampoline:    o.Trampoline,
		Resources:     res,
	}
	tel := startTelemetry(ctx, telCfg, telWarns, sess, f, o)
	defer tel.finish(ctx)
	switch {
	case serve != nil:
		o.Observer = tel.observer(o.Observer)
		err = serveTools(ctx, sess, lo, o, serve)
	case agentCapsule:
		o.Observer = tel.observer(o.Observer)
		err = runAgent(ctx, sess, served, lo, o)
	default:
		err = tel.runScript(ctx, lo)
	}
	return sess, StepRun, err
}

// host is what the prober found, as the operator's NoCgroup leaves it.
func (o Options) host(ctx context.Context, prober *sandbox.Prober) policy.HostSupport {
	s := prober.Probe(ctx)
	if o.NoCgroup {
		s = s.WithoutCgroup()
	}
	return s
}

// load parses the capsule manifest, .env layered under the environment.
func load(o Options) (*manifest.File, error) {
	path, err := filepath.Abs(o.ManifestPath)
	if err != nil {
		return nil, fmt.Errorf("resolving the manifest path %s: %w", o.ManifestPath, err)
	}
	f, warns, err := manifest.LoadWith(path, manifest.LoadOptions{Role: manifest.RoleCapsule, NoEnvFile: o.NoEnvFile, Env: o.LookupEnv})
	for _, w := range warns {
		o.OnWarning(w)
	}
	if err != nil {
		return nil, err
	}
	if f.Capsule == nil {
		return nil, fmt.Errorf("%s is an artifact manifest, not a capsule manifest", path)
	}
	if v, mine := f.Capsule.MurVersion, o.RuntimeVersion; v != "" && mine != "(devel)" && v != mine {
		o.Log.Warn("the capsule asks for another mur version", "mur_version", v, "running", mine)
	}
	return f, nil
}

// asCancelled makes the outcome of a run whose ctx was cancelled from
// outside (an interrupt, a signal, a server cancelling the task) a
// cancelled run, however the capsule ended.
func asCancelled(ctx context.Context, err error) error {
	if ctx.Err() == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) || StatusOf(err) == StatusCancelled {
		return err
	}
	return diag.Wrap(launch.CodeRun, diag.Mark(err, launch.ErrCancelled), "capsule run cancelled (%v)", context.Cause(ctx))
}
