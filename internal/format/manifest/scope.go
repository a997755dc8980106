package manifest

import (
	"path/filepath"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
)

// CheckScope validates filesystem.scope (E-CAP-002): it must be relative
// and must not climb out of the workdir with "..". path names the block.
func (c *Capabilities) CheckScope(path string) error {
	s := c.Scope()
	if s == "" {
		return nil
	}
	fail := func(reason string) error {
		p := c.Filesystem.ScopePos
		return diag.New(CodeScope, "invalid filesystem scope '%s': %s", s, reason).
			WithHint("use a path inside the workdir such as `.` or `data/out`").
			At(At("", join(path, "filesystem.scope"), p.Line, p.Column))
	}
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) {
		return fail("scope must be relative to the workdir")
	}
	if filepath.VolumeName(s) != "" {
		return fail("scope must not contain absolute or prefixed components")
	}
	depth := 0
	for _, comp := range strings.Split(filepath.ToSlash(s), "/") {
		switch comp {
		case "", ".":
		case "..":
			if depth == 0 {
				return fail("scope cannot escape the workdir via '..'")
			}
			depth--
		default:
			depth++
		}
	}
	return nil
}
