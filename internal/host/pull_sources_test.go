package host

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/store/install"
	"github.com/mur-go/mur/internal/store/registry"
	"github.com/mur-go/mur/internal/tools"
)

// missing has no package at all.
type missing struct{}

func (missing) Resolve(_ context.Context, name, version string, _ *artifact.Platform) (*registry.Resolved, error) {
	return nil, registry.NotFoundError(name, version)
}

// A pull asks install's sources in order, as staging does, and words
// every failure in one line.
func TestRegistryPullerSources(t *testing.T) {
	data := skillZip(t, "style", "# guidance")
	for _, tc := range []struct {
		name    string
		sources []registry.Resolver
		want    string // "" = pulled
	}{
		{"second store has it", []registry.Resolver{missing{}, &fakeRegistry{data: data, sha: artifact.SHA256Hex(data), rt: artifact.Static}}, ""},
		{"no store has it", []registry.Resolver{missing{}, missing{}},
			"failed to resolve style@1.0.0: not installed in the project or global store (run `mur install style@1.0.0` first): artifact not found"},
		{"no stores", nil,
			"failed to resolve style@1.0.0: not installed in the project or global store (run `mur install style@1.0.0` first): artifact not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			var srcs []install.Source
			for i, r := range tc.sources {
				srcs = append(srcs, install.Source{Name: filepath.Join(dir, "store", string(rune('a'+i))), Resolver: r})
			}
			p := &tools.RegistryPuller{Sources: srcs, LockPath: filepath.Join(dir, "murmur.lock"), ToolsDir: filepath.Join(dir, "tools")}
			_, err := p.Pull(context.Background(), "style", "1.0.0")
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("pull: %v", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
