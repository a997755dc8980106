package firstparty_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/internal/format/artifact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/store/firstparty"
	"github.com/mur-go/mur/internal/store/registry"
)

// The built-in packages are valid .mur.zip files whose bytes are the same
// on every assembly, so murmur.lock pins them like any artifact.
func TestBuiltinPackages(t *testing.T) {
	for _, b := range firstparty.All() {
		t.Run(b.Name, func(t *testing.T) {
			one, err := b.Package()
			if err != nil {
				t.Fatal(err)
			}
			two, _ := b.Package()
			if !bytes.Equal(one, two) {
				t.Error("two assemblies differ")
			}
			r, err := (&firstparty.Registry{}).Resolve(context.Background(), b.Name, b.Version, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Verify(); err != nil || !bytes.Equal(r.Data, one) {
				t.Errorf("resolved package: %v", err)
			}
			m, err := artifact.Verify(r.Data, artifact.DefaultMaxDecompressedBytes)
			if err != nil || m.Name != b.Name || m.Runtime != b.Runtime {
				t.Errorf("package: %+v, %v", m, err)
			}
		})
	}
	if _, err := (&firstparty.Registry{}).Resolve(context.Background(), "anthropic", "9.9.9", nil); !isNotFound(err) {
		t.Errorf("unknown version: %v", err)
	}
}

func isNotFound(err error) bool { return errors.Is(err, registry.ErrNotFound) }

// A built-in hook's manifest says what the hook's own murmur.yaml in
// guests/ says, so installing it offline stages the same contract.
func TestBuiltinHookManifests(t *testing.T) {
	for _, b := range firstparty.All() {
		if b.Runtime != "hook" {
			continue
		}
		t.Run(b.Name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "..", "..", "guests", "go", b.Name, "murmur.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			want := parseArtifact(t, src)
			got := parseArtifact(t, []byte(b.Manifest()))
			wc, werr := want.HookContract()
			gc, gerr := got.HookContract()
			if werr != nil || gerr != nil || gc != wc || got.Name != want.Name || got.Version != want.Version ||
				got.Description != want.Description || got.Runtime != "hook" {
				t.Errorf("built-in manifest %+v (%+v, %v), guests' %+v (%+v, %v)", got, gc, gerr, want, wc, werr)
			}
		})
	}
}

func parseArtifact(t *testing.T, b []byte) *manifest.Artifact {
	t.Helper()
	f, _, err := manifest.Parse(b, "murmur.yaml", manifest.ParseOptions{Role: manifest.RoleArtifact})
	if err != nil {
		t.Fatal(err)
	}
	return f.Artifact
}
