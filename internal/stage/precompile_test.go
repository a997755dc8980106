package stage

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/internal/testing/testguest"
)

// TestPrecompile: a package's component is compiled into the cache (a
// second engine on it compiles nothing new), a skill has nothing to
// compile, and a payload that is no component is E-RUN-001 naming it.
func TestPrecompile(t *testing.T) {
	ctx := context.Background()
	wasm := string(testguest.Bytes(t, testguest.DriverCanned))
	for _, tc := range []struct {
		name   string
		pkg    []byte
		ok     bool
		failed bool
	}{
		{"wasm", testguest.Zip(t, "murmur.yaml", "name: canned\nversion: \"0.1.0\"\nruntime: tool\n", "canned.wasm", wasm), true, false},
		{"skill", testguest.Zip(t, "murmur.yaml", "name: tips\nversion: \"0.1.0\"\nruntime: skill\n", "skill.md", "# tips\n"), false, false},
		{"not a component", testguest.Zip(t, "murmur.yaml", "name: fake\nversion: \"0.1.0\"\nruntime: tool\n", "fake.wasm", "\x00asm-fake"), false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "p.mur.zip")
			if err := os.WriteFile(path, tc.pkg, 0o644); err != nil {
				t.Fatal(err)
			}
			cache := filepath.Join(dir, "cache")
			eng, err := component.NewEngine(ctx, component.Config{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close(ctx)
			ok, err := Precompile(ctx, eng, path, func(string) string { return "" })
			if ok != tc.ok || (err != nil) != tc.failed {
				t.Fatalf("Precompile = %v, %v; want %v, failed %v", ok, err, tc.ok, tc.failed)
			}
			if tc.failed && (codeOf(err) != CodeCompile || !strings.Contains(err.Error(), "fake@0.1.0")) {
				t.Errorf("err = %v, want E-RUN-001 naming fake@0.1.0", err)
			}
			before := tree(t, cache)
			if tc.ok {
				testguest.CompileIn(t, cache, []byte(wasm)).Close(ctx)
				if after := tree(t, cache); len(after) != len(before) {
					t.Errorf("a run would compile again: the cache went from %d to %d entries", len(before), len(after))
				}
			}
		})
	}
}
