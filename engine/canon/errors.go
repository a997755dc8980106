package canon

import (
	"fmt"
	"strings"
)

// Trap is a failure the guest caused: a malformed value in its memory or
// flat values, or a misbehaving realloc. The canonical ABI traps in these
// cases, so an engine should treat the instance as poisoned.
type Trap struct {
	Reason string
}

func (t *Trap) Error() string { return "canonical ABI trap: " + t.Reason }

func trap(format string, args ...any) error {
	return &Trap{Reason: fmt.Sprintf(format, args...)}
}

// ValueError reports a host value that does not fit its WIT type. It is a
// programming error on the host side, not the guest's fault, so it is kept
// apart from Trap.
type ValueError struct {
	// Path locates the value, outermost first, e.g. `param "input"`,
	// `record field "data"`.
	Path []string
	// Want is the WIT type; Got describes the Go value.
	Want, Got string
}

func (e *ValueError) Error() string {
	var b strings.Builder
	b.WriteString("canon: lower ")
	for _, p := range e.Path {
		b.WriteString(p)
		b.WriteString(": ")
	}
	b.WriteString("want ")
	b.WriteString(e.Want)
	b.WriteString(", got ")
	b.WriteString(e.Got)
	return b.String()
}

// mismatch reports that v's Go type is not the representation of t.
func mismatch(t *Type, v any) error {
	got := "nil"
	if v != nil {
		got = fmt.Sprintf("%T", v)
	}
	return &ValueError{Want: TypeString(t.wit), Got: got}
}

// badValue reports a value of the right Go type that is still invalid for t.
func badValue(t *Type, format string, args ...any) error {
	return &ValueError{Want: TypeString(t.wit), Got: fmt.Sprintf(format, args...)}
}

// at prefixes the location of a value to a ValueError on its way out;
// other errors pass unchanged. It only formats on the error path.
func at(err error, format string, args ...any) error {
	if ve, ok := err.(*ValueError); ok {
		ve.Path = append([]string{fmt.Sprintf(format, args...)}, ve.Path...)
	}
	return err
}

// missingOption reports that an operation needs a canonical option (memory,
// realloc, handles) the site does not provide. A validated component never
// causes it, so it is neither a Trap nor a ValueError.
type missingOption string

func (m missingOption) Error() string {
	return "canon: operation needs the " + string(m) + " canonical option, which is not set"
}
