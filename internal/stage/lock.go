package stage

import (
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/install"
)

// want is what staging asks the stores for: the version to resolve.
type want struct {
	ref     *manifest.ArtifactRef
	version string
}

// applyLock is §9.5 steps 2–3 and 6: every registry artifact needs an entry,
// and the entry must pin the version the manifest asks for (the frozen
// lock check of install, run for all artifacts before any is resolved).
// Murmur's CLI silently substitutes the pinned version instead
// (artifacts.md §12 #1); mur-go reports the mismatch, as Murmur's docs and
// `mur doctor` do, so a manifest edit is never ignored without a word. The
// first failure, in manifest order, is returned; nothing has been read or
// written yet.
func applyLock(c *manifest.Capsule, f *install.Fetcher) ([]want, error) {
	var ws []want
	for i := range c.Artifacts {
		ref := &c.Artifacts[i]
		if ref.IsLocal() {
			continue
		}
		if err := f.CheckPinned(ref.Name, ref.Version); err != nil {
			return nil, fetchError(ref, ref.Version, "", err)
		}
		ws = append(ws, want{ref: ref, version: ref.Version})
	}
	return ws, nil
}

// pins are the lock entries of the registry-resolved artifacts, in
// manifest order: what `mur run` writes when no lock existed.
func pins(arts []*Artifact) []lockfile.Entry {
	var es []lockfile.Entry
	for _, a := range arts {
		if a.Local {
			continue
		}
		es = append(es, lockfile.Entry{Name: a.Name, ResolvedVersion: a.Version, SHA256: lockfile.Hashes{Wasm: a.SHA256}})
	}
	return es
}

// WriteLockIfAbsent writes Pins as a new murmur.lock when staging ran
// without one (Murmur's mur run does this after staging succeeds), and
// reports whether it wrote. An existing lock is never modified. As in
// Murmur, a capsule without registry artifacts gets a lock with none.
func (s *Staged) WriteLockIfAbsent() (bool, error) {
	if s.lock != nil {
		return false, nil
	}
	if err := install.Pin(s.LockPath, nil, s.Pins...); err != nil {
		return false, err
	}
	return true, nil
}
