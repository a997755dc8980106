package stage

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// Compiler turns a component binary into something instantiable.
// *component.Engine satisfies it; tests may count or fail compiles.
type Compiler interface {
	Compile(ctx context.Context, wasm []byte) (*component.Component, error)
}

// Store is one place artifacts resolve from, tried in Options.Stores
// order. Name is how messages refer to it (its directory for a local store).
type Store = install.Source

// Options says what to stage and where. Only Manifest is required; the
// rest default as `mur run` would.
type Options struct {
	// Manifest is the parsed capsule manifest (manifest.Load with
	// RoleCapsule). Its Dir is the project dir.
	Manifest *manifest.File

	// Workdir is `mur run --workdir DIR` ("" = none). It must exist;
	// relative means relative to Cwd.
	Workdir string
	// Task is the task's text, written to <accessible>/task.md ("" =
	// none). It is text whatever it looks like: a caller that reads a
	// task from a file (mur run --task FILE) reads it itself, so no task
	// from elsewhere can choose a host file for the model to read.
	Task string

	// Containment is `mur run --containment` ("" = not given): with
	// capabilities.containment it makes the declared floor, which staging
	// refuses (E-CAP-003) before anything else when the host cannot hold
	// the capsule to it.
	Containment string
	// Host is what the live probes found this host enforces
	// (sandbox.Prober); the zero value assumes nothing is enforced.
	Host policy.HostSupport

	// Lock is the project's murmur.lock (see ReadLock); nil means there is
	// none and staging checks hashes against the store sidecars only.
	Lock *lockfile.Lock
	// LockPath is where it lives; "" = <project dir>/murmur.lock.
	LockPath string

	// Stores are searched in order for every registry artifact; a store is
	// skipped only when it does not have the artifact. nil = the project
	// store then the global store (DefaultStores). mur run never contacts
	// a remote registry.
	Stores []Store
	// Platform is the variant asked for; nil = the current host's.
	Platform *artifact.Platform

	// Compiler compiles tool, driver and hook components, and CapsuleWasm.
	// Required when anything needs compiling.
	Compiler Compiler
	// OnCompile, if set, is called before each component is compiled
	// with what it is ("name@version"); staging calls the function it
	// returns once the compile ends. A compile found in the cache takes
	// milliseconds, a cold one seconds: the caller can say so.
	OnCompile func(what string) (done func())
	// CapsuleWasm is a script capsule's own component (capsule.wasm),
	// compiled at staging (GuestView.Component); nil for agent capsules or
	// when the launcher compiles it itself.
	CapsuleWasm []byte
	// ComponentPath is the file CapsuleWasm was read from ("" = none):
	// the runtime trusts it at the next run.
	ComponentPath string
	// CacheDir is the engine's compile cache as component.Config takes it
	// ("" = the user cache dir's default): code mur runs, kept from
	// every guest and subprocess.
	CacheDir string

	// SessionID is used as given when set (it must match ses_<32 hex>);
	// "" mints one from Clock and Rand.
	SessionID string
	// Clock is the time source (id, MURMUR.md); nil = time.Now.
	Clock func() time.Time
	// Rand feeds the session id; nil = crypto/rand.
	Rand io.Reader
	// Getenv reads the environment (HOME for the global store, the
	// decompression ceiling override); nil = os.Getenv.
	Getenv func(string) string
	// Cwd resolves a relative Workdir; "" = os.Getwd.
	Cwd string
	// RuntimeVersion goes into MURMUR.md's generator line ("" = "dev").
	RuntimeVersion string
	// OnStage runs once the workdir is laid out (artifact and generated
	// shell-tool manifests written, grants placed): the on-stage hook
	// dispatch (hooks.OnStage), which gets the hooks' view of the staged
	// capsule, the one view through which a shell tool's manifest may
	// still change. An error fails staging; nil skips it.
	OnStage func(context.Context, HookView) error
	// Secrets is the session's redactor (Workdir.Secrets); nil makes one.
	// Staging adds inference.api_key to it either way.
	Secrets *redact.Redactor
}

// DefaultStores is Murmur's session resolution order: the project store
// <project dir>/.murmur/artifacts, then the global store
// ~/.murmur/artifacts.
func DefaultStores(projectDir string, getenv func(string) string) ([]Store, error) {
	project := registry.ProjectRoot(projectDir)
	global, err := registry.GlobalRoot(getenv)
	if err != nil {
		return nil, err
	}
	return []Store{
		{Name: project, Resolver: registry.NewLocal(project, nil)},
		{Name: global, Resolver: registry.NewLocal(global, nil)},
	}, nil
}

// ReadLock reads <project dir>/murmur.lock for Options.Lock: a missing
// file is (nil, nil), "no lock"; an unreadable or invalid one is
// E-RUN-003, reported before any artifact is looked at.
func ReadLock(path string) (*lockfile.Lock, error) {
	l, err := lockfile.Read(path)
	if err == nil {
		return l, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return nil, err
}

// defaults fills in what the caller left out; o is a copy.
func (o *Options) defaults() error {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return ioError("failed to get the working directory: "+err.Error(), err)
		}
		o.Cwd = wd
	}
	if o.RuntimeVersion == "" {
		o.RuntimeVersion = "dev"
	}
	if o.LockPath == "" {
		o.LockPath = filepath.Join(o.Manifest.Dir, lockfile.FileName)
	}
	if o.Platform == nil {
		if p, err := artifact.ParsePlatform(artifact.CurrentPlatform()); err == nil {
			o.Platform = &p
		}
	}
	if o.Stores == nil {
		st, err := DefaultStores(o.Manifest.Dir, o.Getenv)
		if err != nil {
			return err
		}
		o.Stores = st
	}
	return nil
}
