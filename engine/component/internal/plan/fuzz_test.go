package plan

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mur-go/mur/engine/component/internal/binary"
	"github.com/mur-go/mur/engine/component/internal/validate"
)

// FuzzElaborate feeds decodable but hostile components to validation and
// elaboration, which must refuse them with an error, never panic or run
// away.
func FuzzElaborate(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "guests", "out", "engine-*.wasm"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "guests", "out", "hook-*.wasm"))
	invalid, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "invalid", "*.wasm"))
	valid, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "valid", "*.wasm"))
	for _, p := range append(append(append(paths, more...), invalid...), valid...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := binary.DecodeComponent(b)
		if err != nil {
			return
		}
		// The structural pass runs first in Compile, but elaboration must
		// also stand on its own.
		_, _ = validate.Structure(c)
		if p, err := Elaborate(c, nil); err == nil {
			_ = p.World()
		}
	})
}
