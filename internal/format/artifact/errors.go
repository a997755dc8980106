package artifact

import (
	"errors"

	"github.com/mur-go/mur/internal/base/artifactname"
	"github.com/mur-go/mur/internal/base/diag"
)

// Diagnostic codes this package reports. They are Murmur's codes, kept so
// that scripts and documentation written for Murmur keep working.
const (
	CodeBadName                = artifactname.Code // artifact name breaks the build naming rule
	CodeUnsafeFile   diag.Code = "E-BLD-002"       // unsafe, symlinked or colliding requires_files entry
	CodeNoPayload    diag.Code = "E-BLD-003"       // wasm artifact without exactly one root wasm
	CodeMissingField diag.Code = "E-MAN-001"       // required manifest field missing
	CodeSyntax       diag.Code = "E-MAN-002"       // manifest is not valid YAML
	CodeInvalid      diag.Code = "E-MAN-003"       // manifest field has the wrong type or value
	CodeNotFound     diag.Code = "E-IO-001"        // an input the user named does not exist
	CodeIO           diag.Code = "E-IO-003"        // any other I/O or archive failure
)

// Sentinels the coded errors wrap so callers can branch with errors.Is.
var (
	// ErrEntryNotFound: the archive has no entry with the requested name.
	ErrEntryNotFound = errors.New("zip entry not found")
	// ErrUnsafeEntry: an entry name that could escape a directory.
	ErrUnsafeEntry = errors.New("unsafe zip entry")
	// ErrTooLarge: an entry decompresses past the ceiling, or the archive
	// has more entries than mur accepts.
	ErrTooLarge = errors.New("zip archive too large")
)

func newError(code diag.Code, hint string, cause error, msg string) *diag.Error {
	return &diag.Error{Code: code, Msg: msg, Hint: hint, Err: cause}
}
