package binary

import (
	"errors"
	"fmt"
)

// Error classes. Every *DecodeError wraps exactly one of these, so callers
// and tests can tell failures apart with errors.Is.
var (
	ErrUnexpectedEOF = errors.New("unexpected end of input")
	ErrBadLEB128     = errors.New("malformed LEB128 integer")
	ErrBadUTF8       = errors.New("invalid UTF-8")
	ErrBadLength     = errors.New("length exceeds remaining input")
	ErrBadOpcode     = errors.New("unknown opcode")
	ErrBadPreamble   = errors.New("bad preamble")
	ErrSectionSize   = errors.New("section size mismatch")
	ErrTooDeep       = errors.New("nesting too deep")
	ErrInvalid       = errors.New("invalid encoding")
)

// DecodeError reports malformed input: the byte offset (into the top-level
// input) where decoding failed, the construct being decoded, and the cause.
type DecodeError struct {
	Offset    int
	Construct string
	Err       error
}

func (e *DecodeError) Error() string {
	if e.Construct == "" {
		return fmt.Sprintf("component binary: byte offset 0x%x: %v", e.Offset, e.Err)
	}
	return fmt.Sprintf("component binary: byte offset 0x%x: %s: %v", e.Offset, e.Construct, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// NotSupportedError reports well-formed input that uses a feature this
// host does not implement (async, values, GC, ...).
type NotSupportedError struct {
	Feature string
	Offset  int
}

func (e *NotSupportedError) Error() string {
	return fmt.Sprintf("not supported: %s (at byte offset %d)", e.Feature, e.Offset)
}

// classified carries a specific message while unwrapping to its class, so
// messages read naturally ("unknown canonical option 0x0a") and errors.Is
// still finds the class.
type classified struct {
	class error
	msg   string
}

func (e *classified) Error() string { return e.msg }
func (e *classified) Unwrap() error { return e.class }

// failAt builds a *DecodeError of the given class at offset off.
func failAt(off int, class error, format string, args ...any) error {
	return &DecodeError{Offset: off, Err: &classified{class: class, msg: fmt.Sprintf(format, args...)}}
}

// unsupported builds a *NotSupportedError at offset off.
func unsupported(off int, feature string) error {
	return &NotSupportedError{Feature: feature, Offset: off}
}

// within records the construct being decoded in a *DecodeError: it names
// the construct if none is set yet, otherwise it prefixes the existing
// construct with the enclosing one, building a path such as "type section
// entry 2: instance type declarator 0". Other errors pass through.
func within(err error, construct string) error {
	var de *DecodeError
	if !errors.As(err, &de) {
		return err
	}
	if de.Construct == "" {
		de.Construct = construct
	} else {
		de.Construct = construct + ": " + de.Construct
	}
	return err
}
