package session

import (
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/agent"
	"github.com/mur-go/mur/internal/agent/observe"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/sandbox"
	"github.com/mur-go/mur/internal/stage"
)

// Options describe one run.
type Options struct {
	// ManifestPath is the capsule's murmur.yaml (an absolute path, or one
	// relative to the process's working directory).
	ManifestPath string
	// NoEnvFile skips loading .env from the manifest's directory or its
	// ancestors.
	NoEnvFile bool
	// Workdir is an existing directory to use as the capsule's workdir; ""
	// makes a new one under <manifest dir>/workdir.
	Workdir string
	// Task is the task's text, written to task.md ("" writes none). It
	// is text whatever it looks like: `mur run --task FILE` reads the
	// file itself.
	Task string
	// MaxTaskBytes is the largest Task the run takes (0:
	// DefaultMaxTaskBytes); a longer one is refused before anything is
	// read or staged.
	MaxTaskBytes int64
	// SystemPrompt is `mur run --system-prompt` for an agent capsule (nil:
	// not given): trimmed, it replaces the manifest's prompt fields, and
	// empty means no prompt at all.
	SystemPrompt *string
	// Containment is the --containment floor ("" when not given); the
	// strongest of it and the manifest's applies.
	Containment string
	// Trampoline is the mur binary native tools start through, under
	// capabilities.resources' rlimits; "" refuses every native tool.
	Trampoline string
	// Prober probes what this host enforces on subprocesses (cached in
	// it, so a server shares one across sessions); nil probes through
	// Trampoline for this run, and with no Trampoline either nothing is
	// assumed enforced.
	Prober *sandbox.Prober
	// NoCgroup is the operator's downgrade (mur run --no-cgroup,
	// MUR_NO_CGROUP=1, capsule.Options.NoCgroup; never a manifest field):
	// a capsule that can spawn native subprocesses runs them without the
	// session's cgroup scope (per-process rlimits and the containment
	// still apply) instead of being refused E-RUN-012 where none can be
	// built, and W-SEC-010 says so on stderr, in bootstrap.log and in the
	// trace.
	NoCgroup bool
	// RuntimeVersion is the running mur's version, recorded by staging and
	// compared with the manifest's mur_version.
	RuntimeVersion string

	// Engine compiles and runs the components. Nil makes one for this run
	// (with CacheDir as its compilation cache) and closes it afterwards; a
	// server running many sessions passes its own.
	Engine   *component.Engine
	CacheDir string

	// Stdout and Stderr receive the capsule's own output; nil discards it.
	Stdout, Stderr io.Writer
	// LookupEnv is the environment the run reads in place of the
	// process's: ${VAR} in murmur.yaml (over .env), what
	// capabilities.env.allow passes to guests and tools, hooks' MURMUR_*
	// variables; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Getenv reads the runtime's own settings: HOME for the global store
	// (staging, manage.pull), PATH for the shell tools, the A2A and
	// decompression knobs; nil reads LookupEnv.
	Getenv func(string) string
	// Log receives the run's diagnostics; nil uses slog.Default().
	Log *slog.Logger

	// OnWarning, if set, receives each manifest and staging warning.
	OnWarning func(manifest.Warning)
	// OnSecurityWarning, if set, receives each W-SEC warning staging found
	// for this host (they are in logs/bootstrap.log too).
	OnSecurityWarning func(manifest.Warning)
	// Serve is how an agent capsule is served over A2A while it runs.
	Serve ServeOptions
	// OnCompile, if set, is told of each component staging compiles
	// (stage.Options.OnCompile).
	OnCompile func(what string) (done func())
	// OnStaged, if set, is called once the session is staged (and a new
	// murmur.lock written), before the capsule runs: the moment a caller
	// can show the session's id and workdir.
	OnStaged func(*stage.Staged)
	// Observer, if set, watches an agent capsule's steps as they happen
	// (package observe: progress, transcript, telemetry).
	Observer observe.Observer
}

// withDefaults fills what a run's caller left out: its writers, its log
// (slog.Default: a run reports to its caller, unlike the guests'
// launch.GuestIO, which run builds from these), the environment the run
// reads and the runtime's settings, and the callbacks.
func (o Options) withDefaults() Options {
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.Getenv == nil {
		lookup := o.LookupEnv
		o.Getenv = func(name string) string { v, _ := lookup(name); return v }
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.OnWarning == nil {
		o.OnWarning = func(manifest.Warning) {}
	}
	if o.OnSecurityWarning == nil {
		o.OnSecurityWarning = func(manifest.Warning) {}
	}
	if o.OnStaged == nil {
		o.OnStaged = func(*stage.Staged) {}
	}
	return o
}

// ServeOptions are `mur run`'s A2A settings for an agent capsule: every
// agent session binds its port and takes tasks from task.md and from A2A
// messages as its lifecycle says (session.md §3.8).
type ServeOptions struct {
	// Bind is --bind; "" is 127.0.0.1.
	Bind string
	// TaskAcceptance and AfterTask override the manifest's lifecycle block
	// ("" keeps it).
	TaskAcceptance, AfterTask string
	// Token is the bearer token A2A requests must carry ("" for none).
	Token string
	// InsecureNoToken is --insecure-no-token: a Bind beyond loopback is
	// served without a Token.
	InsecureNoToken bool
	// RunningDir is the registry of served sessions (mur ps); "" lists
	// nothing.
	RunningDir string
	// OnURL is called with the capsule URL (localhost:PORT) once bound.
	OnURL func(url string)
	// OnWaiting, if set, is called after OnURL when the session has no
	// task.md and starts by waiting for an A2A task: wait is how long
	// (MURMUR_A2A_TIMEOUT_SECS), negative for as long as it is served
	// (queue+sleep). It is not called for a wait of 0.
	OnWaiting func(url string, wait time.Duration)
	// Tasks, if set, is where the loop takes its tasks in place of the
	// A2A server's source, which then takes none (task acceptance none,
	// whatever the lifecycle says): mur worker feeds one staged session
	// from the cluster's queue. The server still serves the card guests
	// reach at the capsule URL.
	Tasks agent.TaskSource
}
