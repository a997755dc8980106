package capsule

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"runtime/debug"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/session"
	"github.com/mur-go/mur/internal/stage"
)

// Status is how a run ended.
type Status string

// The outcomes of a run. Anything but StatusOK comes with an error.
const (
	StatusOK        Status = "ok"
	StatusFailed    Status = "failed"
	StatusTrapped   Status = "trapped"
	StatusCancelled Status = "cancelled"
)

// MaxText is the most of out/result.txt a Result carries.
const MaxText = 16 << 20

// Result is how a run ended and where it left its records. It is filled
// as far as the run got: a run refused before staging has no session.
type Result struct {
	// Status is how the run ended.
	Status Status
	// SessionID is the session's id ("ses_…"), also its directory's name
	// and the trace's session_id.
	SessionID string
	// SessionDir keeps what the run left: out/result.txt, trace.jsonl
	// (an agent capsule's every turn and tool call), MURMUR.md and logs/.
	SessionDir string
	// Workdir is what the capsule saw as ".": Options.Workdir, else
	// SessionDir.
	Workdir string
	// Text is out/result.txt: an agent's final answer, or "error: …" when
	// its run failed; what a script capsule wrote there. At most MaxText
	// bytes of it; "" when there is none, or when what is there is not a
	// regular file of the session (a link a tool planted is not followed).
	Text string
}

// Run runs the capsule at opts.Manifest once, as `mur run` does: it loads
// and checks murmur.yaml, applies the capability policy (refusing what
// this host cannot contain), stages the declared artifacts from the
// project and global stores (checked against murmur.lock, which the first
// run writes; Run never downloads: see Install), and runs it. A script
// capsule runs its own component; an agent capsule runs its model and
// tools turn by turn on the task, served over A2A while it runs (OnURL
// says where), taking tasks as its lifecycle block says: by default the
// one task, or without one the first A2A message within
// MURMUR_A2A_TIMEOUT_SECS (30 s).
//
// Native tools start through this program, which mur's sandbox takes over
// when it is started as their trampoline (before main runs). A run whose
// ctx is cancelled ends StatusCancelled. Every Status but StatusOK comes
// with an error; a coded one is an *Error.
func Run(ctx context.Context, opts Options) (Result, error) {
	return run(ctx, opts, session.ServeOptions{})
}

// run is Run with the lifecycle overrides Serve sets.
func run(ctx context.Context, o Options, serve session.ServeOptions) (Result, error) {
	log := logger(o.Logger)
	self, err := os.Executable()
	if err != nil {
		log.Warn("native tools are refused: this program cannot locate itself to start them", "err", err)
		self = ""
	}
	serve.Bind, serve.Token, serve.InsecureNoToken, serve.OnURL = o.Bind, o.Token, o.InsecureNoToken, o.OnURL
	warn := func(w manifest.Warning) {
		log.Warn(w.Msg, "code", w.Code, "hint", w.Hint, "file", w.File, "line", w.Line)
	}
	res, err := session.Run(ctx, session.Options{
		ManifestPath:      manifestPath(o.Manifest),
		NoEnvFile:         o.NoEnvFile,
		Workdir:           o.Workdir,
		Task:              o.Task,
		MaxTaskBytes:      o.MaxTaskBytes,
		SystemPrompt:      o.SystemPrompt,
		Containment:       o.Containment,
		NoCgroup:          o.NoCgroup,
		Trampoline:        self,
		RuntimeVersion:    version(),
		Engine:            o.Engine,
		CacheDir:          o.CacheDir,
		Stdout:            o.Stdout,
		Stderr:            o.Stderr,
		LookupEnv:         o.env(),
		Getenv:            getenv(o.Env, o.Home),
		Log:               log,
		OnWarning:         warn,
		OnSecurityWarning: warn,
		Serve:             serve,
	})
	out := Result{Status: Status(res.Status)}
	if s := res.Session; s != nil {
		out.SessionID, out.SessionDir, out.Workdir = s.ID, s.SessionDir, s.AccessibleDir
		out.Text = s.Secrets().String(readResult(s.Workdir, log))
	}
	return out, coded(err)
}

// manifestPath is path, or murmur.yaml in the current directory.
func manifestPath(path string) string {
	if path == "" {
		return manifest.FileName
	}
	return path
}

// readResult is out/result.txt in the session directory, read as the
// runtime reads every file a guest or a tool could have written
// (stage.Workdir.OpenResult), at most MaxText bytes. A result that is not
// there is "", one refused is "" and logged.
func readResult(w stage.Workdir, log *slog.Logger) string {
	f, err := w.OpenResult()
	if errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	if err != nil {
		log.Warn("not reading out/result.txt", "err", err)
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxText+1))
	if err != nil {
		log.Warn("reading out/result.txt", "err", err)
		return ""
	}
	if len(b) > MaxText {
		log.Warn(fmt.Sprintf("out/result.txt is longer than %d bytes; the Result holds its start", MaxText), "path", f.Name())
		b = b[:MaxText]
	}
	return string(b)
}

// version is the mur module's version in this program: the main module's
// when it is mur, else the required one; "(devel)" for a source tree.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	const module = "github.com/mur-go/mur"
	if info.Main.Path == module && info.Main.Version != "" {
		return info.Main.Version
	}
	for _, d := range info.Deps {
		if d.Path == module && d.Version != "" {
			return d.Version
		}
	}
	return "(devel)"
}
