package registry

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
)

// Diagnostic codes reported by this package.
const (
	CodeNotFound  diag.Code = "E-REG-001"
	CodeIntegrity diag.Code = "E-REG-002"
	CodeConflict  diag.Code = "E-REG-003"
	CodeReserved  diag.Code = "E-REG-004"
	CodeNoHome    diag.Code = "E-IO-001"
	CodeIO        diag.Code = "E-IO-003"
)

// Sentinels for errors.Is; every coded error of this package wraps one of
// them or an I/O cause.
var (
	ErrNotFound        = errors.New("artifact not found")
	ErrIntegrity       = errors.New("artifact integrity check failed")
	ErrConflict        = errors.New("artifact already exists")
	ErrReservedVersion = errors.New("reserved version")
	ErrInvalidInput    = errors.New("invalid registry input")
	ErrAuth            = errors.New("registry authentication failed")
	ErrProtocol        = errors.New("registry protocol error")
)

// NotFoundError is E-REG-001 for name@version.
func NotFoundError(name, version string) *diag.Error {
	return &diag.Error{Code: CodeNotFound, Err: ErrNotFound,
		Msg:  fmt.Sprintf("artifact %s@%s not found in registry", name, version),
		Hint: "check the name and version ('mur list -g' shows the local registry), or publish it first with 'mur publish'"}
}

// IntegrityError is E-REG-002: the bytes do not hash to the recorded sha256.
func IntegrityError(name, version, want, got string) *diag.Error {
	return &diag.Error{Code: CodeIntegrity, Err: ErrIntegrity,
		Msg: fmt.Sprintf("artifact integrity check failed for %s@%s", name, version),
		Hint: fmt.Sprintf("expected sha256 %s, got %s: the stored package was modified or corrupted; re-publish it, or delete the stale murmur.lock entry if the pin is wrong",
			want, got)}
}

func conflictError(name, version string) *diag.Error {
	return &diag.Error{Code: CodeConflict, Err: ErrConflict,
		Msg:  fmt.Sprintf("artifact %s@%s already exists in registry", name, version),
		Hint: "published versions are immutable: bump version: in murmur.yaml, rebuild and publish again, or remove the existing one"}
}

func reservedError(version string) *diag.Error {
	return &diag.Error{Code: CodeReserved, Err: ErrReservedVersion,
		Msg:  fmt.Sprintf("version '%s' is reserved and cannot be published", version),
		Hint: "latest, stable and edge are reserved; use a concrete version such as 1.0.0"}
}

func invalidInput(msg string) *diag.Error {
	return &diag.Error{Code: CodeIO, Err: ErrInvalidInput, Msg: "registry error: " + msg}
}

func ioError(err error) *diag.Error {
	return &diag.Error{Code: CodeIO, Err: err, Msg: fmt.Sprintf("registry I/O error: %v", err)}
}
