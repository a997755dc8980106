package artifact

import "github.com/mur-go/mur/internal/base/artifactname"

// MaxNameLen is the longest artifact name, in characters, mur build accepts.
const MaxNameLen = artifactname.MaxLen

// CheckName applies the mur build naming rule (E-BLD-001): 1–100 characters
// of lowercase ASCII letters, digits and '-', not starting or ending with '-'.
// Publish, install and run do not check it, as in Murmur.
func CheckName(name string) error {
	return artifactname.Check(name)
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
