package install

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/registry"
)

// Step names a step of the pipeline. Every failure is marked with the
// step it failed at, so a caller can tell where a fetch failed:
// errors.Is(err, install.StepVerify).
type Step string

// The steps, in pipeline order.
const (
	StepResolve Step = "resolve"
	StepVerify  Step = "verify"
	StepLock    Step = "lock"
	StepExtract Step = "extract"
	StepStore   Step = "store"
	StepPin     Step = "pin"
)

// Error makes a Step a mark in an error's chain; it is never the text a
// user sees.
func (s Step) Error() string { return "install step " + string(s) }

// Error makes a Payload a mark: an extract failure reading a payload is
// marked with it.
func (p Payload) Error() string { return fmt.Sprintf("install payload %d", int(p)) }

// Sentinels for errors.Is, one per failure class a caller may branch on.
// A guard-mode lock conflict is lockfile.ErrConflict.
var (
	// ErrNotFound: no source has name@version.
	ErrNotFound = registry.ErrNotFound
	// ErrIntegrity: the bytes do not hash to the recorded digest, or (frozen
	// lock) the digest is not the pinned one.
	ErrIntegrity = registry.ErrIntegrity
	// ErrPinMismatch: murmur.lock pins other bytes (frozen lock). It is
	// also ErrIntegrity.
	ErrPinMismatch = fmt.Errorf("murmur.lock pins other bytes: %w", registry.ErrIntegrity)
	// ErrLockMissingEntry: a frozen lock has no entry for the artifact.
	ErrLockMissingEntry = errors.New("murmur.lock missing artifact entry")
	// ErrLockVersionMismatch: a frozen lock pins another version.
	ErrLockVersionMismatch = errors.New("lockfile version mismatch")
	// ErrManifest marks an extract failure on the package's murmur.yaml
	// (one on a payload is marked with its Payload).
	ErrManifest = errors.New("unreadable murmur.yaml in the package")
)

// failure is cause as a failure of step: a coded cause (a store's, the
// lock's) as it came, anything else as E-IO-003 in its own words.
func failure(step Step, cause error) error {
	var d *diag.Error
	if !errors.As(cause, &d) {
		cause = diag.Wrap(registry.CodeIO, cause, "%v", cause)
	}
	return diag.Mark(cause, step)
}

func lockMissingEntry(name string) error {
	return diag.Mark(diag.Wrap(lockfile.CodeInvalid, ErrLockMissingEntry, "murmur.lock missing artifact entry for '%s'", name).
		WithHint("run `mur install` in the project to resolve it and pin it in murmur.lock"), StepLock)
}

func lockVersionMismatch(name, requested, pinned string) error {
	return diag.Mark(diag.Wrap(lockfile.CodeInvalid, ErrLockVersionMismatch,
		"lockfile version mismatch for '%s': manifest requested %s, lock pinned %s", name, requested, pinned).
		WithHint(fmt.Sprintf("to upgrade, delete the '%s' entry from murmur.lock and run `mur install`; to keep the pin, declare version %q in murmur.yaml",
			name, pinned)), StepLock)
}

func pinMismatch(name, version, pinned, recorded, source string) error {
	return diag.Mark(diag.Wrap(registry.CodeIntegrity, ErrPinMismatch, "artifact integrity check failed for %s@%s", name, version).
		WithHint(fmt.Sprintf("murmur.lock pins sha256 %s but %s holds %s: reinstall the pinned bytes with `mur install`, or delete the '%s' entry from murmur.lock if the new package is intended",
			pinned, source, recorded, name)), StepLock)
}
