package stage

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// hookConfigError reports a hook whose own murmur.yaml breaks its contract
// (wit.md §6.1) as "hook <name>@<version> invalid config: <rule>", once:
// the manifest's message already carries that prefix, for the artifact's
// own name and version, which must be the ones the capsule staged.
func hookConfigError(name, version string, err error) *Error {
	rule := diag.Text(err)
	var me *manifest.Error
	if errors.As(err, &me) {
		rule = me.Msg
		if _, after, ok := strings.Cut(rule, "invalid config: "); ok {
			rule = after
		}
	}
	return &Error{Code: CodeIO, Artifact: name, Err: err,
		Msg:  fmt.Sprintf("hook %s@%s invalid config: %s", name, version, rule),
		Hint: "fix binding, execution_mode or commit_policy in the hook's own murmur.yaml and publish a new version"}
}
