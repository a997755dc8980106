package install

import (
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
	"github.com/mur-go/mur/internal/format/artifact"
)

// Place is step 5 for a running session: it lays the artifact out in dir
// (tools/<name>/) as staging does: murmur.yaml verbatim, then the native
// binary as <name> (mode 0755) or skill.md. A wasm payload is not written;
// the caller compiles PayloadData.
//
// dir's parent may be reachable by guests (the session's tools/), so the
// files are written inside an os.Root of it and a link planted in place of
// one of them is refused rather than followed.
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
	parent, name := filepath.Split(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return failure(StepStore, err)
	}
	root, err := os.OpenRoot(parent)
	if err != nil {
		return failure(StepStore, err)
	}
	defer root.Close()
	if err := root.MkdirAll(name, 0o755); err != nil {
		return failure(StepStore, err)
	}
	for _, f := range files {
		if err := confined.WriteFile(root, filepath.Join(name, f.name), f.data, f.perm, os.O_CREATE|os.O_TRUNC); err != nil {
			return failure(StepStore, err)
		}
	}
	return nil
}
