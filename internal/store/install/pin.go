package install

import "github.com/mur-go/mur/internal/format/lockfile"

// Pin is step 6: it upserts each entry into lock (a new lock when nil)
// and replaces the lock file at path atomically. Callers pin last, once
// everything they fetched is written.
func Pin(path string, lock *lockfile.Lock, entries ...lockfile.Entry) error {
	if lock == nil {
		lock = lockfile.New()
	}
	for _, e := range entries {
		lock.Upsert(e)
	}
	if err := lockfile.Write(path, lock); err != nil {
		return failure(StepPin, err)
	}
	return nil
}
