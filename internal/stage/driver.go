package stage

import (
	"fmt"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/format/manifest"
)

// CodeDriver is Murmur's E-RUN-006 for a driver that is not installed: an
// inference.driver.artifact no entry of artifacts names.
const CodeDriver diag.Code = "E-RUN-006"

// checkDriver refuses an agent capsule under transport: http whose
// inference.driver.artifact names none of its artifacts (one that is not
// a WASM driver is the launcher's to refuse, as in Murmur). Murmur
// finds this at launch, after every artifact was looked for (E-RUN-003,
// E-RUN-008) and the local skill sources read, so it comes after those
// here too; but before the workdir exists, so the refusal leaves nothing
// behind.
func checkDriver(c *manifest.Capsule) error {
	inf := c.Inference
	if inf == nil || inf.Transport != "http" || inf.Driver == nil {
		return nil
	}
	name := inf.Driver.Artifact
	if _, ok := c.Artifact(name); ok {
		return nil
	}
	return diag.New(CodeDriver, "inference driver '%s' is not declared: inference.driver.artifact must name an artifacts entry with runtime: driver", name).
		WithHint(fmt.Sprintf("add `- name: %s` with its version and `runtime: driver` to artifacts in murmur.yaml, then mur install", name))
}
