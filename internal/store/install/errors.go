package install

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/lockfile"
	"github.com/mur-go/mur/internal/store/registry"
)

// Step names a step of the pipeline, so a caller can tell where a fetch
// failed.
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

// Sentinels for errors.Is, one per failure class a caller may branch on.
// A guard-mode lock conflict is a *lockfile.ConflictError (errors.As).
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
)

// Error is a failed step for one artifact. Code, Msg and Hint are the
// diagnostic the user sees, in internal/diag's form; Err is the cause.
type Error struct {
	Code, Msg, Hint string
	Err             error
	Step            Step
	Name, Version   string
	// Source is the source involved, or for StepStore and StepPin the
	// destination ("" when none was).
	Source string
	// Entry is the archive entry an extract failed on: "" for the archive
	// itself, else the entry name (for a root wasm that could not be
	// selected, "" with Payload set).
	Entry string
	// Payload is the payload being read when an extract failed, PayloadNone
	// while the archive or its manifest was.
	Payload Payload
}

// Error renders the diagnostic: "error[CODE]: message" and a hint line.
func (e *Error) Error() string { return diag.Format(e.Code, e.Msg, e.Hint) }

func (e *Error) Unwrap() error { return e.Err }

// Diagnostic returns the code and hint.
func (e *Error) Diagnostic() (code, hint string) { return e.Code, e.Hint }

// failure wraps cause as a failure of step, keeping the cause's own code,
// message and hint when it has them.
func failure(step Step, name, version, source string, cause error) *Error {
	e := &Error{Step: step, Name: name, Version: version, Source: source}
	e.Err = cause
	var d *diag.Error
	var c *lockfile.ConflictError
	switch {
	case errors.As(cause, &d):
		e.Code, e.Msg, e.Hint = d.Code, d.Msg, d.Hint
	case errors.As(cause, &c):
		e.Code, e.Hint = c.Diagnostic()
		e.Msg = c.Message()
	default:
		e.Code, e.Msg = registry.CodeIO, cause.Error()
	}
	return e
}

func lockMissingEntry(name, version string) *Error {
	e := &Error{Step: StepLock, Name: name, Version: version}
	e.Code, e.Err = lockfile.CodeInvalid, ErrLockMissingEntry
	e.Msg = fmt.Sprintf("murmur.lock missing artifact entry for '%s'", name)
	e.Hint = "run `mur install` in the project to resolve it and pin it in murmur.lock"
	return e
}

func lockVersionMismatch(name, requested, pinned string) *Error {
	e := &Error{Step: StepLock, Name: name, Version: requested}
	e.Code, e.Err = lockfile.CodeInvalid, ErrLockVersionMismatch
	e.Msg = fmt.Sprintf("lockfile version mismatch for '%s': manifest requested %s, lock pinned %s", name, requested, pinned)
	e.Hint = fmt.Sprintf("to upgrade, delete the '%s' entry from murmur.lock and run `mur install`; to keep the pin, declare version %q in murmur.yaml",
		name, pinned)
	return e
}

func pinMismatch(name, version, pinned, recorded, source string) *Error {
	e := &Error{Step: StepLock, Name: name, Version: version, Source: source}
	e.Code, e.Err = registry.CodeIntegrity, ErrPinMismatch
	e.Msg = fmt.Sprintf("artifact integrity check failed for %s@%s", name, version)
	e.Hint = fmt.Sprintf("murmur.lock pins sha256 %s but %s holds %s: reinstall the pinned bytes with `mur install`, or delete the '%s' entry from murmur.lock if the new package is intended",
		pinned, source, recorded, name)
	return e
}
