package tools

import (
	"fmt"

	"github.com/mur-go/mur/internal/sandbox"
)

// enforcementFailed is a trampoline's setup failure as a tool call
// reports it (security.md §5.3, §9.4): a composed root that could not be
// built is the session-fatal E-RUN-014 (errors.Is sandbox.ErrSealedRoot);
// anything else fails just this call, with the child's detail.
func enforcementFailed(what string, e *sandbox.SetupError) error {
	if f := e.Fatal(); f != nil {
		return f
	}
	return fmt.Errorf("sandbox: %s enforcement setup failed before exec: %s", what, e.Detail)
}
