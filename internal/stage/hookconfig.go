package stage

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// hookConfigError reports a hook whose own murmur.yaml breaks its contract
// (wit.md §6.1) as "hook <name>@<version> invalid config: <rule>", once:
// the manifest's message already carries that prefix, for the artifact's
// own name and version, which must be the ones the capsule staged.
func hookConfigError(name, version string, err error) *diag.Error {
	rule := diag.Text(err)
	var me *diag.Error
	if errors.As(err, &me) {
		rule = me.Msg
		if _, after, ok := strings.Cut(rule, "invalid config: "); ok {
			rule = after
		}
	}
	return &diag.Error{Code: CodeIO, Err: err,
		Msg:  fmt.Sprintf("hook %s@%s invalid config: %s", name, version, rule),
		Hint: "fix binding, execution_mode or commit_policy in the hook's own murmur.yaml and publish a new version"}
}
