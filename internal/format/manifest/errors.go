package manifest

import (
	"github.com/mur-go/mur/internal/base/artifactname"
	"github.com/mur-go/mur/internal/base/diag"
)

// Error codes. They are Murmur's, kept verbatim so scripts and docs that
// match on them keep working.
const (
	// CodeMissingField: a required top-level field is absent or blank.
	CodeMissingField diag.Code = "E-MAN-001"
	// CodeSyntax: the YAML does not parse, or (capsule role) a value has
	// the wrong type, as Murmur's typed decoder reports it.
	CodeSyntax diag.Code = "E-MAN-002"
	// CodeInvalid: a semantic check failed (artifact entry, capability,
	// inference) or (artifact role) a value has the wrong type.
	CodeInvalid diag.Code = "E-MAN-003"
	// CodeNotFound: the manifest file does not exist.
	CodeNotFound diag.Code = "E-IO-001"
	// CodeIO: reading a file failed, or a .env / registry setting is bad.
	CodeIO diag.Code = "E-IO-003"
	// CodeNetRule: a network.allow entry is malformed (checked at staging).
	CodeNetRule diag.Code = "E-CAP-001"
	// CodeScope: a filesystem.scope escapes the workdir (checked at staging).
	CodeScope diag.Code = "E-CAP-002"
	// CodeBuildName: an artifact name `mur build` refuses.
	CodeBuildName = artifactname.Code
)

// At is the position of a problem in a manifest: file "" is murmur.yaml,
// path names the field ("artifacts[2].name"), line and column (1-based,
// 0 = unknown) point at the offending node so an editor can jump to it.
// Every manifest problem has one, so it renders as
//
//	murmur.yaml:4:7: error[E-MAN-003]: <message>
//	  hint: <hint>
func At(file, path string, line, column int) diag.Pos {
	if file == "" {
		file = FileName
	}
	return diag.Pos{File: file, Path: path, Line: line, Column: column}
}
