package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/mur-go/mur/internal/base/running"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	runsession "github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

const runLong = `Run the capsule described by murmur.yaml (./murmur.yaml unless --manifest
says otherwise) once, in a fresh session.

A script capsule (no inference: block) is its own WebAssembly component:
capsule.wasm beside murmur.yaml, else the one *.wasm there. mur stages the
declared artifacts from the project store (.murmur/artifacts) or the
global store (~/.murmur/artifacts) — it never downloads; run 'mur install'
first — and then calls the component's murmur:capsule/run@0.1.0#run in a
sandbox: it sees the session workdir as ".", only the host variables in
capabilities.env.allow (plus MURMUR_CAPSULE_NAME, MURMUR_CAPSULE_VERSION
and MURMUR_SESSION_ID), only the HTTP hosts in capabilities.network.allow,
and runs under capabilities.limits (600 s and 512 MiB unless declared). It
may call the tools its manifest declares, and nothing else.

The session workdir is <manifest dir>/workdir/<session id>, or DIR with
--workdir DIR (bookkeeping then goes to DIR/.murmur/<session id>). The
first run writes murmur.lock if there was none; an existing lock is never
changed, and every staged package must match it. What a later run trusts
(murmur.yaml, .env, murmur.lock, the stores, prompt and skill files) is
hidden from WASM guests when it lies in their workdir; a capsule that can
start native subprocesses is refused (E-CAP-002) a workdir holding any of
it: run from a directory of its own, as in
'mur run --manifest ../capsule/murmur.yaml --workdir .'.

Session directories are kept after the run (they hold its output, logs and
staged tools) and mur never deletes them itself: "mur sessions list" shows
them with their sizes, "mur sessions prune --older-than 7d" (or --keep N)
removes old ones.

Native tools start under hard rlimits from capabilities.resources
(defaults: 1024 open files, 4 GiB per file, 3600 s CPU, 2 GiB address
space, the uid's live tasks + 128 processes; -v prints them and the
session's logs/bootstrap.log records them) and, on Linux with Landlock and
seccomp, contained: only the workdir is writable and no other file is
readable but the allowed binaries and their libraries, nothing in the
workdir is executable, the seccomp filter refuses ptrace, mount, unshare,
bpf, io_uring, keyctl and unix/netlink/raw sockets, no capability survives
and no setuid binary gains any, and with user namespaces they get a
network namespace of their own from which only the capabilities.network.allow
hosts and ports are reachable (mur answers their DNS and splices their
connections; every other name is refused). 'mur doctor'
says what this host enforces; --explain-scope what a capsule would get. A
containment floor (capabilities.containment or --containment) the host
cannot hold is refused with E-CAP-003, before anything is staged. Under a
sealed floor (where the host provides it) each subprocess runs in a
composed root of its own: a private mount namespace with the system
directories read-only, the workdir the only writable path, /tmp inside
it, a private /dev and a synthetic /etc/passwd; a root that cannot be
built ends the session (E-RUN-014). A capsule that can spawn native
subprocesses gets one cgroup scope per session (cgroup v2 where
delegated, else the cgroup v1 memory, pids and cpu hierarchies) with the
cgroup_* ceilings, built in a transient scope mur asks the systemd user
manager for over the session bus (Delegate=yes), else in the cgroup mur
inherited, and is refused with E-RUN-012 where none can be built. On a
host that delegates no cgroup at all, --no-cgroup (or MUR_NO_CGROUP=1)
runs such a capsule without the scope: its subprocesses keep their
rlimits and containment, and W-SEC-010 says so on stderr, in
logs/bootstrap.log and in the trace's session_start. The workdir is
walked every 10 s (and after each subprocess) against
workdir_max_bytes, E-RUN-013 once it is crossed.

Agent capsules (with inference:) are served over A2A while they run: the
port is bound (127.0.0.1, or --bind; network.internal_port, else any free
one) and "murmur: url localhost:PORT" printed. Tasks come from task.md
(--task writes it) and from A2A messages, as lifecycle.task_acceptance
(none, single, queue) and after_task (exit, sleep) say, or
--lifecycle-task-acceptance / --lifecycle-after-task; with single and no
task.md, mur waits MURMUR_A2A_TIMEOUT_SECS (30) for a message, saying at
once on stderr where to send it ('mur send URL TEXT'); if none comes the
run fails: a model is never called with an empty task. Each task
runs through the driver, turn by turn, with the declared WASM, native and
skill tools and the capabilities.shell.allow binaries (run in the workdir
with a synthetic HOME, no host credentials, the limits and containment
above; output past 16 KiB in logs/shell-<ms>.log) and the capsule's
lifecycle hooks; a failed attempt (driver error, stop_reason error, turns
exhausted, unsupported stop reason) fails the run. The session directory
keeps trace.jsonl (every record written as it happens), transcript.jsonl
(what the model was sent and said and what every tool returned; "mur
trace transcript" prints it, "mur trace html" draws it), out/result.txt,
MURMUR.md and logs/. --system-prompt replaces the manifest's prompt. Set
MURMUR_A2A_TOKEN to require a bearer token. A finished task keeps its
reply for GetTask among the newest MURMUR_A2A_KEEP_REPLIES (1024) finished
tasks; older ones keep their state and context id. With inference.transport:
process, a local claude or codex CLI is the model, the capsule's tools
served to it over a loopback MCP bridge. 'mur send URL TEXT' talks to a
served capsule; 'mur ps', 'mur watch', 'mur cancel', 'mur stop' see and
steer it.

The A2A server bounds what its clients can hold: a request body is at
most 1 MiB, read whole (after the token check) before it is decoded, and
within MURMUR_A2A_BODY_TIMEOUT_SECS (30) seconds; bodies over 16 KiB
being received share 16 MiB, beyond which they are answered 503; headers
get 10 s and 64 KiB, an idle connection 120 s; 512 connections in all
and 128 from one address, a new one past a cap taking the slot of the
connection that has waited longest on its client. A --bind beyond
loopback (0.0.0.0, a LAN address) is refused without MURMUR_A2A_TOKEN
unless --insecure-no-token says to serve it open.

--task VALUE is the contents of the file VALUE names when it names a
readable regular file; a VALUE that is one word with a / in it or a file
extension at its end (notes/todo, plan.md) must name one, else the run is
refused; any other VALUE ("fix src/main.go", "hello") is the task text.
A task is at most 1 MiB (--max-task-bytes raises it), refused before
anything runs; one that alone would take more than half of the model's
context (context.max_tokens, else 128000 tokens) is warned about
(W-RUN-001). A command line mur run cannot take (a flag's value, a
--workdir that is no directory, --system-prompt for a script capsule)
exits 2 before anything is written; a refusal found later (a taken
internal_port, a driver that may not reach inference.endpoint) exits 1,
and no session directory is left either way.

Output: "session: ses_…" when the session starts, the capsule's own
output, for an agent capsule "murmur: url …", with -v "result:  <path>"
(its out/result.txt) and "trace:   <path>" (its trace.jsonl, once
written), then "status:  ok", "status:  failed", "status:  trapped" or
"status:  cancelled", and after "status:  ok" an agent capsule's final
answer (out/result.txt), last. These lines are Murmur's, on stdout; -q
prints them on stderr instead, so 'mur run -q --task … > answer.md' keeps
the answer alone (a script capsule's own output, under -q, alone too).
With --json, one line
{"name","pid","session_id","url","version","workdir"} (an agent capsule's
when its URL is known, a script's after the run) and nothing else on
stdout (the capsule's output goes to stderr). A failed run always exits 1.
MUR_CPUPROFILE=PATH writes a Go CPU profile of the run to PATH.

Progress: on a terminal, an agent capsule's run shows itself on stderr as
it goes: each task (its id and source: a served capsule shows each task
it runs), each turn, each model answer (decision, time, tokens; "~" marks
mur's estimate where the provider reported none) and each tool call (its
name, its input cut to one line, ok or error, its time), the model's text
as it streams (a driver that does not stream: a line of what it said),
and a status line redrawn in place with the elapsed time, what the run
waits for and the tokens so far; then the task's status, turns, tokens
and time, before Murmur's lines. Text from the model, a tool or a client
is shown with its control characters replaced, so it cannot act on the
terminal. When stderr is not a terminal nothing is shown, so logs keep
the lines above; --progress shows it anyway, as plain lines with no
cursor movement; --quiet turns it off (both together exit 2); --json
shows none unless --progress. Progress never holds the run up: what a
slow stderr cannot take in time is left out and the count said.

Interrupting a run (Ctrl-C, SIGINT) or terminating it (SIGTERM) stops the
capsule and its tool calls: the run ends "cancelled", out/result.txt in
the session directory says so, the --json line gains "status":"cancelled",
and mur exits 130 (SIGINT) or 143 (SIGTERM), whatever the capsule did
with the failed calls.`

// runOptions are the flags of "mur run".
type runOptions struct {
	manifest    string
	workdir     string
	task        string
	json        bool
	verbose     bool
	quiet       bool
	progress    bool // forces the progress on (progressFor)
	noEnvFile   bool
	containment string
	explain     bool
	// systemPrompt is --system-prompt; systemPromptSet whether it was given.
	systemPrompt    string
	systemPromptSet bool
	// bind, acceptance and afterTask are --bind and the lifecycle
	// overrides of a served agent capsule.
	bind, acceptance, afterTask string
	// insecureNoToken serves a --bind beyond loopback without a token.
	insecureNoToken bool
	// noCgroup is --no-cgroup or MUR_NO_CGROUP=1: the operator's
	// downgrade to no cgroup scope (session.Options.NoCgroup).
	noCgroup bool
	// maxTaskBytes is --max-task-bytes; taskText the task check read
	// from --task.
	maxTaskBytes int64
	taskText     string
}

// noCgroupEnv turns the cgroup scope off as --no-cgroup does.
const noCgroupEnv = "MUR_NO_CGROUP"

// noCgroupFromEnv reads MUR_NO_CGROUP: "1" turns the scope off, "" or
// "0" leaves it; anything else is refused rather than guessed at.
func noCgroupFromEnv(v string) (bool, error) {
	switch v {
	case "", "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, fmt.Errorf("%s=%q: set it to 1 to run without the session's cgroup scope, or 0 (or unset) to keep it", noCgroupEnv, v)
}

func newRunCommand(a *app) *cobra.Command {
	var opts runOptions
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a capsule in a fresh session",
		Long:  runLong,
		Example: `  cd examples/hello && mur run -v
  mur run --manifest path/to/murmur.yaml --workdir ./scratch --task "count these words"`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.systemPromptSet = cmd.Flags().Changed("system-prompt")
			off, err := noCgroupFromEnv(os.Getenv(noCgroupEnv))
			if err != nil {
				return &usageError{cmd, err}
			}
			opts.noCgroup = opts.noCgroup || off
			if err := opts.check(cmd); err != nil {
				return &usageError{cmd, err}
			}
			return newRunner(a, opts, cmd).run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.manifest, "manifest", manifest.FileName, "the capsule manifest, relative to the current directory")
	f.StringVar(&opts.workdir, "workdir", "", "an existing directory to use as the capsule's workdir (default: a new one under <manifest dir>/workdir)")
	f.StringVar(&opts.task, "task", "", taskHelp)
	f.Int64Var(&opts.maxTaskBytes, "max-task-bytes", runsession.DefaultMaxTaskBytes, "the longest task the run takes, in bytes; a longer --task is refused before anything runs")
	f.BoolVar(&opts.json, "json", false, "print one JSON line describing the session instead of the human output (wins over -v)")
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "also print the workdir and the manifest's name and version")
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print the session and status lines on stderr, so stdout holds only the capsule's output or the agent's answer ('mur run -q --task … > answer.md'), and no progress")
	f.BoolVar(&opts.progress, "progress", false, "show an agent capsule's progress on stderr (turns, tool calls, the model's text, tokens, time) even when stderr is not a terminal, as plain lines; on a terminal it is on unless --quiet or --json")
	f.BoolVar(&opts.noEnvFile, "no-env-file", false, "do not load .env from the manifest's directory or its ancestors")
	f.BoolVar(&opts.explain, "explain-scope", false, "print the capsule's effective grants, containment class and enforcement tier (one JSON line with --json) and exit without running anything")
	f.StringVar(&opts.containment, "containment", "", "the weakest containment class the run accepts: advisory, scoped or sealed (the strongest of this and capabilities.containment applies)")
	f.StringVar(&opts.systemPrompt, "system-prompt", "", "an agent capsule's system prompt for this run, replacing the manifest's system_prompt, system_prompt_file and system_prompt_artifact (\"\" for none)")
	f.StringVar(&opts.bind, "bind", "", "the address an agent capsule's A2A server listens on (default 127.0.0.1; anything wider is reachable from other hosts and needs MURMUR_A2A_TOKEN or --insecure-no-token)")
	f.BoolVar(&opts.insecureNoToken, "insecure-no-token", false, "serve on a --bind beyond loopback without MURMUR_A2A_TOKEN: anyone who reaches the port can give the agent tasks")
	f.BoolVar(&opts.noCgroup, "no-cgroup", false, "operator's downgrade for hosts that delegate no cgroup: run a capsule's native subprocesses without the session's cgroup scope (no aggregate memory, pids or cpu ceiling; per-process rlimits and the containment still apply; W-SEC-010 says so) instead of refusing it E-RUN-012; also MUR_NO_CGROUP=1")
	f.StringVar(&opts.acceptance, "lifecycle-task-acceptance", "", "override lifecycle.task_acceptance: none, single or queue")
	f.StringVar(&opts.afterTask, "lifecycle-after-task", "", "override lifecycle.after_task: exit or sleep")
	return cmd
}

// runner is one "mur run".
type runner struct {
	*app
	// stdout, stderr and log are the app's, or while the progress is on
	// its passthrough writers (startProgress).
	stdout, stderr io.Writer
	log            *slog.Logger
	opts           runOptions
	cmd            *cobra.Command
	// info receives the session and status lines: stdout as in Murmur,
	// stderr under --quiet.
	info io.Writer
	// staged is the session once staged; urlPrinted is set once an agent
	// capsule's --json line went out at bind time.
	staged     *stage.Staged
	urlPrinted bool
	// startupDone puts the collector back once the capsule is bound
	// (relaxStartupGC).
	startupDone func()
}

// newRunner is a "mur run" writing to a's stdout and stderr.
func newRunner(a *app, opts runOptions, cmd *cobra.Command) *runner {
	r := &runner{app: a, stdout: a.stdout, stderr: a.stderr, log: a.log, opts: opts, cmd: cmd, info: a.stdout}
	if opts.quiet {
		r.info = a.stderr
	}
	return r
}

// run runs the session (package session) and prints the status line; every
// failure is also an error, so the exit status is never 0 for it.
func (r *runner) run(ctx context.Context) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locating the mur binary to start native tools through: %w", err)
	}
	if r.opts.explain {
		return r.explainScope(ctx, self)
	}
	stopProfile, err := startCPUProfile()
	if err != nil {
		return err
	}
	defer func() {
		if perr := stopProfile(); perr != nil {
			fmt.Fprintln(r.stderr, "warning:", perr)
		}
	}()
	r.startupDone = relaxStartupGC()
	defer r.startupDone()
	prog := r.startProgress()
	capsuleOut := r.stdout
	if r.opts.json {
		capsuleOut = r.stderr // nothing but the launch line on stdout
	}
	res, err := runsession.Run(ctx, runsession.Options{
		ManifestPath:   r.opts.manifest,
		NoEnvFile:      r.opts.noEnvFile,
		Workdir:        r.opts.workdir,
		Task:           r.opts.taskText,
		MaxTaskBytes:   r.opts.maxTaskBytes,
		Containment:    r.opts.containment,
		NoCgroup:       r.opts.noCgroup,
		SystemPrompt:   r.systemPrompt(),
		Trampoline:     self,
		RuntimeVersion: murVersion(),
		CacheDir:       os.Getenv(cacheDirEnv),
		Stdout:         capsuleOut,
		Stderr:         r.stderr,
		Log:            r.log,
		OnWarning:      func(w manifest.Warning) { fmt.Fprintln(r.stderr, w.String()) },
		OnSecurityWarning: func(w manifest.Warning) {
			fmt.Fprintln(r.stderr, policy.LaunchLine(policy.StderrPrefix, w))
		},
		OnCompile: compileNotice(r.stderr, time.AfterFunc),
		OnStaged:  r.printSession,
		Serve:     r.serveOptions(),
		Observer:  observer(prog),
	})
	if prog != nil {
		// Murmur's lines follow the progress, never interleave with it.
		prog.Close()
	}
	err = asCancelled(ctx, err)
	if errors.Is(err, runsession.ErrOption) {
		return &usageError{r.cmd, err}
	}
	if r.opts.json {
		// A cancelled run still has a session to describe; the line says
		// how it ended so it cannot pass for a finished one.
		if !r.urlPrinted && (err == nil || (res.Status == runsession.StatusCancelled && res.Session != nil)) {
			if perr := r.printLaunchLine(res.Session, res.Status, ""); perr != nil && err == nil {
				err = perr
			}
		}
		return err
	}
	if r.opts.verbose {
		printRecords(r.info, res.Session)
	}
	fmt.Fprintf(r.info, "status:  %s\n", res.Status)
	if res.Status == runsession.StatusOK {
		r.printAnswer(res.Session)
	}
	return err
}

// serveOptions are the run's A2A settings: the flags', the registry of
// served sessions and the announcements.
func (r *runner) serveOptions() runsession.ServeOptions {
	o := r.opts.serve()
	o.RunningDir, o.OnURL, o.OnWaiting = runningDir(), r.printURL, r.printWaiting
	return o
}

// systemPrompt is --system-prompt's value, nil when it was not given.
func (r *runner) systemPrompt() *string {
	if !r.opts.systemPromptSet {
		return nil
	}
	return &r.opts.systemPrompt
}

// printSession prints the human session lines (nothing in JSON mode).
func (r *runner) printSession(s *stage.Staged) {
	r.staged = s
	if s.Capsule.Inference == nil && r.startupDone != nil {
		// A script capsule is never announced: its start-up ends here,
		// and its guest runs, however long, under the usual collector.
		r.startupDone()
	}
	if r.opts.json {
		return
	}
	fmt.Fprintf(r.info, "session: %s\n", s.ID)
	if r.opts.verbose {
		fmt.Fprintf(r.info, "workdir: %s\n", s.AccessibleDir)
		fmt.Fprintf(r.info, "manifest: %s v%s\n", s.Capsule.Name, s.Capsule.Version)
		fmt.Fprintf(r.info, "containment: declared %s, achieved %s, tier %s (%s)\n", s.Containment.Declared, s.Containment.Achieved, s.Containment.Tier(), s.Containment.Tier().Mechanism())
		fmt.Fprintf(r.info, "native subprocess limits: %s\n", s.NativeLimits())
	}
}

// launchLine is the --json line; encoding/json writes struct fields in
// order, so they are declared alphabetically as Murmur emits them.
type launchLine struct {
	Name      string `json:"name"`
	PID       int    `json:"pid"`
	SessionID string `json:"session_id"`
	// Status is set only for a cancelled run; a finished one keeps
	// Murmur's six keys.
	Status  string `json:"status,omitempty"`
	URL     string `json:"url"`
	Version string `json:"version"`
	Workdir string `json:"workdir"`
}

// printURL announces an agent capsule's A2A address once it is bound:
// "murmur: url localhost:PORT", or with --json the launch line carrying it.
func (r *runner) printURL(url string) {
	if r.startupDone != nil {
		r.startupDone()
	}
	if !r.opts.json {
		fmt.Fprintf(r.info, "murmur: url %s\n", url)
		return
	}
	if err := r.printLaunchLine(r.staged, runsession.StatusOK, url); err != nil {
		r.log.Warn("writing the --json launch line", "err", err)
		return
	}
	r.urlPrinted = true
}

// runningDir is the registry of served sessions (mur ps), "" when there
// is no home to keep it in.
func runningDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return running.Dir(home)
}

// printLaunchLine writes the --json line: for an agent capsule when its
// URL is known, for a script run when it finished or was cancelled (no
// URL); the workdir the user gave, else the session dir.
func (r *runner) printLaunchLine(s *stage.Staged, status runsession.Status, url string) error {
	if s == nil {
		return errors.New("mur run: no session to describe")
	}
	line := launchLine{Name: s.Capsule.Name, PID: os.Getpid(), SessionID: s.ID, URL: url, Version: s.Capsule.Version, Workdir: s.SessionDir}
	if status != runsession.StatusOK {
		line.Status = string(status)
	}
	if s.UserWorkdir {
		line.Workdir = s.AccessibleDir
	}
	b, err := json.Marshal(line)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(r.stdout, "%s\n", b)
	return err
}

// murVersion is this binary's module version, "(devel)" for a build from
// a source tree.
func murVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
