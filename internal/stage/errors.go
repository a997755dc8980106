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
// archive) pass through unchanged.
const (
	CodeLock      diag.Code = "E-RUN-003" // lock invalid, entry missing
	CodeMissing   diag.Code = "E-RUN-008" // declared artifact in neither store
	CodeCompile   diag.Code = "E-RUN-001" // a component failed to compile
	CodeIntegrity           = registry.CodeIntegrity
	CodeNotFound  diag.Code = "E-IO-001"  // --workdir, a skill source, the manifest
	CodeIO        diag.Code = "E-IO-003"  // archive reads, writes, hook contracts
	CodeNetRule   diag.Code = "E-CAP-001" // from policy.NetworkRules
	CodeScope     diag.Code = "E-CAP-002" // from manifest.Capabilities.CheckScope
)

// Sentinels for errors.Is, one per failure class a caller may branch on.
var (
	// ErrLockMissingEntry: a registry artifact has no murmur.lock entry.
	ErrLockMissingEntry = install.ErrLockMissingEntry
	// ErrIntegrity is registry.ErrIntegrity: bytes, sidecar and lock
	// disagree.
	ErrIntegrity = registry.ErrIntegrity
	// ErrMissingArtifacts: artifacts in neither the project nor the global
	// store.
	ErrMissingArtifacts = errors.New("missing artifacts")
	// ErrWorkdir: --workdir is not an existing directory.
	ErrWorkdir = errors.New("workdir does not exist")
)

// fetchError is a failure of install's pipeline in staging's words: a
// store's corrupted package names the store (source), a refused archive
// gets a hint naming the entry's role. Anything else passes through with
// its code, message and hint.
func fetchError(ref *manifest.ArtifactRef, version, source string, err error) error {
	var d *diag.Error
	switch {
	case errors.Is(err, install.StepVerify):
		return storeIntegrity(ref.Name, version, source, err)
	case errors.Is(err, install.StepExtract) && errors.As(err, &d):
		d.Hint = fmt.Sprintf("the package is well-formed but not usable as a %s; rebuild it with `mur build` and publish a new version", ref.Runtime)
	}
	return err
}

func storeIntegrity(name, version, store string, cause error) *diag.Error {
	return diag.Wrap(CodeIntegrity, cause, "artifact integrity check failed for %s@%s", name, version).
		WithHint(fmt.Sprintf("the package in %s does not hash to its .sha256 sidecar (modified or corrupted): reinstall it with `mur install`", store))
}

func ioError(msg string, err error) *diag.Error {
	return &diag.Error{Code: CodeIO, Msg: msg, Err: err}
}
