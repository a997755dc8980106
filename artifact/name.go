package artifact

import (
	"fmt"
	"strings"
)

// MaxNameLen is the longest artifact name mur build accepts.
const MaxNameLen = 100

// CheckName applies the mur build naming rule (E-BLD-001): 1–100 characters
// of lowercase ASCII letters, digits and '-', not starting or ending with '-'.
// Publish, install and run do not check it, as in Murmur.
func CheckName(name string) error {
	reason := ""
	switch {
	case name == "":
		reason = "must not be empty"
	case len(name) > MaxNameLen:
		reason = fmt.Sprintf("must be at most %d characters", MaxNameLen)
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
	return newError(CodeBadName, "artifact names are lowercase letters, digits and inner hyphens, e.g. my-tool", nil,
		fmt.Sprintf("invalid artifact name '%s': %s", name, reason))
}

// FileName is the conventional package file name, "<name>-<version>.mur.zip",
// or "<name>-<version>-<os>-<arch>.mur.zip" for a platform variant.
func FileName(name, version string, p *Platform) string {
	if p != nil {
		return name + "-" + version + "-" + p.String() + Ext
	}
	return name + "-" + version + Ext
}

// Ext is the package file extension.
const Ext = ".mur.zip"
