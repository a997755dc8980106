package sandbox

import (
	"errors"
	"strconv"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// maxDetail bounds what a trampoline child reports on the diagnostic
// pipe (§9.4).
const maxDetail = 1024

// CodeSealedRoot is the session-fatal failure of a composed root after
// the probe found the sealed class achievable.
const CodeSealedRoot diag.Code = "E-RUN-014"

// ErrSealedRoot is wrapped by every E-RUN-014 error.
var ErrSealedRoot = errors.New("the sealed root could not be built")

// SetupError is a trampoline child's report that it could not apply the
// containment before exec: the tool never ran (§9.4 fail closed). Detail
// is what the child wrote to the diagnostic pipe.
type SetupError struct{ Detail string }

func (e *SetupError) Error() string { return e.Detail }

// Fatal is the session-fatal E-RUN-014 error for a composed root that
// could not be built, nil for any other setup failure (an ordinary failed
// tool call).
func (e *SetupError) Fatal() error {
	d, ok := strings.CutPrefix(e.Detail, SealedRootPrefix)
	if !ok {
		return nil
	}
	return &diag.Error{Code: CodeSealedRoot, Err: ErrSealedRoot,
		Msg:  "the sealed containment class was achievable at launch but its composed root could not be built for this subprocess: " + strings.TrimSpace(d),
		Hint: "check that the paths the sealed root binds (the workdir, capabilities.shell.staged_runtime sources) exist and are readable, or lower the declared floor to 'scoped'"}
}

// clip cuts a detail to maxDetail bytes on a character boundary.
func clip(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	return strings.ToValidUTF8(s[:maxDetail], "")
}

// diagArg is the trampoline argument naming the diagnostic pipe; "-" is
// none (a caller that used Command itself): failures then go to stderr.
func (t Trampoline) diagArg() string {
	if t.diagFD < 3 {
		return "-"
	}
	return strconv.Itoa(t.diagFD)
}
