package stage

import (
	"context"
	"fmt"
	"os"

	"github.com/mur-go/mur/internal/format/artifact"
)

// Precompile compiles the WASM component of the package file at path
// with comp, so that comp's compilation cache holds its machine code and
// the inflated payload: the first run of a capsule that uses the package
// then loads it (tens of milliseconds) instead of compiling it (seconds
// for a large guest). A skill or a native tool has no component: ok is
// false and nothing is compiled. A failure leaves the package as it is;
// a run of it would fail the same way (E-RUN-001).
func Precompile(ctx context.Context, comp Compiler, path string, getenv func(string) string) (ok bool, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	pkg, err := artifact.Open(data, artifact.MaxDecompressedBytes(getenv))
	if err != nil {
		return false, err
	}
	m, err := pkg.ParsedManifest()
	if err != nil {
		return false, err
	}
	if m.PackagingType() != artifact.Wasm {
		return false, nil
	}
	what := m.Name + "@" + m.Version
	_, wasm, err := pkg.RootWasmFrom(payloadCache(ctx, comp))
	if err != nil {
		return false, fmt.Errorf("reading the component of %s: %w", what, err)
	}
	if _, err := compile(ctx, comp, what, wasm); err != nil {
		return false, err
	}
	return true, nil
}
