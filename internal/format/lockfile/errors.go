package lockfile

import (
	"errors"
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
)

// Diagnostic codes reported by this package.
const (
	CodeConflict diag.Code = "E-REG-005" // install resolves something other than the pin
	CodeIO       diag.Code = "E-IO-003"  // reading or writing the file failed
	CodeInvalid  diag.Code = "E-RUN-003" // the lock does not parse or validate
)

// Sentinels for errors.Is, wrapped by the coded errors.
var (
	// ErrInvalid is wrapped by every parse and validation failure.
	ErrInvalid = errors.New("invalid murmur.lock")
	// ErrConflict is wrapped by E-REG-005: the registry resolves
	// name@version to bytes other than the ones pinned. Nothing was stored
	// and the lock is untouched.
	ErrConflict = errors.New("murmur.lock conflict")
)

func conflict(name, pinnedVersion, pinnedSHA, version, sha string) error {
	return diag.Wrap(CodeConflict, ErrConflict,
		"murmur.lock conflict for '%s': pinned %s@%s (sha256 %s), but the registry now resolves %s@%s (sha256 %s)",
		name, name, pinnedVersion, pinnedSHA, name, version, sha).
		WithHint(fmt.Sprintf("to upgrade on purpose, remove the '%s' entry from murmur.lock and install again; otherwise ask who republished %s@%s",
			name, name, version))
}
