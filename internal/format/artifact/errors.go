package artifact

import (
	"errors"

	"github.com/mur-go/mur/internal/base/diag"
)

// Diagnostic codes this package reports. They are Murmur's codes, kept so
// that scripts and documentation written for Murmur keep working.
const (
	CodeBadName      = "E-BLD-001" // artifact name breaks the build naming rule
	CodeUnsafeFile   = "E-BLD-002" // unsafe, symlinked or colliding requires_files entry
	CodeNoPayload    = "E-BLD-003" // wasm artifact without exactly one root wasm
	CodeMissingField = "E-MAN-001" // required manifest field missing
	CodeSyntax       = "E-MAN-002" // manifest is not valid YAML
	CodeInvalid      = "E-MAN-003" // manifest field has the wrong type or value
	CodeNotFound     = "E-IO-001"  // an input the user named does not exist
	CodeIO           = "E-IO-003"  // any other I/O or archive failure
)

// Sentinels wrapped by Error so callers can branch with errors.Is.
var (
	// ErrEntryNotFound: the archive has no entry with the requested name.
	ErrEntryNotFound = errors.New("zip entry not found")
	// ErrUnsafeEntry: an entry name that could escape a directory.
	ErrUnsafeEntry = errors.New("unsafe zip entry")
	// ErrTooLarge: an entry decompresses past the ceiling, or the archive
	// has more entries than mur accepts.
	ErrTooLarge = errors.New("zip archive too large")
)

// Error is a failure carrying a Murmur diagnostic code and a hint that tells
// the user what to do next.
type Error = diag.Error

func newError(code, hint string, cause error, msg string) *Error {
	return &Error{Code: code, Msg: msg, Hint: hint, Err: cause}
}
