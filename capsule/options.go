package capsule

import (
	"io"
	"log/slog"
	"os"

	"github.com/mur-go/mur/engine/component"
)

// Options say which capsule Run or Serve runs and what the host gives it.
// The zero value runs ./murmur.yaml in a new session directory, with the
// process's environment, the user's stores and compilation cache, and the
// capsule's output discarded.
type Options struct {
	// Manifest is the capsule's murmur.yaml; "" is murmur.yaml in the
	// current directory.
	Manifest string
	// Workdir is an existing directory the capsule sees as ".", its
	// bookkeeping then kept in Workdir/.murmur/<session id>; "" makes a
	// new session directory under <manifest dir>/workdir.
	Workdir string
	// Task is the task, written to task.md in the workdir as it is (never
	// read as a file name, so it may come from anyone); "" writes none.
	Task string
	// MaxTaskBytes is the longest Task Run takes; 0 is 1 MiB. A longer
	// one is refused (an *Error) before anything is staged.
	MaxTaskBytes int64
	// SystemPrompt, when set, replaces an agent capsule's system prompt
	// for this run (the manifest's system_prompt, system_prompt_file and
	// system_prompt_artifact); an empty string means no prompt at all.
	SystemPrompt *string
	// Containment is the weakest containment class the run accepts for
	// native subprocesses: "advisory", "scoped" or "sealed" (the stronger
	// of it and capabilities.containment applies); a floor this host
	// cannot hold is refused with E-CAP-003 before anything is staged.
	// "" leaves the manifest's floor.
	Containment string
	// NoEnvFile skips the .env file beside the manifest (or above it).
	NoEnvFile bool
	// NoCgroup is the operator's downgrade for a host that delegates no
	// cgroup (a container with a read-only cgroupfs, many CI runners):
	// a capsule that can spawn native subprocesses runs them without
	// the session's cgroup scope, so nothing bounds the subprocess tree's
	// memory, pids and cpu as a whole (each process keeps its rlimits and
	// containment), instead of being refused with E-RUN-012. W-SEC-010
	// says so (to Logger, in logs/bootstrap.log and in the trace). It is
	// the embedder's choice, as --no-cgroup is mur run's; a capsule
	// cannot ask for it.
	NoCgroup bool

	// Env is the environment the run reads in place of the process's:
	// ${VAR} in murmur.yaml (layered over .env), what
	// capabilities.env.allow passes on to guests and tools, PATH for the
	// shell tools; nil is os.LookupEnv.
	Env func(name string) (value string, ok bool)
	// Home is the directory whose .murmur/artifacts is the global store;
	// "" is HOME from Env.
	Home string
	// CacheDir is where compiled components are kept across runs; "" is
	// the user's cache directory (mur/wasm in os.UserCacheDir). The run
	// hides it from every guest: the host runs what it finds there.
	CacheDir string
	// Engine, when set, compiles and runs the components and is left
	// open, so runs in one process share compiled code; nil makes one
	// for the run (with CacheDir) and closes it afterwards. Give CacheDir
	// the directory it was configured with, so that is the one hidden.
	Engine *component.Engine

	// Stdout and Stderr receive the capsule's own output; nil discards
	// it. Whatever a run writes there, and into Logger, goes out without
	// the session's secrets.
	Stdout, Stderr io.Writer
	// Logger receives the run's diagnostics, and each manifest, staging
	// and W-SEC warning as a warning record with its code; nil is
	// slog.Default().
	Logger *slog.Logger

	// Bind is the address an agent capsule's A2A server listens on; ""
	// is 127.0.0.1. Its port is network.internal_port, else a free one.
	Bind string
	// Token is the bearer token A2A requests must carry ("" for none).
	// A Bind beyond loopback is refused without one.
	Token string
	// InsecureNoToken serves a Bind beyond loopback without a Token:
	// anyone who reaches the port can give the agent tasks.
	InsecureNoToken bool
	// OnURL, if set, is called with an agent capsule's A2A address
	// (localhost:PORT) once it is bound and before it takes tasks.
	OnURL func(url string)
}

// env is the lookup the run reads: Env, else the process's.
func (o Options) env() func(string) (string, bool) {
	return lookup(o.Env)
}

func lookup(env func(string) (string, bool)) func(string) (string, bool) {
	if env == nil {
		return os.LookupEnv
	}
	return env
}

// getenv is the runtime's own settings read from env, HOME replaced by
// home when it is set.
func getenv(env func(string) (string, bool), home string) func(string) string {
	env = lookup(env)
	return func(name string) string {
		if name == "HOME" && home != "" {
			return home
		}
		v, _ := env(name)
		return v
	}
}

// logger is l, else slog.Default().
func logger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return slog.Default()
	}
	return l
}
