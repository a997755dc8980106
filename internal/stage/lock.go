package stage

import (
	"fmt"

	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/install"
)

// want is what staging asks the stores for: the version to resolve.
type want struct {
	ref     *manifest.ArtifactRef
	version string
}

// applyLock is §9.5 steps 2–3: every registry artifact needs an entry
// (E-RUN-003, the first missing one in manifest order, before anything is
// read), and is then asked for at the version the lock pins, as Murmur's
// `mur run` does (artifacts.md §12 #1): the lock, not a manifest edit,
// decides what runs until `mur install` pins anew. A manifest that asks
// for another version is not ignored without a word: each such artifact
// gets a note naming both versions, and `mur doctor` fails on it. Without
// a lock the manifest's versions are asked for.
func applyLock(c *manifest.Capsule, f *install.Fetcher) ([]want, []string, error) {
	var ws []want
	var notes []string
	for i := range c.Artifacts {
		ref := &c.Artifacts[i]
		if ref.IsLocal() {
			continue
		}
		version := ref.Version
		if e, ok := pinned(f.Lock, ref.Name); ok && e.ResolvedVersion != version {
			version = e.ResolvedVersion
			notes = append(notes, fmt.Sprintf("murmur.lock pins %s at %s and murmur.yaml asks for %s: running the pinned %s (to move to %s, remove its entry from murmur.lock and run mur install)",
				ref.Name, version, ref.Version, version, ref.Version))
		}
		if err := f.CheckPinned(ref.Name, version); err != nil {
			return nil, nil, fetchError(ref, version, "", err)
		}
		ws = append(ws, want{ref: ref, version: version})
	}
	return ws, notes, nil
}

// pinned is the lock's entry for name; none without a lock.
func pinned(l *lockfile.Lock, name string) (lockfile.Entry, bool) {
	if l == nil {
		return lockfile.Entry{}, false
	}
	return l.Find(name)
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
