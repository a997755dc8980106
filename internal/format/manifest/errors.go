package manifest

import (
	"fmt"
	"strings"
)

// Error codes. They are Murmur's, kept verbatim so scripts and docs that
// match on them keep working.
const (
	// CodeMissingField: a required top-level field is absent or blank.
	CodeMissingField = "E-MAN-001"
	// CodeSyntax: the YAML does not parse, or (capsule role) a value has
	// the wrong type, as Murmur's typed decoder reports it.
	CodeSyntax = "E-MAN-002"
	// CodeInvalid: a semantic check failed (artifact entry, capability,
	// inference) or (artifact role) a value has the wrong type.
	CodeInvalid = "E-MAN-003"
	// CodeNotFound: the manifest file does not exist.
	CodeNotFound = "E-IO-001"
	// CodeIO: reading a file failed, or a .env / registry setting is bad.
	CodeIO = "E-IO-003"
	// CodeNetRule: a network.allow entry is malformed (checked at staging).
	CodeNetRule = "E-CAP-001"
	// CodeScope: a filesystem.scope escapes the workdir (checked at staging).
	CodeScope = "E-CAP-002"
	// CodeBuildName: an artifact name `mur build` refuses.
	CodeBuildName = "E-BLD-001"
)

// Error is one manifest problem. Msg is Murmur's message text without its
// leading "murmur.yaml: ", so the CLI can print either form; Path names the
// field ("artifacts[2].name"), and Line/Column (1-based, 0 = unknown) point
// at the offending node so an editor can jump to it.
type Error struct {
	Code   string
	File   string
	Path   string
	Line   int
	Column int
	Msg    string
	// Hint says what to do about it; empty when the message already does.
	Hint string
	// Err is the underlying cause, if any (I/O, rule parser).
	Err error
}

// Error renders the compiler-style form
//
//	murmur.yaml:4:7: error[E-MAN-003]: <message>
//	  hint: <hint>
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.location())
	fmt.Fprintf(&b, ": error[%s]: %s", e.Code, e.Msg)
	if e.Hint != "" {
		b.WriteString("\n  hint: ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// MurmurText is the message as Murmur prints it after "error[CODE]: ".
func (e *Error) MurmurText() string {
	return FileName + ": " + e.Msg
}

func (e *Error) location() string {
	f := e.File
	if f == "" {
		f = FileName
	}
	switch {
	case e.Line > 0 && e.Column > 0:
		return fmt.Sprintf("%s:%d:%d", f, e.Line, e.Column)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d", f, e.Line)
	}
	return f
}

// Unwrap exposes the cause for errors.Is/As.
func (e *Error) Unwrap() error { return e.Err }
