package component

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

// ValidationError reports a component the component model's validation
// rules reject. Rule names the rule ("names.label", "canon.memory", ...;
// see validate_*.go) so callers and tests can branch on it; Offset is the
// byte offset in the top-level binary of the definition that breaks it.
type ValidationError struct {
	Rule   string
	Offset int
	Msg    string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("invalid component: %s [rule %s] (at byte offset %#x)", e.Msg, e.Rule, e.Offset)
}

func invalid(rule string, off int, format string, args ...any) *ValidationError {
	return &ValidationError{Rule: rule, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// defInvalid is invalid at a definition's offset.
func defInvalid(d ast.Def, rule, format string, args ...any) error {
	return invalid(rule, defOffset(d), format, args...)
}
