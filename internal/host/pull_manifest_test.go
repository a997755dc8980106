package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/testing/testguest"
	"github.com/mur-go/mur/internal/tools"
)

// TestPullRefusesAnUnparsableManifest: a package that hashes right but
// whose murmur.yaml is not an artifact manifest is refused before anything
// reaches tools/ or murmur.lock, as staging and mur install refuse it
// (before the shared pipeline, pull wrote it into the workdir and pinned it).
func TestPullRefusesAnUnparsableManifest(t *testing.T) {
	for _, tc := range []struct{ name, manifest string }{
		{"not yaml", "name: [style\n"},
		{"not a mapping", "- style\n"},
		{"no name", "version: 1.0.0\nruntime: skill\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			lockPath := filepath.Join(dir, "murmur.lock")
			toolsDir := filepath.Join(dir, "workdir", "tools")
			data := testguest.Zip(t, "murmur.yaml", tc.manifest, "skill.md", "# guidance")
			reg := &fakeRegistry{data: data, sha: artifact.SHA256Hex(data), rt: artifact.Static}
			p := &tools.RegistryPuller{Sources: []install.Source{{Name: "registry", Resolver: reg}}, LockPath: lockPath, ToolsDir: toolsDir}
			_, err := p.Pull(context.Background(), "style", "1.0.0")
			if err == nil || !strings.HasPrefix(err.Error(), "failed to read the manifest of style@1.0.0: ") {
				t.Fatalf("err = %v", err)
			}
			for _, path := range []string{toolsDir, lockPath} {
				if _, err := os.Stat(path); !os.IsNotExist(err) {
					t.Errorf("%s was written (stat: %v)", path, err)
				}
			}
		})
	}
}
