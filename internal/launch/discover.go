package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mur-go/mur/internal/base/diag"
	"github.com/mur-go/mur/internal/stage"
)

// ComponentFile is the script component's preferred name.
const ComponentFile = stage.ComponentFile

// FindComponent finds a script capsule's component in its project dir:
// capsule.wasm if present, else the one root *.wasm; none or several is
// E-RUN-004 (a2a-cli.md §6.3).
func FindComponent(dir string) (string, error) {
	preferred := filepath.Join(dir, ComponentFile)
	if st, err := os.Stat(preferred); err == nil && st.Mode().IsRegular() {
		return preferred, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", &diag.Error{Code: CodeIO, Err: err,
			Msg: fmt.Sprintf("failed to read the capsule directory %s: %v", dir, err)}
	}
	var found []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".wasm") && e.Type().IsRegular() {
			found = append(found, e.Name())
		}
	}
	slices.Sort(found)
	switch len(found) {
	case 1:
		return filepath.Join(dir, found[0]), nil
	case 0:
		return "", &diag.Error{Code: CodeNoComponent,
			Msg:  fmt.Sprintf("script capsule has no component: expected %s (or exactly one *.wasm) in %s", ComponentFile, dir),
			Hint: "build the capsule's component into capsule.wasm beside murmur.yaml, or add an inference: block to make it an agent capsule"}
	}
	return "", &diag.Error{Code: CodeNoComponent,
		Msg:  fmt.Sprintf("script capsule has %d candidate components in %s (%s) and no %s", len(found), dir, strings.Join(found, ", "), ComponentFile),
		Hint: "name the capsule's component capsule.wasm, or keep exactly one *.wasm beside murmur.yaml"}
}
