package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
)

// Project is Murmur's project checklist: every artifact murmur.yaml
// declares, looked for where `mur run` looks (the project store, then the
// global store, for this platform) and, when murmur.lock exists, held to
// it as `mur run` holds it. The checklist is the manifest: editing it
// changes what is checked.
type Project struct {
	Manifest string `json:"manifest"`
	// Platform is what the stores are asked for (linux-x86_64, …).
	Platform  string          `json:"platform"`
	Artifacts []ArtifactCheck `json:"artifacts"`
	// Passed and Failed count the artifacts.
	Passed int `json:"passed"`
	Failed int `json:"failed"`
}

// ArtifactCheck is one declared artifact's verdict.
type ArtifactCheck struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	OK      bool   `json:"ok"`
	// Local marks a source: entry, read from the filesystem at staging
	// and never looked up or locked.
	Local bool `json:"local,omitempty"`
	// Problem says what is wrong; Fix what to run or do.
	Problem string `json:"problem,omitempty"`
	Fix     string `json:"fix,omitempty"`
	// Expected and Actual are the lock's and the bytes' sha256 when they
	// differ.
	Expected string `json:"expected_sha256,omitempty"`
	Actual   string `json:"actual_sha256,omitempty"`
}

// errNoProject is the mark of "no murmur.yaml here or above".
var errNoProject = errors.New("no project root found")

// project finds murmur.yaml from dir upwards and checks it. Whatever stops
// the checklist (no project, a manifest or lock that does not read) is the
// error, and nothing is checked: a checklist of a file that cannot be read
// would only guess.
func project(ctx context.Context, dir string, getenv func(string) string) (*manifest.File, []manifest.Warning, *Project, error) {
	path, err := findManifest(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	f, warns, err := manifest.LoadWith(path, manifest.LoadOptions{Role: manifest.RoleCapsule})
	if err != nil {
		return nil, nil, nil, err
	}
	lock, err := stage.ReadLock(filepath.Join(f.Dir, lockfile.FileName))
	if err != nil {
		return nil, nil, nil, err
	}
	stores, err := stage.DefaultStores(f.Dir, getenv)
	if err != nil {
		return nil, nil, nil, err
	}
	p := &Project{Manifest: path, Platform: artifact.CurrentPlatform(), Artifacts: []ArtifactCheck{}}
	var plat *artifact.Platform
	if pl, err := artifact.ParsePlatform(p.Platform); err == nil {
		plat = &pl
	}
	fetcher := &install.Fetcher{Sources: stores}
	for i := range f.Capsule.Artifacts {
		c := check(ctx, fetcher, lock, &f.Capsule.Artifacts[i], plat)
		if c.OK {
			p.Passed++
		} else {
			p.Failed++
		}
		p.Artifacts = append(p.Artifacts, c)
	}
	return f, warns, p, nil
}

// check is one artifact's verdict, the three ways `mur run` rejects a
// locked artifact included: no entry (E-RUN-003), another version pinned
// (the manifest's edit is not what runs; the bytes are then not hashed, so
// one stale entry is one failure), other bytes pinned (E-REG-002).
func check(ctx context.Context, f *install.Fetcher, lock *lockfile.Lock, ref *manifest.ArtifactRef, plat *artifact.Platform) ArtifactCheck {
	c := ArtifactCheck{Name: ref.Name, Version: ref.Version}
	id := ref.Name + "@" + ref.Version
	if ref.IsLocal() {
		c.OK, c.Local = true, true
		return c
	}
	r, err := f.Resolve(ctx, install.Request{Name: ref.Name, Version: ref.Version, Platform: plat})
	switch {
	case errors.Is(err, registry.ErrNotFound):
		c.Problem, c.Fix = "missing", "mur install "+id
		return c
	case err != nil:
		c.Problem, c.Fix = "could not be read: "+err.Error(), "mur install "+id
		return c
	}
	if lock == nil {
		c.OK = true
		return c
	}
	e, ok := lock.Find(ref.Name)
	switch {
	case !ok:
		c.Problem, c.Fix = fmt.Sprintf("murmur.lock missing artifact entry for '%s'", ref.Name), "mur install "+id
	case e.ResolvedVersion != ref.Version:
		c.Problem = fmt.Sprintf("murmur.lock version mismatch for '%s': manifest requested %s, lock pinned %s", ref.Name, ref.Version, e.ResolvedVersion)
		c.Fix = fmt.Sprintf("%s: mur run stages the pinned %s; to run %s, remove its murmur.lock entry, then mur install %s", ref.Name, e.ResolvedVersion, ref.Version, id)
	default:
		if actual := artifact.SHA256Hex(r.Package.Data); !artifact.SameDigest(actual, e.SHA256.Wasm) {
			c.Problem = "artifact integrity check failed for " + id
			c.Expected, c.Actual = e.SHA256.Wasm, actual
			c.Fix = ref.Name + ": the package in the store does not match murmur.lock; reinstall what the lock pins, or remove its entry and mur install " + id
		} else {
			c.OK = true
		}
	}
	return c
}

// findManifest is the nearest murmur.yaml from dir upwards.
func findManifest(dir string) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, manifest.FileName)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		if d == filepath.Dir(d) {
			return "", &diag.Error{Code: artifact.CodeNotFound, Err: errors.Join(errNoProject, fs.ErrNotExist),
				Msg:  "no project root found (no murmur.yaml in " + dir + " or a parent directory)",
				Hint: "run mur doctor from inside a capsule project (the host report above does not need one)"}
		}
	}
}
