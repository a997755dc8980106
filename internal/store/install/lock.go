package install

import "github.com/mur-go/mur/internal/format/artifact"

// CheckPinned is the part of a frozen lock check that needs no bytes: the
// artifact has an entry and it pins this version. `mur run` runs it for
// every artifact before resolving any, so a stale lock is reported before
// a missing package. Without a lock, or in Guard mode, it passes.
func (f *Fetcher) CheckPinned(name, version string) error {
	if f.Lock == nil || f.Mode != Frozen {
		return nil
	}
	e, ok := f.Lock.Find(name)
	if !ok {
		return lockMissingEntry(name)
	}
	if e.ResolvedVersion != version {
		return lockVersionMismatch(name, version, e.ResolvedVersion)
	}
	return nil
}

// checkLock is step 3, once the bytes are verified to be sha.
func (f *Fetcher) checkLock(r *Resolved, sha string) error {
	if f.Lock == nil {
		return nil
	}
	if f.Mode == Guard {
		if err := f.Lock.CheckInstall(r.Name, r.Version, sha); err != nil {
			return failure(StepLock, err)
		}
		return nil
	}
	if err := f.CheckPinned(r.Name, r.Version); err != nil {
		return err
	}
	if e, _ := f.Lock.Find(r.Name); !artifact.SameDigest(e.SHA256.Wasm, sha) {
		return pinMismatch(r.Name, r.Version, e.SHA256.Wasm, sha, r.Source.Name)
	}
	return nil
}
