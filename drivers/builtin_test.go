package drivers_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/mur-go/mur/artifact"
	"github.com/mur-go/mur/drivers"
	"github.com/mur-go/mur/registry"
)

// The built-in packages are valid .mur.zip files whose bytes are the same
// on every assembly, so murmur.lock pins them like any artifact.
func TestBuiltinPackages(t *testing.T) {
	for _, b := range drivers.All() {
		t.Run(b.Name, func(t *testing.T) {
			one, err := b.Package()
			if err != nil {
				t.Fatal(err)
			}
			two, _ := b.Package()
			if !bytes.Equal(one, two) {
				t.Error("two assemblies differ")
			}
			r, err := (&drivers.Registry{}).Resolve(context.Background(), b.Name, b.Version, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Verify(); err != nil || !bytes.Equal(r.Data, one) {
				t.Errorf("resolved package: %v", err)
			}
			m, err := artifact.Verify(r.Data, artifact.DefaultMaxDecompressedBytes)
			if err != nil || m.Name != b.Name || m.Runtime != "driver" {
				t.Errorf("package: %+v, %v", m, err)
			}
		})
	}
	if _, err := (&drivers.Registry{}).Resolve(context.Background(), "anthropic", "9.9.9", nil); !isNotFound(err) {
		t.Errorf("unknown version: %v", err)
	}
}

func isNotFound(err error) bool { return errors.Is(err, registry.ErrNotFound) }
