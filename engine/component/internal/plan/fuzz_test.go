package plan

import (
	"encoding/base64"
	"encoding/json"
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
	for _, b := range referenceComponents(f) {
		f.Add(b)
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

// referenceComponents are the components of the component model's
// reference tests (../../testdata/reference), valid and invalid: every
// rule they probe is a seed.
func referenceComponents(f *testing.F) [][]byte {
	var out [][]byte
	err := filepath.WalkDir(filepath.Join("..", "..", "testdata", "reference", "wast"), func(p string, d os.DirEntry, err error) error {
		if err != nil || filepath.Ext(p) != ".json" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var file struct{ Commands []struct{ Wasm string } }
		if err := json.Unmarshal(data, &file); err != nil {
			return err
		}
		for _, c := range file.Commands {
			if b, err := base64.StdEncoding.DecodeString(c.Wasm); err == nil && len(b) > 0 {
				out = append(out, b)
			}
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	return out
}
