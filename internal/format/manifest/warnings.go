package manifest

import (
	"fmt"
	"strings"
)

// Warning codes. W-SEC-* are Murmur's; W-MAN-* are mur-go's own for
// authoring problems Murmur lets pass silently or prints without a code.
const (
	// WarnUnknownKey: a key the schema does not know (typo, wrong level).
	WarnUnknownKey = "W-MAN-001"
	// WarnSourceVersion: a local-source artifact also declares a version.
	WarnSourceVersion = "W-MAN-002"
	// WarnUnknownScorer: an eval scorer type that is skipped.
	WarnUnknownScorer = "W-MAN-003"
	// WarnLiteralInterpolation: ${VAR} where it is not interpolated.
	WarnLiteralInterpolation = "W-MAN-004"
	// WarnArtifactCapabilities: capabilities in an artifact's own manifest,
	// which are never read.
	WarnArtifactCapabilities = "W-MAN-005"

	WarnShellEnvOnly       = "W-SEC-001"
	WarnShellSeccompOnly   = "W-SEC-002"
	WarnBashNetwork        = "W-SEC-003"
	WarnLiteralSecret      = "W-SEC-004"
	WarnShellKernel        = "W-SEC-005"
	WarnHookInert          = "W-SEC-006"
	WarnNetworkDropped     = "W-SEC-007"
	WarnToolInert          = "W-SEC-008"
	WarnInterpreterRuntime = "W-SEC-009"
	WarnNoAggregateBound   = "W-SEC-010"
	WarnWorkdirExec        = "W-SEC-011"
	WarnCompilerHelper     = "W-SEC-012"
)

// Warning is a non-fatal finding. The package never prints it; the CLI
// decides where it goes.
type Warning struct {
	Code   string
	File   string
	Path   string
	Line   int
	Column int
	Msg    string
	Hint   string
}

// DocLink is the diagnostics page anchor Murmur prints after a W-SEC line.
func (w Warning) DocLink() string {
	if !strings.HasPrefix(w.Code, "W-SEC-") {
		return ""
	}
	return "https://docs.murmur.nexus/murmur-nexus/murmur/reference/diagnostics/#" + strings.ToLower(w.Code)
}

// String renders "murmur.yaml:3:5: warning[W-MAN-001]: <msg> (hint: ...)".
func (w Warning) String() string {
	s := fmt.Sprintf("%s: warning[%s]: %s", At(w.File, "", w.Line, w.Column), w.Code, w.Msg)
	if w.Hint != "" {
		s += " (" + w.Hint + ")"
	}
	return s
}
