package install

import (
	"os"
	"path/filepath"

	"github.com/mur-go/mur/artifact"
)

// Place is step 5 for a running session: it lays the artifact out in dir
// (tools/<name>/) as staging does: murmur.yaml verbatim, then the native
// binary as <name> (mode 0755) or skill.md. A wasm payload is not written;
// the caller compiles PayloadData.
func Place(dir string, a *Artifact) error {
	type file struct {
		name string
		data []byte
		perm os.FileMode
	}
	files := []file{{artifact.ManifestEntry, a.ManifestYAML, 0o644}}
	switch a.Payload {
	case PayloadNative:
		files = append(files, file{a.Name, a.PayloadData, 0o755})
	case PayloadSkill:
		files = append(files, file{artifact.SkillEntry, a.PayloadData, 0o644})
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return failure(StepStore, a.Name, a.Version, dir, err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, f.perm); err != nil {
			return failure(StepStore, a.Name, a.Version, dir, err)
		}
	}
	return nil
}
