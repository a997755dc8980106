// Package validate is the component engine's first validation pass: one
// walk over the decoded tree, every nested component and type included,
// checking names, index bounds, outer aliases, type well-formedness and
// extern descriptors (see RATIONALE.md, "Validation"). It also names the
// rules the later passes check (package plan): every refusal is an *Error
// naming its rule.
package validate

import (
	"fmt"

	"github.com/mur-go/mur/engine/component/internal/ast"
)

// Error is a rule of the component model's validation that a component
// breaks; the engine reports it as a *component.ValidationError.
type Error struct {
	Rule   string
	Offset int
	Msg    string
}

func (e *Error) Error() string {
	return fmt.Sprintf("invalid component: %s [rule %s] (at byte offset %#x)", e.Msg, e.Rule, e.Offset)
}

// Invalid is the Error of rule broken at byte offset off.
func Invalid(rule string, off int, format string, args ...any) *Error {
	return &Error{Rule: rule, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// DefInvalid is Invalid at a definition's offset.
func DefInvalid(d ast.Def, rule, format string, args ...any) error {
	return Invalid(rule, ast.DefOffset(d), format, args...)
}
