package cli

import (
	"fmt"
	"io"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
)

// The packaging commands read artifact manifests with the manifest package,
// so authors get its positions, did-you-mean warnings and the W-SEC-004
// scan; the artifact package only needs the few fields packaging uses.

// artifactManifestParser returns a parser for artifact.BuildOptions.Parse
// that prints manifest warnings to w.
func artifactManifestParser(w io.Writer, filename string) func([]byte) (*artifact.Manifest, error) {
	return func(data []byte) (*artifact.Manifest, error) {
		m, warns, err := parseArtifactManifest(data, filename)
		for _, wn := range warns {
			fmt.Fprintln(w, wn)
		}
		return m, err
	}
}

// parseArtifactManifest parses data as an artifact manifest.
func parseArtifactManifest(data []byte, filename string) (*artifact.Manifest, []manifest.Warning, error) {
	f, warns, err := manifest.Parse(data, filename, manifest.ParseOptions{Role: manifest.RoleArtifact})
	if err != nil {
		return nil, warns, err
	}
	a := f.Artifact
	return &artifact.Manifest{
		Name: a.Name, Version: a.Version, Runtime: a.Runtime,
		Implementation: a.Implementation, Execution: a.Execution,
		RequiresFiles: a.RequiresFiles, Description: a.Description,
	}, warns, nil
}

// scanSecrets adapts manifest.ScanSecrets (W-SEC-004) to build warnings.
func scanSecrets(filename string) func([]byte) []artifact.Warning {
	return func(data []byte) []artifact.Warning {
		warns, err := manifest.ScanSecrets(data, filename)
		if err != nil {
			return nil // the parse that follows reports the syntax error
		}
		out := make([]artifact.Warning, len(warns))
		for i, w := range warns {
			out[i] = artifact.Warning{Code: w.Code, Msg: manifest.FileName + ": " + w.Msg, Hint: w.Hint}
		}
		return out
	}
}
