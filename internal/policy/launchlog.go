package policy

import (
	"fmt"
	"slices"

	"github.com/mur-go/mur/internal/format/manifest"
)

// Prefixes of a W-SEC line: on stderr, and in logs/bootstrap.log (§9.1).
const (
	StderrPrefix    = "[capsule-runtime]"
	BootstrapPrefix = "[capability-policy]"
)

// LaunchLine renders w as Murmur prints a W-SEC warning:
// "<prefix> warning[<code>]: <msg> (<link>)".
func LaunchLine(prefix string, w manifest.Warning) string {
	s := fmt.Sprintf("%s warning[%s]: %s", prefix, w.Code, w.Msg)
	if l := w.DocLink(); l != "" {
		s += " (" + l + ")"
	}
	return s
}

// InBootstrapLog reports whether w is one of the launch warnings that
// also go to logs/bootstrap.log (§13: W-SEC-001, 002, 003, 005, 010); the
// staging-only ones are printed to stderr alone.
func InBootstrapLog(w manifest.Warning) bool {
	return slices.Contains([]string{manifest.WarnShellEnvOnly, manifest.WarnShellSeccompOnly, manifest.WarnBashNetwork,
		manifest.WarnShellKernel, manifest.WarnNoAggregateBound}, w.Code)
}
