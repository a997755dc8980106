package provision

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// parallelism bounds the concurrent downloads of one capsule's install.
const parallelism = 4

// Options say what Capsule installs, from where and into which store.
type Options struct {
	// Manifest is the capsule's murmur.yaml, which says what to install;
	// the murmur.lock beside it is checked and receives the pins, and
	// (unless Global) the project store beside it the packages.
	Manifest string
	// Registry chooses the registry to install from as registry.Select
	// does: a URL, "local", or "" for the registry block of the
	// murmur.yaml in SelectDir ("" is the manifest's directory). The
	// built-in artifacts stand behind it.
	Registry, SelectDir string
	// PlainHTTP allows HTTP to an oci:// registry not on loopback.
	PlainHTTP bool
	// Global stores the packages in the global store instead of the
	// project's; the pins still go to the project's murmur.lock.
	Global bool
	// Getenv reads HOME for the global store and the registry's
	// credentials (NEXUS_API_KEY; DOCKER_CONFIG for an OCI registry); nil
	// is os.Getenv.
	Getenv func(string) string
	// Log receives the registries' diagnostics; nil is slog.Default().
	Log *slog.Logger
	// OnDone, if set, is called as each artifact finishes, one call at a
	// time, with how many have finished.
	OnDone func(d Declared, done, total int, err error)
}

// Report is what Capsule did, index by index in declaration order.
type Report struct {
	Declared []Declared
	// Installed holds each success (zero where it failed); Errs each
	// failure (nil where it succeeded).
	Installed []Installed
	Errs      []error
	// Target is the registry chosen; Store is the store the packages
	// went to, LockPath the murmur.lock that pins them.
	Target          registry.Target
	Store, LockPath string
	// Pinned reports that murmur.lock was written: every artifact was
	// installed.
	Pinned bool
}

// Capsule installs every registry artifact the capsule manifest declares,
// in parallel, then pins them in murmur.lock, all or none: a lock
// pinning some of what the manifest declares would hold a later run to
// a part of the capsule. A failed artifact does not stop the others from
// being installed into the store (a later install finds them there); it
// is in Report.Errs, and murmur.lock is then left as it was. The error is
// what stopped the whole install (the manifest, the lock, the store or
// the registry could not be opened) or the pins that could not be
// written; the Report is filled as far as it got.
func Capsule(ctx context.Context, o Options) (Report, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	var rep Report
	want, err := ReadDeclared(o.Manifest)
	if err != nil || len(want) == 0 {
		return rep, err
	}
	rep.Declared = want
	root := filepath.Dir(o.Manifest)
	dst, err := Store(root, o.Global, o.Getenv, o.Log)
	if err != nil {
		return rep, err
	}
	rep.Store, rep.LockPath = dst.Root(), filepath.Join(root, lockfile.FileName)
	lock, err := lockfile.ReadOrNew(rep.LockPath)
	if err != nil {
		return rep, err
	}
	if o.SelectDir == "" {
		o.SelectDir = root
	}
	if rep.Target, err = registry.Select(o.Registry, o.SelectDir); err != nil {
		return rep, err
	}
	src, err := Open(rep.Target, o.PlainHTTP, o.Getenv, o.Log)
	if err != nil {
		return rep, err
	}
	f := &install.Fetcher{Sources: Sources(install.Source{Name: rep.Target.String(), Resolver: src}), Lock: lock, Mode: install.Guard, Getenv: o.Getenv}
	rep.Installed, rep.Errs = fetchAll(ctx, f, dst, want, o.OnDone)
	pins := make([]lockfile.Entry, 0, len(rep.Installed))
	for i, r := range rep.Installed {
		if rep.Errs[i] != nil {
			return rep, nil
		}
		pins = append(pins, r.Pin)
	}
	err = install.Pin(rep.LockPath, lock, pins...)
	rep.Pinned = err == nil
	return rep, err
}

// Store is where packages are installed: the global store when global,
// else the project store of the capsule in root.
func Store(root string, global bool, getenv func(string) string, log *slog.Logger) (*registry.Local, error) {
	if !global {
		return registry.NewLocal(registry.ProjectRoot(root), log), nil
	}
	g, err := registry.GlobalRoot(getenv)
	if err != nil {
		return nil, err
	}
	return registry.NewLocal(g, log), nil
}

// fetchAll installs each artifact with bounded parallelism. Results and
// errors are by index.
func fetchAll(ctx context.Context, f *install.Fetcher, dst *registry.Local, want []Declared, onDone func(Declared, int, int, error)) ([]Installed, []error) {
	results, errs := make([]Installed, len(want)), make([]error, len(want))
	var mu sync.Mutex
	done := 0
	sem := make(chan struct{}, parallelism)
	var wg sync.WaitGroup
	for i, d := range want {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			r, err := Artifact(ctx, f, dst, d.Name, d.Version)
			mu.Lock()
			defer mu.Unlock()
			results[i], errs[i] = r, err
			done++
			if onDone != nil {
				onDone(d, done, len(want), err)
			}
		})
	}
	wg.Wait()
	return results, errs
}
