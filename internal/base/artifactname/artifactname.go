// Package artifactname is `mur build`'s artifact name rule (E-BLD-001),
// once for manifest and artifact: artifact must not import manifest, and
// manifest may import only internal helpers, so the rule lives below both.
package artifactname

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxLen is the longest name, in characters (Unicode code points, as
// Murmur counts them), that `mur build` accepts.
const MaxLen = 100

// Hint is what a user is told to do about a refused name.
const Hint = "artifact names are lowercase letters, digits and inner hyphens, e.g. my-tool"

// Error is a name that breaks the rule; Reason is Murmur's wording of the
// first check it failed (manifest.md §2.4).
type Error struct {
	Name   string
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("invalid artifact name '%s': %s", e.Name, e.Reason)
}

// Check applies the checks in the spec's order: empty, more than MaxLen
// characters, a character outside [a-z0-9-], a leading or trailing '-'.
// Length counts characters, not bytes, so a short name with a non-ASCII
// letter is refused for that letter, not as too long.
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
	return &Error{Name: name, Reason: reason}
}
