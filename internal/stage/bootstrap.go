package stage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/policy"
	"github.com/mur-go/mur/internal/sandbox"
)

// BootstrapLog is logs/bootstrap.log's name in the session dir.
const BootstrapLog = "bootstrap.log"

// writeBootstrapLog appends what the capability policy decided to
// logs/bootstrap.log: the containment classes, the rlimits every native
// subprocess starts under, and the launch W-SEC warnings (§9.1). root is
// the session dir; a planted link is refused, never followed.
func (s *Staged) writeBootstrapLog(root *os.Root) error {
	var b strings.Builder
	p := policy.BootstrapPrefix
	// The tier applied and what it installs (the host's own mechanism is
	// the trace's and --explain-scope's).
	fmt.Fprintf(&b, "%s containment: declared '%s', achieved '%s', tier %s (%s)\n",
		p, s.Containment.Declared, s.Containment.Achieved, s.Containment.Tier(), s.Containment.Tier().Mechanism())
	fmt.Fprintf(&b, "%s native subprocess limits: %s\n", p, s.NativeLimits())
	for _, w := range s.SecurityWarnings {
		if policy.InBootstrapLog(w) {
			b.WriteString(policy.LaunchLine(p, w) + "\n")
		}
	}
	rel := filepath.Join("logs", BootstrapLog)
	if err := confined.WriteFile(root, rel, []byte(b.String()), 0o644, os.O_CREATE|os.O_APPEND); err != nil {
		return ioError(fmt.Sprintf("failed to write %s: %v", filepath.Join(s.LogsDir, BootstrapLog), err), err)
	}
	return nil
}

// NativeLimits are the rlimits every native subprocess of the session
// starts under: capabilities.resources, defaults filling the rest.
func (s *Staged) NativeLimits() sandbox.Rlimits {
	return sandbox.RlimitsFor(s.Ceiling.Resources)
}
