package stage

import (
	"errors"
	"fmt"
	"github.com/mur-go/mur/internal/diag"

	"github.com/mur-go/mur/registry"
)

// Diagnostic codes Stage reports itself. Codes raised by the packages it
// calls (E-MAN-*, E-CAP-001/002, E-REG-00x from a store, E-IO-003 from an
// archive) pass through unchanged inside a *Error or as they came.
const (
	CodeLock      = "E-RUN-003" // lock invalid, entry missing, version mismatch
	CodeMissing   = "E-RUN-008" // declared artifact in neither store
	CodeCompile   = "E-RUN-001" // a component failed to compile
	CodeIntegrity = registry.CodeIntegrity
	CodeNotFound  = "E-IO-001"  // --workdir, a skill source, the manifest
	CodeIO        = "E-IO-003"  // archive reads, writes, hook contracts
	CodeNetRule   = "E-CAP-001" // from policy.NetworkRules
	CodeScope     = "E-CAP-002" // from manifest.Capabilities.CheckScope
)

// Sentinels for errors.Is, one per failure class a caller may branch on.
var (
	// ErrLockMissingEntry: a registry artifact has no murmur.lock entry.
	ErrLockMissingEntry = errors.New("murmur.lock missing artifact entry")
	// ErrLockVersionMismatch: the manifest asks for another version than
	// the lock pins.
	ErrLockVersionMismatch = errors.New("lockfile version mismatch")
	// ErrIntegrity is registry.ErrIntegrity: bytes, sidecar and lock
	// disagree.
	ErrIntegrity = registry.ErrIntegrity
	// ErrMissingArtifacts: artifacts in neither the project nor the global
	// store.
	ErrMissingArtifacts = errors.New("missing artifacts")
	// ErrWorkdir: --workdir is not an existing directory.
	ErrWorkdir = errors.New("workdir does not exist")
)

// Error is a staging failure with Murmur's diagnostic code and a hint that
// says what to do next. Artifact names the artifact concerned, if any.
type Error struct {
	Code     string
	Msg      string
	Hint     string
	Artifact string
	Err      error
}

// Error renders "error[CODE]: message" plus a "  hint: …" line, the form
// every mur-go package prints.
func (e *Error) Error() string { return diag.Format(e.Code, e.Msg, e.Hint) }

func (e *Error) Unwrap() error { return e.Err }

// Diagnostic returns the code and hint.
func (e *Error) Diagnostic() (code, hint string) { return e.Code, e.Hint }

func lockMissingEntry(name string) *Error {
	return &Error{Code: CodeLock, Artifact: name, Err: ErrLockMissingEntry,
		Msg:  fmt.Sprintf("murmur.lock missing artifact entry for '%s'", name),
		Hint: "run `mur install` in the project to resolve it and pin it in murmur.lock"}
}

func lockVersionMismatch(name, requested, pinned string) *Error {
	return &Error{Code: CodeLock, Artifact: name, Err: ErrLockVersionMismatch,
		Msg: fmt.Sprintf("lockfile version mismatch for '%s': manifest requested %s, lock pinned %s", name, requested, pinned),
		Hint: fmt.Sprintf("to upgrade, delete the '%s' entry from murmur.lock and run `mur install`; to keep the pin, declare version %q in murmur.yaml",
			name, pinned)}
}

func lockIntegrity(name, version, pinned, recorded, store string) *Error {
	return &Error{Code: CodeIntegrity, Artifact: name, Err: ErrIntegrity,
		Msg: fmt.Sprintf("artifact integrity check failed for %s@%s", name, version),
		Hint: fmt.Sprintf("murmur.lock pins sha256 %s but %s holds %s: reinstall the pinned bytes with `mur install`, or delete the '%s' entry from murmur.lock if the new package is intended",
			pinned, store, recorded, name)}
}

func storeIntegrity(name, version, store string, cause error) *Error {
	return &Error{Code: CodeIntegrity, Artifact: name, Err: cause,
		Msg:  fmt.Sprintf("artifact integrity check failed for %s@%s", name, version),
		Hint: fmt.Sprintf("the package in %s does not hash to its .sha256 sidecar (modified or corrupted): reinstall it with `mur install`", store)}
}

func ioError(name, msg string, err error) *Error {
	return &Error{Code: CodeIO, Artifact: name, Msg: msg, Err: err}
}
