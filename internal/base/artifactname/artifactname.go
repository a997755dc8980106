// Package artifactname is `mur build`'s artifact name rule (E-BLD-001),
// once for manifest and artifact: artifact must not import manifest, and
// manifest may import only internal helpers, so the rule lives below both.
package artifactname

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mur-go/mur/internal/base/diag"
)

// Code is Murmur's E-BLD-001, a name `mur build` refuses.
const Code diag.Code = "E-BLD-001"

// MaxLen is the longest name, in characters (Unicode code points, as
// Murmur counts them), that `mur build` accepts.
const MaxLen = 100

// Hint is what a user is told to do about a refused name.
const Hint = "artifact names are lowercase letters, digits and inner hyphens, e.g. my-tool"

// Check applies the checks in the spec's order: empty, more than MaxLen
// characters, a character outside [a-z0-9-], a leading or trailing '-'.
// Length counts characters, not bytes, so a short name with a non-ASCII
// letter is refused for that letter, not as too long. A refusal is
// E-BLD-001 with Murmur's wording of the first check failed
// (manifest.md §2.4).
func Check(name string) error {
	reason := ""
	switch {
	case name == "":
		reason = "must not be empty"
	case utf8.RuneCountInString(name) > MaxLen:
		reason = fmt.Sprintf("must be at most %d characters", MaxLen)
	default:
		for _, r := range name {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
				reason = fmt.Sprintf("may contain only lowercase letters, digits and '-' (found '%c')", r)
				break
			}
		}
		if reason == "" && (strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-")) {
			reason = "must not start or end with '-'"
		}
	}
	if reason == "" {
		return nil
	}
	return diag.New(Code, "invalid artifact name '%s': %s", name, reason).WithHint(Hint)
}
