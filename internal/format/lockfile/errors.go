package lockfile

import (
	"errors"
	"fmt"
	"github.com/mur-go/mur/internal/base/diag"
)

// Diagnostic codes reported by this package.
const (
	CodeConflict = "E-REG-005" // install resolves something other than the pin
	CodeIO       = "E-IO-003"  // reading or writing the file failed
	CodeInvalid  = "E-RUN-003" // the lock does not parse or validate
)

// ErrInvalid is wrapped by every parse and validation failure.
var ErrInvalid = errors.New("invalid murmur.lock")

// Error is a failure with a Murmur diagnostic code and a next-step hint.
type Error = diag.Error

// ConflictError is E-REG-005: the registry resolves name@version to bytes
// other than the ones pinned. Nothing was stored and the lock is untouched.
type ConflictError struct {
	Name, PinnedVersion, PinnedSHA256 string
	Version, SHA256                   string
}

func (e *ConflictError) Error() string {
	code, hint := e.Diagnostic()
	return fmt.Sprintf("error[%s]: %s\n  hint: %s", code, e.Message(), hint)
}

// Message is Murmur's text without the code.
func (e *ConflictError) Message() string {
	return fmt.Sprintf("murmur.lock conflict for '%s': pinned %s@%s (sha256 %s), but the registry now resolves %s@%s (sha256 %s)",
		e.Name, e.Name, e.PinnedVersion, e.PinnedSHA256, e.Name, e.Version, e.SHA256)
}

// Diagnostic returns the code and hint.
func (e *ConflictError) Diagnostic() (code, hint string) {
	return CodeConflict, fmt.Sprintf("to upgrade on purpose, remove the '%s' entry from murmur.lock and install again; otherwise ask who republished %s@%s",
		e.Name, e.Name, e.Version)
}
