package stage

import (
	"errors"
	"fmt"
	"github.com/mur-go/mur/internal/base/diag"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
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
	ErrLockMissingEntry = install.ErrLockMissingEntry
	// ErrLockVersionMismatch: the manifest asks for another version than
	// the lock pins.
	ErrLockVersionMismatch = install.ErrLockVersionMismatch
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

// fetchError is a failure of install's pipeline in staging's words: the
// lock and extract diagnostics keep their code and message (a refused
// archive gets a hint naming the entry's role), a store's corrupted
// package names the store. Anything else passes through.
func fetchError(ref *manifest.ArtifactRef, err error) error {
	var ie *install.Error
	if !errors.As(err, &ie) {
		return err
	}
	switch ie.Step {
	case install.StepVerify:
		return storeIntegrity(ie.Name, ie.Version, ie.Source, ie)
	case install.StepExtract:
		return &Error{Code: CodeIO, Artifact: ref.Name, Err: ie, Msg: ie.Msg,
			Hint: fmt.Sprintf("the package is well-formed but not usable as a %s; rebuild it with `mur build` and publish a new version", ref.Runtime)}
	}
	return &Error{Code: ie.Code, Artifact: ref.Name, Err: ie, Msg: ie.Msg, Hint: ie.Hint}
}

func storeIntegrity(name, version, store string, cause error) *Error {
	return &Error{Code: CodeIntegrity, Artifact: name, Err: cause,
		Msg:  fmt.Sprintf("artifact integrity check failed for %s@%s", name, version),
		Hint: fmt.Sprintf("the package in %s does not hash to its .sha256 sidecar (modified or corrupted): reinstall it with `mur install`", store)}
}

func ioError(name, msg string, err error) *Error {
	return &Error{Code: CodeIO, Artifact: name, Msg: msg, Err: err}
}
